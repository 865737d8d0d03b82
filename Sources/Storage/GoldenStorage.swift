import Intake

/// Where approved and pending outputs are kept: `GoldenStore` on disk, `MemoryGoldenStore` in memory.
///
/// An entry is approved or pending per fixture step; a pending entry becomes golden
/// only through `accept`. The names are a step's, as golden files spell them
/// (`goal-options-edit-2`).
public protocol GoldenStorage: Sendable {
    /// The approved output of a step, nil when none is approved.
    func approved(_ key: StepKey) throws(GoldenError) -> GoldenEntry?

    /// The pending output of a step, nil when none waits for review.
    func pending(_ key: StepKey) throws(GoldenError) -> GoldenEntry?

    /// Keeps `entry` as the step's pending output, replacing any before it.
    func writePending(_ entry: GoldenEntry, for key: StepKey) throws

    /// Promotes a step's pending output to golden; false when nothing was pending.
    @discardableResult
    func accept(_ key: StepKey) throws -> Bool

    /// Makes a step's pending check results golden, keeping its approved output as it
    /// is, and discards the pending output; false when nothing was pending.
    @discardableResult
    func acceptChecks(_ key: StepKey) throws -> Bool

    /// Discards a step's pending output; false when nothing was pending.
    @discardableResult
    func reject(_ key: StepKey) -> Bool

    /// Every (fixture, step) with approved output, or with pending output, sorted.
    func entries(pending: Bool) -> [StepKey]

    /// A reviewer's label of the step's output, nil when it has none.
    func label(_ key: StepKey) throws(GoldenError) -> ReviewLabel?

    /// Keeps `label` as the step's label, replacing any before it, atomically.
    func writeLabel(_ label: ReviewLabel, for key: StepKey) throws(GoldenError)

    /// Every (fixture, step) with a label, sorted.
    func labelledEntries() -> [StepKey]

    /// A reviewer's reason to approve the step's output though it fails safety checks; nil when there is none.
    func allowance(_ key: StepKey) throws(GoldenError) -> UnsafeAllowance?

    /// Keeps `allowance` beside the step's golden files, replacing any before it, atomically.
    func writeAllowance(_ allowance: UnsafeAllowance, for key: StepKey) throws(GoldenError)

    /// The files of every fixture step outside `produced`, one orphan per step, sorted.
    func orphans(excluding produced: Set<StepKey>) -> [GoldenOrphan]

    /// Deletes an orphan's files, then its fixture's folder if that left it empty; true
    /// when the folder went too.
    @discardableResult
    func remove(_ orphan: GoldenOrphan) throws(GoldenError) -> Bool

    /// The fixtures the store holds anything for, sorted (retired fixtures included until pruned).
    func fixtureFolders() -> [String]

    /// A digest of everything the steps' verdicts are judged against and a run may
    /// change: their approved files and their pending ones, present or not. Nil when
    /// the store cannot tell cheaply; a run then judges the steps afresh.
    func contentDigest(of keys: [StepKey]) -> String?

    /// `contentDigest(of:)` as it will be once every pending output of the steps is
    /// accepted (`accept`): each pending file in its approved file's place, no pending
    /// files left. Nil when the store cannot tell cheaply.
    func contentDigestOnceAccepted(of keys: [StepKey]) -> String?
}

extension GoldenStorage {
    public func contentDigest(of keys: [StepKey]) -> String? { nil }

    public func contentDigestOnceAccepted(of keys: [StepKey]) -> String? { nil }

    /// The entry a step will be judged against once its pending output is accepted:
    /// the pending one as `approved` will read it (failure messages stay with pending
    /// outputs), or the approved one when nothing is pending.
    public func approvedOnceAccepted(_ key: StepKey) throws(GoldenError) -> GoldenEntry? {
        guard let pending = try pending(key) else { return try approved(key) }
        return GoldenEntry(output: pending.output, checks: pending.checks)
    }
}
