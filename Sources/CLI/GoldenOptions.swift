import ArgumentParser
import Console
import Evaluation
import Golden
import Intake
import Storage

extension StepSelector {
    /// Parses `--step` and `--until` values; an unknown step is a usage error with the nearest name.
    static func argument(_ text: String) throws -> StepSelector {
        do {
            return try StepSelector(parsing: text)
        } catch {
            throw ValidationError(error.description)
        }
    }
}

/// Which pending or golden entries a review command applies to.
struct GoldenSelection: ParsableArguments {
    @Option(help: ArgumentHelp("Only this fixture (repeatable).", valueName: "name"))
    var fixture: [String] = []

    @Option(
        help: ArgumentHelp("Only this step: \(StepSelector.spellings).", valueName: "step"),
        transform: StepSelector.argument)
    var step: StepSelector?

    @OptionGroup var variantOptions: VariantOptions

    var isEverything: Bool { fixture.isEmpty && step == nil }

    /// The selection as a suggested command spells it: ` --fixture a --step s --variant v`.
    var arguments: String {
        fixture.map { " --fixture \($0)" }.joined() + (step.map { " --step \($0)" } ?? "") + variantOptions.variant.map { " --variant \($0)" }.joined()
    }

    /// The golden outputs the selection reviews: a variant's folder for the steps it holds.
    func store(in projectOptions: ProjectOptions) throws -> any GoldenStorage {
        let layout = try projectOptions.layout()
        return GoldenStore.forRun(golden: layout.golden, track: try variantOptions.selection(layout: layout).track)
    }

    /// The review of the selected outputs, diffed with each step's declared options.
    func review(in projectOptions: ProjectOptions) throws -> GoldenReview {
        let layout = try projectOptions.layout()
        let variants = try variantOptions.selection(layout: layout)
        return try Failure.exitingOnError { try GoldenReview(layout: layout, variants: variants) }
    }

    func includes(_ key: StepKey) -> Bool {
        guard fixture.isEmpty || fixture.contains(key.fixture) else { return false }
        return step?.matches(key.step) ?? true
    }

    /// Refuses a fixture that is neither in fixtures/ nor in golden/ (exit 2, with the
    /// nearest name), so a typo never reads as "nothing pending".
    func checkNames(in projectOptions: ProjectOptions) throws {
        guard !fixture.isEmpty else { return }
        let layout = try projectOptions.layout()
        let corpus = try projectOptions.corpus()
        try Failure.exitingOnError {
            try corpus.checkNames(fixture, alsoKnown: Project(layout: layout).golden.fixtureFolders())
        }
    }

    /// What `pending` (and `diff`, with the diffs) prints: without `--variant` every track's
    /// pending outputs, with it the selected track's.
    func printPending(in projectOptions: ProjectOptions, withDiffs: Bool) throws {
        try checkNames(in: projectOptions)
        let project = try projectOptions.openProject()
        let reviews = variantOptions.variant.isEmpty
            ? try Failure.exitingOnError { try GoldenReview.everyTrack(layout: project.layout) }
            : [try review(in: projectOptions)]
        try Failure.exitingOnError { try PendingPrinter().print(reviews, includes: includes, withDiffs: withDiffs, project: project) }
    }
}
