import ArgumentParser
import Foundation
import Golden
import Intake
import JSONSchema
import Pipeline

extension PipelineStep: ExpressibleByArgument {}

/// `trainer-eval render --fixture F --step S`
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Print the exact messages a step would send, without calling a model.",
        discussion: """
            Steps that need an earlier step's output (option edits, program draft and edit) \
            take it from the approved golden outputs, so the messages are the ones a replay \
            sends; where none is approved, a labelled placeholder stands in. The header says \
            which was used.
            """
    )

    @OptionGroup var projectOptions: ProjectOptions

    @Option(help: "The fixture name (its file name without .json).")
    var fixture: String

    @Option(help: "The step: goal-options, goal-options-edit, program-draft or program-edit.")
    var step: PipelineStep

    @Option(help: ArgumentHelp("For goal-options-edit: which round of feedback (1-based).", valueName: "n"))
    var edit: Int = 1

    func run() async throws {
        let layout = try projectOptions.layout()
        let corpus = try projectOptions.corpus()
        let loaded = try Failure.exitingOnError { try corpus.load(fixture) }
        let prompts = try Failure.exitingOnError { try PromptLibrary(layout: layout) }
        let rendering = try Failure.exitingOnError {
            try RenderInputs.rendering(for: step, fixture: loaded, editRound: edit) { stepID in
                Self.upstreamOutput(of: stepID, fixture: loaded.name, golden: layout.golden)
            }
        }
        let rendered = prompts.render(step, input: rendering.input)
        let out = Terminal.standardOutput
        let meta = rendered.metadata
        out.writeLine(out.styled("# \(step.rawValue) v\(meta.version) · temperature \(meta.temperature) · max_tokens \(meta.maxTokens) · schema \(meta.schema)", .dim))
        for source in rendering.upstream { out.writeLine(out.styled("# \(source)", .dim)) }
        out.writeLine(out.styled("## system", .bold))
        out.writeLine(rendered.system)
        out.writeLine()
        out.writeLine(out.styled("## user", .bold))
        out.writeLine(rendered.user)
    }

    /// What a replay feeds the next step: the recorded reply, exactly as the model
    /// ordered it. Failing that, the approved output (canonical key order). A step
    /// approved as unusable feeds nothing: in a run, the steps after it are skipped.
    static func upstreamOutput(of stepID: String, fixture: String, golden: URL) -> RenderInputs.Upstream? {
        let approved = try? GoldenStore(folder: golden).approved(fixture: fixture, step: stepID)
        if approved?.checks[GoldenComparison.usableOutputCheck] == false { return nil }
        let cassettes = CassetteStore(folder: golden)
        if let reply = (try? cassettes.cassette(fixture: fixture, step: stepID))??.interactions.last?.response.text,
           case .success(let extraction) = JSONExtractor.extract(from: reply) {
            return (extraction.value, "the recorded reply")
        }
        return approved.map { ($0.output, "the approved output") }
    }
}
