import ArgumentParser
import Console
import Evaluation
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
    @OptionGroup var variantOptions: VariantOptions

    @Option(help: "The fixture name (its file name without .json).")
    var fixture: String

    @Option(
        help: ArgumentHelp("Only this step: \(StepSelector.spellings). Default: every model step of the fixture.", valueName: "step"),
        transform: StepSelector.argument)
    var step: StepSelector?

    func validate() throws {
        if let step, step.pipelineStep == nil, case .one(let id) = step.kind {
            throw ValidationError(FixturePlan.RenderingError.notAModelStep(id).description)
        }
    }

    func run() async throws {
        let project = try projectOptions.openProject()
        let loaded = try Failure.exitingOnError { try projectOptions.corpus().load(fixture) }
        let prompts = try variantOptions.prompts(layout: project.layout)
        let plan = FixturePlan(loaded)
        let stepIDs = plan.modelStepIDs.filter { step?.matches($0) ?? true }
        if let step, stepIDs.isEmpty, case .one(let id) = step.kind {
            try Failure.exitingOnError { _ = try plan.rendering(of: id) }
        }
        try Failure.exitingOnError {
            try RenderingPrinter().print(stepIDs, of: plan, prompts: prompts, upstream: project.upstreamOutputs(for: prompts))
        }
    }
}
