import ArgumentParser
import Golden
import Intake

/// `trainer-eval promote STEP NAME`: a variant becomes the step's base prompt.
struct PromoteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "promote",
        abstract: "Make a prompt variant the step's base prompt, once the comparison says it is better.",
        discussion: """
            The files in prompts/STEP/variants/NAME/ replace the base's (prompt.yaml key by key) and \
            the version goes up. The variant's approved outputs and recordings under \
            golden/variants/ become the base's, so the new base replays offline at once. With \
            --keep-base-as OLD the old base becomes variant OLD, with its golden files, so \
            `run --variant STEP=OLD` still replays it.
            """
    )

    @OptionGroup var projectOptions: ProjectOptions

    @Argument(help: ArgumentHelp("The prompt step: goal-options, goal-options-edit, program-draft or program-edit.", valueName: "step"))
    var step: String

    @Argument(help: ArgumentHelp("The variant's name (its folder under prompts/STEP/variants/).", valueName: "name"))
    var name: String

    @Option(name: .customLong("keep-base-as"), help: ArgumentHelp("Keep the old base prompt as this variant.", valueName: "name"))
    var keepBaseAs: String?

    func run() async throws {
        let layout = try projectOptions.layout()
        guard let pipelineStep = PipelineStep(rawValue: step) else {
            let steps = PipelineStep.allCases.map(\.rawValue)
            let hint = ClosestMatch.suggestion(for: step, among: steps).map { " Did you mean \($0)?" } ?? ""
            Terminal.standardError.writeLine("error: `\(step)` is not a prompt step.\(hint) Steps: \(steps.joined(separator: ", ")).")
            throw ExitCode(2)
        }
        let promotion = VariantPromotion(step: pipelineStep, variant: name, keepingBaseAs: keepBaseAs)
        let outcome = try Failure.exitingOnError { try promotion.apply(layout: layout) }
        let out = Terminal.standardOutput
        out.writeLine("promoted \(step) variant \(name): v\(outcome.prompt.oldVersion) → v\(outcome.prompt.newVersion)")
        for file in outcome.prompt.changedFiles { out.writeLine("  \(file)") }
        if !outcome.promotedSteps.isEmpty {
            out.writeLine("\(outcome.promotedSteps.count) fixture step\(outcome.promotedSteps.count == 1 ? "" : "s") of approved outputs and recordings moved into golden/.")
        }
        if outcome.promotedSteps.isEmpty || !outcome.staleSteps.isEmpty {
            let count = outcome.staleSteps.count
            let what = outcome.promotedSteps.isEmpty ? "The variant had no recordings" : "\(count) fixture step\(count == 1 ? "" : "s") the variant never recorded keep\(count == 1 ? "s" : "") the old base's files, stale now"
            out.writeLine("\(what): re-record them with `trainer-eval run --provider local --record-missing`, then review with `trainer-eval diff`.")
        }
        if let folder = outcome.oldBaseFolder, let old = keepBaseAs {
            out.writeLine("The old base is variant \(old): \(outcome.keptSteps.count) fixture steps kept in \(folder)/ (`trainer-eval run --variant \(step)=\(old)`).")
        }
    }
}
