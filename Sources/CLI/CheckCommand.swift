import ArgumentParser
import Console
import Golden
import Intake
import JSONSchema
import Pipeline

/// `trainer-eval check --fixture F --step S FILE`: judge one output file as a run would.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Run the schema and every check of a step on one output file.",
        discussion: """
            FILE holds the step's output as the model returns it: {"options": [...]} for the \
            goal-options steps, {"program_json": {...}, "program_markdown": "..."} for the program \
            steps. The fixture's intake record and scenario are what the checks judge it against. \
            For an edit, --previous is the output before the edit, and the feedback is the \
            scenario's (its first round for goal-options-edit) unless --feedback is given; checks \
            that need what was not given are reported as not run, never as failed.

            Exits 0 when every check that ran passes, 1 when any fails (a schema error is a \
            failure), 2 for bad input: an unknown fixture or step, a file that cannot be read or is \
            not JSON (named with its line and column).
            """
    )

    @OptionGroup var projectOptions: ProjectOptions
    @OptionGroup var variantOptions: VariantOptions

    @Option(help: ArgumentHelp("The fixture whose intake and scenario the output answers.", valueName: "name"))
    var fixture: String

    @Option(
        help: ArgumentHelp("The step that produced the output: \(Self.steps.joined(separator: ", ")).", valueName: "step"),
        transform: CheckCommand.step)
    var step: PipelineStep

    @Argument(help: ArgumentHelp("The output file (JSON).", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("For an edit: the output before it (JSON).", valueName: "file"))
    var previous: String?

    @Option(help: ArgumentHelp("For an edit: the feedback it answers, instead of the scenario's.", valueName: "text"))
    var feedback: String?

    @Option(help: ArgumentHelp("text, or json: one object with fixture, step, valid and checks.", valueName: "format"))
    var format: Format = .text

    enum Format: String, ExpressibleByArgument {
        case text, json
    }

    static let steps = PipelineStep.allCases.map(\.rawValue)

    static func step(_ text: String) throws -> PipelineStep {
        if let step = PipelineStep(rawValue: text) { return step }
        let hint = ClosestMatch.suggestion(for: text, among: steps).map { " Did you mean `\($0)`?" } ?? ""
        throw ValidationError("`\(text)` is not a step whose output can be checked.\(hint) Steps: \(steps.joined(separator: ", ")).")
    }

    func validate() throws {
        if previous != nil || feedback != nil, !step.edits {
            throw ValidationError("--previous and --feedback are for the edit steps (\(PipelineStep.allCases.filter(\.edits).map(\.rawValue).joined(separator: ", "))).")
        }
    }

    func run() async throws {
        let layout = try projectOptions.layout()
        let loaded = try Failure.exitingOnError { try projectOptions.corpus().load(fixture) }
        let prompts = try variantOptions.prompts(layout: layout)
        let result = try Failure.exitingOnError {
            try OutputCheck(
                try OutputCheck.read(file), step: step, fixture: loaded, prompts: prompts,
                previous: try previous.map(OutputCheck.read), feedback: feedback)
        }
        let out = Terminal.standardOutput
        switch format {
        case .json: out.writeLine(result.json.serialized(.compact))
        case .text: OutputCheckPrinter(out: out).print(result)
        }
        throw ExitCode(Gate.exitStatus(passes: result.passes).rawValue)
    }
}
