/// The four model-backed steps of onboarding, in pipeline order.
public enum PipelineStep: String, Codable, Hashable, Sendable, CaseIterable {
    case goalOptions = "goal-options"
    case goalOptionsEdit = "goal-options-edit"
    case programDraft = "program-draft"
    case programEdit = "program-edit"
}

extension PipelineStep {
    /// The step a fixture step id runs: `goal-options-edit-2` is a `goal-options-edit`.
    public init?(stepID: String) {
        guard let step = (try? StepSelector(parsing: stepID))?.pipelineStep else { return nil }
        self = step
    }
}
