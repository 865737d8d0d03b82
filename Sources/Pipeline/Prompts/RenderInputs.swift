import Intake
import JSONSchema

/// Inputs for rendering a step on its own, without running the steps before it.
///
/// Upstream outputs come from the caller (the recorded replies or approved golden
/// outputs), so the rendered prompt is the one a replay sends. Where there is none,
/// a stand-in marked as such in its own text shows the prompt's shape.
public enum RenderInputs {
    public struct RoundOutOfRange: Error, CustomStringConvertible {
        public let fixture: String
        public let round: Int
        public let available: Int

        public init(fixture: String, round: Int, available: Int) {
            (self.fixture, self.round, self.available) = (fixture, round, available)
        }

        public var description: String {
            available == 0
                ? "Fixture `\(fixture)` has no option edits in its scenario; goal-options-edit never runs for it."
                : "Fixture `\(fixture)` has \(available) option edit\(available == 1 ? "" : "s") (goal-options-edit-1...goal-options-edit-\(available)); there is no goal-options-edit-\(round)."
        }
    }

    /// A step's input and where each upstream output in it came from.
    public struct Rendering: Sendable {
        public var input: StepInput
        /// One line per upstream output, e.g. `current options: goal-options, the recorded reply`.
        public var upstream: [String]
    }

    /// An earlier step's output and where it was found, e.g. `the recorded reply`.
    public typealias Upstream = (value: JSONValue, source: String)

    /// The input for `step`, with upstream outputs from `upstream(stepID)` (the output of
    /// `goal-options`, `goal-options-edit-N` or `program-draft`, when one is known).
    public static func rendering(
        for step: PipelineStep, fixture: Fixture, editRound: Int = 1, upstream find: (String) -> Upstream? = { _ in nil }
    ) throws -> Rendering {
        let scenario = fixture.scenario
        var upstream: [String] = []
        func output(_ id: String, as label: String, placeholder: JSONValue) -> JSONValue {
            if let found = find(id) {
                upstream.append("\(label): \(id), \(found.source)")
                return found.value
            }
            upstream.append("\(label): placeholder (no usable output of \(id))")
            return placeholder
        }
        /// The options the user confirms from: those after the last feedback round.
        func confirmedGoal() -> JSONValue {
            let rounds = scenario.optionEdits.count
            let id = rounds == 0 ? PipelineStep.goalOptions.rawValue : "\(PipelineStep.goalOptionsEdit.rawValue)-\(rounds)"
            if let found = find(id), let choice = ConfirmStep.choose(from: found.value, by: scenario.confirm) {
                upstream.append("confirmed goal: \(choice.note), from \(id), \(found.source)")
                return choice.option
            }
            upstream.append("confirmed goal: placeholder (no usable output of \(id))")
            return placeholderGoal
        }

        switch step {
        case .goalOptions:
            return Rendering(input: StepInput(fixture: fixture), upstream: [])
        case .goalOptionsEdit:
            guard (1...max(1, scenario.optionEdits.count)).contains(editRound), !scenario.optionEdits.isEmpty else {
                throw RoundOutOfRange(fixture: fixture.name, round: editRound, available: scenario.optionEdits.count)
            }
            let previous = editRound == 1 ? PipelineStep.goalOptions.rawValue : "\(PipelineStep.goalOptionsEdit.rawValue)-\(editRound - 1)"
            let options = output(previous, as: "current options", placeholder: placeholderOptions)
            let earlier = scenario.optionEdits.prefix(editRound - 1).map(\.feedback)
            let input = StepInput(
                fixture: fixture, currentOptions: options, earlierFeedback: Array(earlier),
                feedback: scenario.optionEdits[editRound - 1].feedback)
            return Rendering(input: input, upstream: upstream)
        case .programDraft:
            return Rendering(input: StepInput(fixture: fixture, confirmedGoal: confirmedGoal()), upstream: upstream)
        case .programEdit:
            let goal = confirmedGoal()
            let program = output(PipelineStep.programDraft.rawValue, as: "current program", placeholder: ["program_json": placeholderProgram])
            let input = StepInput(
                fixture: fixture, feedback: scenario.programEdit.feedback, confirmedGoal: goal,
                currentProgram: program["program_json"] ?? placeholderProgram)
            return Rendering(input: input, upstream: upstream)
        }
    }

    /// The input for `step` with stand-ins for every upstream output.
    public static func input(for step: PipelineStep, fixture: Fixture, editRound: Int = 1) throws -> StepInput {
        try rendering(for: step, fixture: fixture, editRound: editRound).input
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
