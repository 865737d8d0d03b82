import Intake

/// Where recorded responses are kept, one cassette per fixture step: `CassetteStore`
/// on disk, `MemoryCassetteStore` in memory.
public protocol CassetteStorage: Sendable {
    /// The cassette for one step, nil when none was recorded.
    func cassette(fixture: String, step: String) throws(CassetteError) -> Cassette?

    /// The cassette for one step read for replay, nil when none was recorded.
    func replayable(fixture: String, step: String) throws(CassetteError) -> ReplayableCassette?

    /// Keeps a cassette whole, replacing the step's earlier one: a reader sees the
    /// old cassette or the new one, never half of one.
    func write(_ cassette: Cassette) throws

    /// Every fixture step that has a cassette, sorted.
    func entries() -> [StepKey]
}
