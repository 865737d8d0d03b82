/// A step named on the command line, spelled as in golden file names and `results.json`:
/// `goal-options`, `goal-options-edit` (every round) or `goal-options-edit-N` (round N),
/// `confirm`, `program-draft`, `program-edit`.
public struct StepSelector: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// Exactly one step.
        case one(StepID)
        /// Every round of option feedback.
        case everyOptionEdit
    }

    public let kind: Kind

    public init(_ kind: Kind) {
        self.kind = kind
    }

    public init(_ id: StepID) {
        self.init(.one(id))
    }

    public static let goalOptions = StepSelector(.goalOptions)
    public static let confirm = StepSelector(.confirm)
    public static let programDraft = StepSelector(.programDraft)
    public static let programEdit = StepSelector(.programEdit)

    /// Every spelling `init(parsing:)` takes, for help texts and error messages, in run order.
    public static let spellings = PipelineStep.runOrder.map { name in
        PipelineStep(rawValue: name)?.editsOptions == true ? "\(name) (every round) or \(name)-N (round N)" : name
    }.joined(separator: ", ")

    /// Parses a step's name; an unknown name is an error with the nearest spelling.
    public init(parsing text: String) throws(StepSelectorError) {
        if text == PipelineStep.goalOptionsEdit.rawValue {
            kind = .everyOptionEdit
        } else if let id = StepID(text) {
            kind = .one(id)
        } else if text.hasPrefix(StepID.optionEditPrefix), Int(text.dropFirst(StepID.optionEditPrefix.count)) != nil {
            throw .badRound(text)
        } else {
            let names = PipelineStep.allCases.map(\.rawValue) + [StepID.confirm.description]
            throw .unknown(text, suggestion: ClosestMatch.suggestion(for: text, among: names))
        }
    }

    public var description: String {
        switch kind {
        case .one(let id): return id.description
        case .everyOptionEdit: return PipelineStep.goalOptionsEdit.rawValue
        }
    }

    /// Whether a run that stops after this step (`run --until`) runs `step` at all.
    public func reaches(_ step: PipelineStep) -> Bool {
        let last = switch kind {
        case .one(let id): id.order.stage
        case .everyOptionEdit: StepID.first(of: .goalOptionsEdit).order.stage
        }
        return StepID.first(of: step).order.stage <= last
    }

    /// Whether the step with this id is selected.
    public func matches(_ id: StepID) -> Bool {
        switch kind {
        case .one(let selected): return id == selected
        case .everyOptionEdit: return id.editRound != nil
        }
    }

    /// Whether the step a golden file names (`goal-options-edit-2`, `confirm`, ...) is selected.
    public func matches(_ stepName: String) -> Bool {
        StepID(stepName).map(matches) ?? false
    }

    /// Whether a run that stops after this step still runs `id`.
    public func reaches(_ id: StepID) -> Bool {
        switch kind {
        case .one(let last): return id <= last
        case .everyOptionEdit: return id.order.stage <= StepID.optionEdit(round: 1).order.stage
        }
    }

    /// The model step this selects, nil for confirm (which calls no model).
    public var pipelineStep: PipelineStep? {
        switch kind {
        case .one(let id): return id.step
        case .everyOptionEdit: return .goalOptionsEdit
        }
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
            return "`\(text)`: option edit rounds count from 1 (\(StepID.optionEdit(round: 1)))."
        }
    }
}
