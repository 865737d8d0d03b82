import ArgumentParser
import Golden
import Intake
import Pipeline

extension PipelineStep: ExpressibleByArgument {}

/// `trainer-eval render --fixture F --step S`
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Print the exact messages a step would send, without calling a model.",
        discussion: """
            Steps that need an earlier step's output (option edits, program draft and edit) \
            take it from the recorded replies (else the approved golden outputs), so the \
            messages are the ones a replay sends; where there is neither, a labelled \
            placeholder stands in. The header says which was used.
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
                RenderInputs.replayedOutput(of: stepID, fixture: loaded.name, golden: layout.golden)
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
}
