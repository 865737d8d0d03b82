import Diff
import Intake

extension JSONDiff.Options {
    /// The options a step's `prompt.yaml` declares in its `golden:` block.
    public init(_ settings: GoldenComparisonSettings) {
        self.init(arrayKeys: settings.arrayKeys, numericTolerance: settings.numericTolerance)
    }
}

extension PromptLibrary {
    /// Each step's diff options, from the `golden:` block of its `prompt.yaml`.
    public var diffOptions: [PipelineStep: JSONDiff.Options] {
        prompts.mapValues { JSONDiff.Options($0.metadata.golden) }
    }

    /// The diff options of the step a golden file names (`goal-options-edit-2`).
    public func diffOptions(forStep name: String) -> JSONDiff.Options {
        StepID(name)?.step.map { JSONDiff.Options(self[$0].metadata.golden) } ?? JSONDiff.Options(GoldenComparisonSettings.standard)
    }
}
