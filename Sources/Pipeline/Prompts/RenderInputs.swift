import Intake
import JSONSchema

/// Inputs for rendering a step on its own, without running the steps before it.
///
/// Upstream outputs are stand-ins, marked as such in their own text, so a
/// reviewer can see the prompt's shape for any step of any fixture.
public enum RenderInputs {
    public struct RoundOutOfRange: Error, CustomStringConvertible {
        public let fixture: String
        public let round: Int
        public let available: Int

        public var description: String {
            available == 0
                ? "Fixture `\(fixture)` has no option edits in its scenario; goal-options-edit never runs for it."
                : "Fixture `\(fixture)` has \(available) option edit\(available == 1 ? "" : "s"); --edit must be 1...\(available), got \(round)."
        }
    }

    public static func input(for step: PipelineStep, fixture: Fixture, editRound: Int = 1) throws -> StepInput {
        let scenario = fixture.scenario
        switch step {
        case .goalOptions:
            return StepInput(fixture: fixture)
        case .goalOptionsEdit:
            guard (1...max(1, scenario.optionEdits.count)).contains(editRound), !scenario.optionEdits.isEmpty else {
                throw RoundOutOfRange(fixture: fixture.name, round: editRound, available: scenario.optionEdits.count)
            }
            let earlier = scenario.optionEdits.prefix(editRound - 1).map(\.feedback)
            return StepInput(
                fixture: fixture, currentOptions: placeholderOptions, earlierFeedback: Array(earlier),
                feedback: scenario.optionEdits[editRound - 1].feedback)
        case .programDraft:
            return StepInput(fixture: fixture, confirmedGoal: placeholderGoal)
        case .programEdit:
            return StepInput(
                fixture: fixture, feedback: scenario.programEdit.feedback, confirmedGoal: placeholderGoal,
                currentProgram: placeholderProgram)
        }
    }

    static let placeholderGoal: JSONValue = [
        "id": "placeholder-goal",
        "summary": "(placeholder: the option chosen at the confirm step)",
        "detail": "(placeholder: filled from the goal-options output in a real run)",
    ]

    static let placeholderOptions: JSONValue = ["options": [
        ["id": "placeholder-1", "summary": "(placeholder: option 1 from the previous step)", "detail": ""],
        ["id": "placeholder-2", "summary": "(placeholder: option 2 from the previous step)", "detail": ""],
        ["id": "placeholder-3", "summary": "(placeholder: option 3 from the previous step)", "detail": ""],
    ]]

    static let placeholderProgram: JSONValue = [
        "title": "(placeholder: program-draft's program_json)",
        "goal": "(placeholder)",
        "duration_weeks": 8, "days_per_week": 3, "session_minutes": 45,
        "equipment": ["bodyweight"],
        "sessions": [["day": 1, "name": "(placeholder session)", "minutes": 45,
                      "exercises": [["name": "(placeholder exercise)", "sets": 3, "reps": "10", "rest_seconds": 60, "notes": ""]]]],
        "progression": [["weeks": "1-8", "focus": "(placeholder)"]],
        "safety_notes": [],
    ]
}
