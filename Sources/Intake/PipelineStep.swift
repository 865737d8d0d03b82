/// The four model-backed steps of onboarding, in pipeline order.
public enum PipelineStep: String, Codable, Hashable, Sendable, CaseIterable {
    case goalOptions = "goal-options"
    case goalOptionsEdit = "goal-options-edit"
    case programDraft = "program-draft"
    case programEdit = "program-edit"
}
