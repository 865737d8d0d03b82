/// One step of a fixture's trip through onboarding, in pipeline order.
///
/// The only place a step id is spelled or parsed: `goal-options`,
/// `goal-options-edit-N` (round N of option feedback, from 1), `confirm`,
/// `program-draft`, `program-edit`. Golden file names, cassettes and
/// `results.json` use these spellings.
public enum StepID: Hashable, Sendable, Comparable, LosslessStringConvertible, Codable {
    case goalOptions
    /// Round `round` of option feedback, 1-based.
    case optionEdit(round: Int)
    /// The deterministic choice of one goal option; calls no model.
    case confirm
    case programDraft
    case programEdit

    /// The model step this runs; nil for confirm, which calls no model.
    public var step: PipelineStep? {
        switch self {
        case .goalOptions: return .goalOptions
        case .optionEdit: return .goalOptionsEdit
        case .confirm: return nil
        case .programDraft: return .programDraft
        case .programEdit: return .programEdit
        }
    }

    /// The step calls a model (every step but confirm).
    public var callsModel: Bool { step != nil }

    /// The option edit's round; nil for every other step.
    public var editRound: Int? {
        if case .optionEdit(let round) = self { return round }
        return nil
    }

    public var description: String {
        switch self {
        case .goalOptions: return PipelineStep.goalOptions.rawValue
        case .optionEdit(let round): return Self.optionEditPrefix + String(round)
        case .confirm: return Self.confirmName
        case .programDraft: return PipelineStep.programDraft.rawValue
        case .programEdit: return PipelineStep.programEdit.rawValue
        }
    }

    /// Parses a step id; nil for anything else (a round below 1 included).
    public init?(_ description: String) {
        switch description {
        case PipelineStep.goalOptions.rawValue: self = .goalOptions
        case Self.confirmName: self = .confirm
        case PipelineStep.programDraft.rawValue: self = .programDraft
        case PipelineStep.programEdit.rawValue: self = .programEdit
        default:
            guard description.hasPrefix(Self.optionEditPrefix),
                  let round = Int(description.dropFirst(Self.optionEditPrefix.count)), round >= 1,
                  String(round) == description.dropFirst(Self.optionEditPrefix.count)
            else { return nil }
            self = .optionEdit(round: round)
        }
    }

    /// Where the step sits in a fixture's sequence: stage, then the option edit's round.
    var order: (stage: Int, round: Int) {
        switch self {
        case .goalOptions: return (0, 0)
        case .optionEdit(let round): return (1, round)
        case .confirm: return (2, 0)
        case .programDraft: return (3, 0)
        case .programEdit: return (4, 0)
        }
    }

    public static func < (lhs: StepID, rhs: StepID) -> Bool {
        lhs.order < rhs.order
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = StepID(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "`\(text)` is not a step id")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    static let confirmName = "confirm"
    /// How an option edit's id begins: `goal-options-edit-` before its round.
    static let optionEditPrefix = "goal-options-edit-"
}

/// A fixture step as golden files name it: `busy-parent/goal-options-edit-2`.
///
/// The step is kept as spelled on disk, so a file of a step that no longer exists
/// (a retired step or option edit) still has a key and can be reported as an orphan.
public struct StepKey: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    public var fixture: String
    public var step: String

    public init(fixture: String, step: String) {
        self.fixture = fixture
        self.step = step
    }

    public init(fixture: String, id: StepID) {
        self.init(fixture: fixture, step: id.description)
    }

    /// The step, when the name spells one.
    public var id: StepID? { StepID(step) }

    public var description: String { "\(fixture)/\(step)" }

    public static func < (lhs: StepKey, rhs: StepKey) -> Bool {
        (lhs.fixture, lhs.step) < (rhs.fixture, rhs.step)
    }
}

extension StepKey {
    /// ` --fixture a --fixture b`: what makes a suggested command (`pending`, `accept`,
    /// a re-recording `run`) cover these steps' fixtures and no others. Empty past `limit` fixtures, where
    /// the list would be longer than the command.
    public static func fixtureArguments(covering steps: [StepKey], limit: Int = 5) -> String {
        var fixtures: [String] = []
        for step in steps where !fixtures.contains(step.fixture) {
            guard fixtures.count < limit else { return "" }
            fixtures.append(step.fixture)
        }
        return fixtures.map { " --fixture \($0)" }.joined()
    }

    /// `fixtureArguments` with ` --until STEP`: what makes a suggested `run` cover these
    /// steps' fixtures up to `last` (by default the latest of the steps, in pipeline
    /// order) and nothing after it.
    public static func runArguments(covering steps: [StepKey], through last: PipelineStep? = nil, limit: Int = 5) -> String {
        let last = last ?? steps.compactMap { $0.id }.filter(\.callsModel).max()?.step
        return fixtureArguments(covering: steps, limit: limit) + (last.map { " --until \($0.rawValue)" } ?? "")
    }
}
