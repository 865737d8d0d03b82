import ArgumentParser
import Golden
import Intake
import Pipeline

/// `trainer-eval render --fixture F [--step S]`
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

    @Option(
        help: ArgumentHelp("Only this step: \(StepSelector.spellings). Default: every model step of the fixture.", valueName: "step"),
        transform: StepSelector.argument)
    var step: StepSelector?

    func validate() throws {
        if step?.kind == .confirm {
            throw ValidationError("confirm sends no messages: it chooses one of the goal options by the scenario's `confirm` rule.")
        }
    }

    func run() async throws {
        let layout = try projectOptions.layout()
        let corpus = try projectOptions.corpus()
        let loaded = try Failure.exitingOnError { try corpus.load(fixture) }
        let prompts = try Failure.exitingOnError { try PromptLibrary(layout: layout) }
        let stepIDs = Pipeline.stepIDs(for: loaded.scenario).filter { step?.matches($0) ?? true }
        if let step, stepIDs.isEmpty, case .optionEdit(let round) = step.kind {
            try Failure.exitingOnError {
                throw RenderInputs.RoundOutOfRange(fixture: loaded.name, round: round, available: loaded.scenario.optionEdits.count)
            }
        }
        let out = Terminal.standardOutput
        for (index, stepID) in stepIDs.enumerated() {
            guard let pipelineStep = PipelineStep(stepID: stepID) else { continue }
            let round = StepSelector.editRound(of: stepID) ?? 1
            let rendering = try Failure.exitingOnError {
                try RenderInputs.rendering(for: pipelineStep, fixture: loaded, editRound: round) { upstreamID in
                    RenderInputs.replayedOutput(of: upstreamID, fixture: loaded.name, golden: layout.golden)
                }
            }
            let rendered = prompts.render(pipelineStep, input: rendering.input)
            let meta = rendered.metadata
            if index > 0 { out.writeLine() }
            out.writeLine(out.styled("# \(stepID) · \(pipelineStep.rawValue) v\(meta.version) · temperature \(meta.temperature) · max_tokens \(meta.maxTokens) · schema \(meta.schema)", .dim))
            for source in rendering.upstream { out.writeLine(out.styled("# \(source)", .dim)) }
            out.writeLine(out.styled("## system", .bold))
            out.writeLine(rendered.system)
            out.writeLine()
            out.writeLine(out.styled("## user", .bold))
            out.writeLine(rendered.user)
        }
    }
}
