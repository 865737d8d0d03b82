import ArgumentParser
import Console
import Evaluation
import Golden
import Intake
import JSONSchema
import Pipeline
import Replay

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
        if step == .confirm { throw ValidationError(FixturePlan.RenderingError.notAModelStep(.confirm).description) }
    }

    func run() async throws {
        let layout = try projectOptions.layout()
        let corpus = try projectOptions.corpus()
        let loaded = try Failure.exitingOnError { try corpus.load(fixture) }
        let prompts = try variantOptions.prompts(layout: layout)
        let plan = FixturePlan(loaded)
        let stepIDs = plan.modelStepIDs.filter { step?.matches($0) ?? true }
        if let step, stepIDs.isEmpty, case .one(let id) = step.kind {
            try Failure.exitingOnError { _ = try plan.rendering(of: id) }
        }
        let track = prompts.variants.track
        let upstream = ApprovedOutputs(
            store: GoldenStore.forRun(golden: layout.golden, track: track),
            preferring: RecordedOutputs(store: Project(layout: layout).cassettes(track: track)),
            builtFromReply: prompts.stepsBuildingOutputFromReply)
        let out = Terminal.standardOutput
        for (index, stepID) in stepIDs.enumerated() {
            let rendering = try Failure.exitingOnError { try plan.rendering(of: stepID, upstream: upstream) }
            guard let pipelineStep = stepID.step else { continue }
            let rendered = prompts.render(pipelineStep, input: rendering.input)
            let meta = rendered.metadata
            let variant = prompts[pipelineStep].variant.map { " variant \($0)" } ?? ""
            if index > 0 { out.writeLine() }
            out.writeLine(out.styled("# \(stepID) · \(pipelineStep.rawValue) v\(meta.version)\(variant) · temperature \(meta.temperature) · max_tokens \(meta.maxTokens) · schema \(prompts[pipelineStep].schemaFile)\(meta.compactJSON == true ? " · compact JSON" : "")", .dim))
            let files = prompts[pipelineStep].variantFiles
            if let name = prompts[pipelineStep].variant {
                let inherited = files.inherited.map { "\($0.file) (\($0.from))" }
                out.writeLine(out.styled("# variant \(name) overrides \(files.overridden.joined(separator: ", ")); inherits "
                    + (inherited.isEmpty ? "nothing" : inherited.joined(separator: ", ")), .dim))
            }
            for source in rendering.upstream { out.writeLine(out.styled("# \(source)", .dim)) }
            out.writeLine(out.styled("## system", .bold))
            out.writeLine(rendered.system)
            out.writeLine()
            out.writeLine(out.styled("## user", .bold))
            out.writeLine(rendered.user)
            if rendered.schema != prompts[pipelineStep].replySchemaDocument {
                out.writeLine()
                out.writeLine(out.styled("## reply schema (fitted to this person; the file's is \(prompts[pipelineStep].schemaFile))", .bold))
                out.writeLine(rendered.schema.serialized(JSONWriteOptions(pretty: true)))
            }
        }
    }
}
