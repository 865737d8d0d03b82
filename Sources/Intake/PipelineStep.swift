/// The four model-backed steps of onboarding, in pipeline order. What each one is
/// lives here, one entry per step; code that needs a step's traits asks for them
/// instead of listing steps itself.
public enum PipelineStep: String, Codable, Hashable, Sendable, CaseIterable {
    case goalOptions = "goal-options"
    case goalOptionsEdit = "goal-options-edit"
    case programDraft = "program-draft"
    case programEdit = "program-edit"

    /// One entry of the catalogue.
    public struct Traits: Sendable {
        /// What the step writes: goal options or a program.
        public enum Output: Sendable { case options, program }

        public var output: Output
        /// Revises the output before it from the person's feedback.
        public var edits: Bool
        /// The first step id of this kind in a fixture's run.
        public var firstID: StepID
    }

    public var traits: Traits {
        switch self {
        case .goalOptions: Traits(output: .options, edits: false, firstID: .goalOptions)
        case .goalOptionsEdit: Traits(output: .options, edits: true, firstID: .optionEdit(round: 1))
        case .programDraft: Traits(output: .program, edits: false, firstID: .programDraft)
        case .programEdit: Traits(output: .program, edits: true, firstID: .programEdit)
        }
    }

    /// The step writes a program (else goal options).
    public var writesProgram: Bool { traits.output == .program }
    /// The step revises the output before it from the person's feedback.
    public var edits: Bool { traits.edits }
    /// The step writes a program from scratch: the one a pinned plan is laid out for.
    public var draftsProgram: Bool { writesProgram && !edits }
    /// The step revises goal options, one round of feedback at a time.
    public var editsOptions: Bool { edits && !writesProgram }
    /// The step revises a program.
    public var editsProgram: Bool { edits && writesProgram }

    /// The name providers see for the step's output schema: the step's name in snake case.
    public var schemaName: String { rawValue.replacingOccurrences(of: "-", with: "_") }

    /// The kinds of step a fixture runs, in order, as results name them: the model
    /// steps with `confirm` (a choice, no model) after the goal options.
    public static let runOrder: [String] = allCases.flatMap { step in
        step == .programDraft ? [StepID.confirm.description, step.rawValue] : [step.rawValue]
    }
}
