import ArgumentParser
import Console
import Golden
import Intake
import Pipeline

/// `trainer-eval promote NAME`: variants become their steps' base prompts.
struct PromoteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "promote",
        abstract: "Make prompt variants the base prompts, once the comparison says they are better.",
        discussion: """
            NAME promotes the variant NAME of every step that has one, as `run --variant NAME` \
            selects it; STEP=NAME (or STEP NAME) promotes one step's. The files in \
            prompts/STEP/variants/NAME/ replace the base's (prompt.yaml key by key) and the version \
            goes up. The variants' approved outputs and recordings under golden/variants/ become \
            the base's, so the new base replays offline at once. With --keep-base-as OLD the old \
            base becomes variant OLD of the same steps, with its golden files, so \
            `run --variant OLD` still replays it.
            """
    )

    @OptionGroup var projectOptions: ProjectOptions

    @Argument(help: ArgumentHelp("NAME, STEP=NAME (repeatable), or STEP NAME.", valueName: "variant"))
    var variant: [String]

    @Option(name: .customLong("keep-base-as"), help: ArgumentHelp("Keep the old base prompts as this variant.", valueName: "name"))
    var keepBaseAs: String?

    func run() async throws {
        let layout = try projectOptions.layout()
        // `promote goal-options terse` reads as `promote goal-options=terse`.
        var values = variant
        if values.count == 2, PipelineStep(rawValue: values[0]) != nil, !values[1].contains("=") {
            values = ["\(values[0])=\(values[1])"]
        }
        let selection = try Failure.exitingOnError { try VariantSelection(resolving: values, layout: layout) }
        let promotion = VariantPromotion(selection: selection, keepingBaseAs: keepBaseAs)
        let outcome = try Failure.exitingOnError { try promotion.apply(layout: layout) }
        PromotionPrinter().print(outcome, selection: selection, keptBaseAs: keepBaseAs)
    }
}
