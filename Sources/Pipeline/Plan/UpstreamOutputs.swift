import Intake
import JSONSchema

/// An earlier step's output as `render` finds it, and where it came from.
public struct UpstreamOutput: Sendable {
    public var value: JSONValue
    /// Where the output was found, e.g. `the recorded reply`, `the approved output`.
    public var source: String
    /// A stand-in that shows the prompt's shape, marked as such in its own text.
    public var isPlaceholder: Bool

    public init(value: JSONValue, source: String, isPlaceholder: Bool = false) {
        self.value = value
        self.source = source
        self.isPlaceholder = isPlaceholder
    }
}

/// Where `render` finds the outputs of a fixture's earlier model steps, since it
/// runs none of them: the recordings and approved outputs (see `Replay` and
/// `Golden`), or stand-ins.
public protocol UpstreamOutputs: Sendable {
    /// The usable output of a model step of `fixture`; nil when there is none.
    func output(of step: StepID, fixture: String) -> UpstreamOutput?
}

/// Stand-ins for every upstream output, each marked as a placeholder in its own
/// text: what `render` shows where no real output is known.
public struct PlaceholderOutputs: UpstreamOutputs {
    public init() {}

    public func output(of step: StepID, fixture: String) -> UpstreamOutput? {
        // A model step's placeholder is what it writes; the one step with no model (confirm) chooses the goal.
        switch step.step?.traits.output {
        case .options: return placeholder(Self.options)
        case .program: return placeholder(["program_json": Self.program])
        case nil: return placeholder(Self.goal)
        }
    }

    private func placeholder(_ value: JSONValue) -> UpstreamOutput {
        UpstreamOutput(value: value, source: "placeholder", isPlaceholder: true)
    }

    static let goal: JSONValue = [
        "id": "placeholder-goal",
        "summary": "(placeholder: the option chosen at the confirm step)",
        "detail": "(placeholder: filled from the goal-options output in a real run)",
    ]

    static let options: JSONValue = ["options": [
        ["id": "placeholder-1", "summary": "(placeholder: option 1 from the previous step)", "detail": ""],
        ["id": "placeholder-2", "summary": "(placeholder: option 2 from the previous step)", "detail": ""],
        ["id": "placeholder-3", "summary": "(placeholder: option 3 from the previous step)", "detail": ""],
    ]]

    static let program: JSONValue = [
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
