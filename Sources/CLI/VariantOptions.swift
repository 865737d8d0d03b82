import ArgumentParser
import Evaluation
import Intake
import Pipeline

/// `--variant`: which prompt variants a command runs, reads or reviews.
struct VariantOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Run a prompt variant: NAME for every step that has prompts/<step>/variants/NAME/, or STEP=NAME for one step (repeatable).",
            discussion: "A variant's approved outputs and recordings live under golden/variants/<label>/, from its first step on.",
            valueName: "[step=]name"))
    var variant: [String] = []

    /// The variant each step runs, or exit code 2 naming the variants there are.
    func selection(layout: ProjectLayout) throws -> VariantSelection {
        try Failure.exitingOnError { try Project(layout: layout).variants(variant) }
    }

    /// The project's prompts with the selected variants, or exit code 2.
    func prompts(layout: ProjectLayout) throws -> PromptLibrary {
        try Failure.exitingOnError { try Project(layout: layout).prompts(variants: variant) }
    }
}
