import ArgumentParser
import Golden

/// Which pending or golden entries a review command applies to.
struct GoldenSelection: ParsableArguments {
    @Option(help: ArgumentHelp("Only this fixture (repeatable).", valueName: "name"))
    var fixture: [String] = []

    @Option(help: ArgumentHelp(
        "Only this step: goal-options, goal-options-edit (every round), goal-options-edit-2, program-draft or program-edit.",
        valueName: "step"))
    var step: String?

    func includes(_ key: StepKey) -> Bool {
        guard fixture.isEmpty || fixture.contains(key.fixture) else { return false }
        guard let step else { return true }
        return key.step == step || (step == "goal-options-edit" && key.step.hasPrefix("goal-options-edit-"))
    }
}
