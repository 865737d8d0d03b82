import Intake
import Testing

/// Step names as every command takes them: one spelling, checked, with a suggestion.
struct StepSelectorTests {
    static let ids = ["goal-options", "goal-options-edit-1", "goal-options-edit-2", "confirm", "program-draft", "program-edit"]

    @Test(arguments: [
        ("goal-options", ["goal-options"]),
        ("goal-options-edit", ["goal-options-edit-1", "goal-options-edit-2"]),
        ("goal-options-edit-2", ["goal-options-edit-2"]),
        ("confirm", ["confirm"]),
        ("program-draft", ["program-draft"]),
        ("program-edit", ["program-edit"]),
    ])
    func selectsTheStepsItNames(name: String, selected: [String]) throws {
        let selector = try StepSelector(parsing: name)
        #expect(Self.ids.filter(selector.matches) == selected)
        #expect(selector.description == name, "it prints as it is spelled")
    }

    @Test(arguments: [
        ("goal-options", ["goal-options"]),
        ("goal-options-edit-1", ["goal-options", "goal-options-edit-1"]),
        ("goal-options-edit", ["goal-options", "goal-options-edit-1", "goal-options-edit-2"]),
        ("confirm", ["goal-options", "goal-options-edit-1", "goal-options-edit-2", "confirm"]),
        ("program-edit", ids),
    ])
    func aRunThatStopsAfterAStepRunsEverythingBeforeIt(name: String, run: [String]) throws {
        let selector = try StepSelector(parsing: name)
        #expect(Self.ids.filter { selector.reaches(StepID($0)!) } == run)
    }

    @Test func anUnknownNameSuggestsTheNearestStep() {
        #expect(throws: StepSelectorError.unknown("program-drft", suggestion: "program-draft")) { try StepSelector(parsing: "program-drft") }
        #expect(throws: StepSelectorError.unknown("bogus", suggestion: nil)) { try StepSelector(parsing: "bogus") }
        #expect(throws: StepSelectorError.badRound("goal-options-edit-0")) { try StepSelector(parsing: "goal-options-edit-0") }
        let message = (try? StepSelector(parsing: "program-drft")).map { _ in "" } ?? "\(StepSelectorError.unknown("program-drft", suggestion: "program-draft"))"
        #expect(message.hasPrefix("`program-drft` is not a step. Did you mean `program-draft`? Steps: goal-options,"))
    }
}
