import Foundation
import Intake

/// Cassettes in memory, for tests: each kept as the bytes `CassetteStore` would write
/// to its file and read back the same way, so replay sees what it would see on disk.
public final class MemoryCassetteStore: CassetteStorage, @unchecked Sendable {
    private let lock = NSLock()
    private var files: [StepKey: Data] = [:]

    public init() {}

    public func cassette(fixture: String, step: String) throws(CassetteError) -> Cassette? {
        try replayable(fixture: fixture, step: step)?.cassette()
    }

    public func replayable(fixture: String, step: String) throws(CassetteError) -> ReplayableCassette? {
        guard let data = lock.withLock({ files[StepKey(fixture: fixture, step: step)] }) else { return nil }
        return try CassetteStore.replayable(data, fixture: fixture, step: step)
    }

    public func write(_ cassette: Cassette) throws {
        let data = try CassetteStore.contents(of: cassette)
        write(data, fixture: cassette.fixture, step: cassette.step)
    }

    /// Keeps `data` as a step's cassette file, as it is: how a test stands in for a
    /// file edited by hand or damaged.
    public func write(_ data: Data, fixture: String, step: String) {
        lock.withLock { files[StepKey(fixture: fixture, step: step)] = data }
    }

    public func entries() -> [StepKey] {
        lock.withLock { files.keys.sorted() }
    }

    /// Deletes a step's cassette, as `accept --prune` deletes its file; false when there was none.
    @discardableResult
    public func delete(fixture: String, step: String) -> Bool {
        lock.withLock { files.removeValue(forKey: StepKey(fixture: fixture, step: step)) != nil }
    }
}
