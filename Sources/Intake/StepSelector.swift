/// A step named on the command line, spelled as in golden file names and `results.json`:
/// `goal-options`, `goal-options-edit` (every round) or `goal-options-edit-N` (round N),
/// `confirm`, `program-draft`, `program-edit`.
public struct StepSelector: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        case goalOptions
        /// Every round of option feedback.
        case everyOptionEdit
        /// One round of option feedback, 1-based.
        case optionEdit(round: Int)
        case confirm
        case programDraft
        case programEdit
    }

    public let kind: Kind

    public init(_ kind: Kind) {
        self.kind = kind
    }

    public static let goalOptions = StepSelector(.goalOptions)
    public static let confirm = StepSelector(.confirm)
    public static let programDraft = StepSelector(.programDraft)
    public static let programEdit = StepSelector(.programEdit)

    /// Every spelling `init(parsing:)` takes, for help texts and error messages.
    public static let spellings = "goal-options, goal-options-edit (every round) or goal-options-edit-N (round N), confirm, program-draft, program-edit"

    /// Parses a step's name; an unknown name is an error with the nearest spelling.
    public init(parsing text: String) throws(StepSelectorError) {
        let edit = PipelineStep.goalOptionsEdit.rawValue
        switch text {
        case PipelineStep.goalOptions.rawValue: kind = .goalOptions
        case edit: kind = .everyOptionEdit
        case "confirm": kind = .confirm
        case PipelineStep.programDraft.rawValue: kind = .programDraft
        case PipelineStep.programEdit.rawValue: kind = .programEdit
        default:
            if text.hasPrefix(edit + "-"), let round = Int(text.dropFirst(edit.count + 1)) {
                guard round >= 1 else { throw .badRound(text) }
                kind = .optionEdit(round: round)
            } else {
                let names = PipelineStep.allCases.map(\.rawValue) + ["confirm"]
                throw .unknown(text, suggestion: ClosestMatch.suggestion(for: text, among: names))
            }
        }
    }

    public var description: String {
        switch kind {
        case .goalOptions: return PipelineStep.goalOptions.rawValue
        case .everyOptionEdit: return PipelineStep.goalOptionsEdit.rawValue
        case .optionEdit(let round): return "\(PipelineStep.goalOptionsEdit.rawValue)-\(round)"
        case .confirm: return "confirm"
        case .programDraft: return PipelineStep.programDraft.rawValue
        case .programEdit: return PipelineStep.programEdit.rawValue
        }
    }

    /// Whether the step with this id (`goal-options-edit-2`, `confirm`, ...) is selected.
    public func matches(_ stepID: String) -> Bool {
        Self.rank(of: stepID).map { $0 == rank || (kind == .everyOptionEdit && $0.stage == rank.stage) } ?? false
    }

    /// Whether a run that stops after this step still runs the step with this id.
    public func reaches(_ stepID: String) -> Bool {
        guard let other = Self.rank(of: stepID) else { return false }
        return (other.stage, other.round) <= (rank.stage, rank.round)
    }

    /// The round of an option edit's id (`goal-options-edit-2` → 2); nil for other steps.
    public static func editRound(of stepID: String) -> Int? {
        guard let selector = try? StepSelector(parsing: stepID), case .optionEdit(let round) = selector.kind else { return nil }
        return round
    }

    /// The model step this selects, nil for confirm (which calls no model).
    public var pipelineStep: PipelineStep? {
        switch kind {
        case .goalOptions: return .goalOptions
        case .everyOptionEdit, .optionEdit: return .goalOptionsEdit
        case .confirm: return nil
        case .programDraft: return .programDraft
        case .programEdit: return .programEdit
        }
    }

    /// Where a step sits in a fixture's sequence: stage, then the option edit's round.
    private struct Rank: Equatable {
        let stage: Int
        let round: Int
    }

    private var rank: Rank {
        switch kind {
        case .goalOptions: return Rank(stage: 0, round: 0)
        case .everyOptionEdit: return Rank(stage: 1, round: .max)
        case .optionEdit(let round): return Rank(stage: 1, round: round)
        case .confirm: return Rank(stage: 2, round: 0)
        case .programDraft: return Rank(stage: 3, round: 0)
        case .programEdit: return Rank(stage: 4, round: 0)
        }
    }

    private static func rank(of stepID: String) -> Rank? {
        guard let selector = try? StepSelector(parsing: stepID), selector.kind != .everyOptionEdit else { return nil }
        return selector.rank
    }
}

/// A step name that is not one of the steps.
public enum StepSelectorError: Error, Equatable, CustomStringConvertible {
    case unknown(String, suggestion: String?)
    case badRound(String)

    public var description: String {
        switch self {
        case .unknown(let text, let suggestion):
            let hint = suggestion.map { " Did you mean `\($0)`?" } ?? ""
            return "`\(text)` is not a step.\(hint) Steps: \(StepSelector.spellings)."
        case .badRound(let text):
            return "`\(text)`: option edit rounds count from 1 (goal-options-edit-1)."
        }
    }
}
