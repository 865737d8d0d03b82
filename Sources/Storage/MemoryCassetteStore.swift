import Foundation
import Intake

/// Cassettes in memory, for tests: each kept as the bytes `CassetteStore` would write
/// to its file and read back the same way, so replay sees what it would see on disk.
public final class MemoryCassetteStore: CassetteStorage, @unchecked Sendable {
    private let lock = NSLock()
    private var files: [StepKey: Data] = [:]

    public init() {}

    public func cassette(_ key: StepKey) throws(CassetteError) -> Cassette? {
        try replayable(key)?.cassette()
    }

    public func replayable(_ key: StepKey) throws(CassetteError) -> ReplayableCassette? {
        guard let data = recordedData(key) else { return nil }
        return try CassetteStore.replayable(data, for: key)
    }

    public func recordedData(_ key: StepKey) -> Data? {
        lock.withLock { files[key] }
    }

    public func write(_ cassette: Cassette) throws {
        let data = try CassetteStore.contents(of: cassette)
        write(data, for: cassette.key)
    }

    /// Keeps `data` as a step's cassette file, as it is: how a test stands in for a
    /// file edited by hand or damaged.
    public func write(_ data: Data, for key: StepKey) {
        lock.withLock { files[key] = data }
    }

    public func entries() -> [StepKey] {
        lock.withLock { files.keys.sorted() }
    }

    /// Deletes a step's cassette, as `accept --prune` deletes its file; false when there was none.
    @discardableResult
    public func delete(_ key: StepKey) -> Bool {
        lock.withLock { files.removeValue(forKey: key) != nil }
    }
}
