import Intake
import Storage

/// Upstream outputs as a replay sees them: `preferred` first (the recorded replies),
/// failing that the approved output (canonical key order). A step approved as
/// unusable feeds nothing, as in a run, where the steps after it are skipped.
public struct ApprovedOutputs: UpstreamOutputs {
    public let store: any GoldenStorage
    public let preferred: any UpstreamOutputs
    /// Steps whose output the backend builds from the reply (a pinned plan, edits as
    /// operations): their reply is not what the next step is given, the approved output is.
    public let builtFromReply: Set<PipelineStep>

    public init(store: any GoldenStorage, preferring preferred: any UpstreamOutputs, builtFromReply: Set<PipelineStep> = []) {
        self.store = store
        self.preferred = preferred
        self.builtFromReply = builtFromReply
    }

    public func output(of step: StepID, fixture: String) -> UpstreamOutput? {
        let approved = try? store.approved(StepKey(fixture: fixture, step: step.description))
        if approved?.isUsable == false { return nil }
        let built = step.step.map(builtFromReply.contains) ?? false
        return (built ? nil : preferred.output(of: step, fixture: fixture))
            ?? approved.map { UpstreamOutput(value: $0.output, source: "the approved output") }
    }
}
