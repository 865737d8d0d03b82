import ArgumentParser
import Golden
import Intake

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

    var isEverything: Bool { fixture.isEmpty && step == nil }

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
            try corpus.checkNames(fixture, alsoKnown: GoldenStore(folder: layout.golden).fixtureFolders())
        }
    }
}
