import Diff
import Intake
import Pipeline

/// Upstream outputs as a replay sees them: `preferred` first (the recorded replies),
/// failing that the approved output (canonical key order). A step approved as
/// unusable feeds nothing, as in a run, where the steps after it are skipped.
public struct ApprovedOutputs: UpstreamOutputs {
    public let store: any GoldenStorage
    public let preferred: any UpstreamOutputs

    public init(store: any GoldenStorage, preferring preferred: any UpstreamOutputs) {
        self.store = store
        self.preferred = preferred
    }

    public func output(of step: StepID, fixture: String) -> UpstreamOutput? {
        let approved = try? store.approved(fixture: fixture, step: step.description)
        if approved?.checks[GoldenComparison.usableOutputCheck] == false { return nil }
        return preferred.output(of: step, fixture: fixture)
            ?? approved.map { UpstreamOutput(value: $0.output, source: "the approved output") }
    }
}
