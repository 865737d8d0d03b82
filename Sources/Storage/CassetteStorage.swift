import Foundation
import Intake

/// Where recorded responses are kept, one cassette per fixture step: `CassetteStore`
/// on disk, `MemoryCassetteStore` in memory.
public protocol CassetteStorage: Sendable {
    /// The cassette for one step, nil when none was recorded.
    func cassette(_ key: StepKey) throws(CassetteError) -> Cassette?

    /// The cassette for one step read for replay, nil when none was recorded.
    func replayable(_ key: StepKey) throws(CassetteError) -> ReplayableCassette?

    /// The cassette file's bytes as stored, nil when none was recorded: what a replay
    /// of the step would answer from, to the byte.
    func recordedData(_ key: StepKey) -> Data?

    /// What a replay of the step answers from, without the answers: the SHA-256 of its
    /// cassette file and the cassette's `provider model`; nil when none was recorded or
    /// the file names no provider and model.
    func recordedIdentity(_ key: StepKey) -> RecordedIdentity?

    /// Keeps a cassette whole, replacing the step's earlier one: a reader sees the
    /// old cassette or the new one, never half of one.
    func write(_ cassette: Cassette) throws

    /// Every fixture step that has a cassette, sorted.
    func entries() -> [StepKey]

    /// Where one step's cassette lives, relative to the project, and the `--variant`
    /// arguments a command that records it needs: a hint must name the variant's own
    /// file and keep its variant, or following it re-records the base.
    func recordingPlace(_ key: StepKey) -> (file: String, variantArguments: String)
}

/// A cassette file told apart from every other by its digest, and the provider and model that answered in it.
public struct RecordedIdentity: Sendable, Hashable {
    public var digest: String
    /// `provider model`.
    public var source: String

    public init(digest: String, source: String) {
        self.digest = digest
        self.source = source
    }

    /// The identity of a cassette file's bytes.
    public init?(ofCassette data: Data) {
        guard let source = CassetteStore.source(ofCassette: data) else { return nil }
        self.init(digest: SHA256Digest.hex(of: data), source: source)
    }
}

extension CassetteStorage {
    public func recordedIdentity(_ key: StepKey) -> RecordedIdentity? {
        recordedData(key).flatMap(RecordedIdentity.init(ofCassette:))
    }

    public func recordingPlace(_ key: StepKey) -> (file: String, variantArguments: String) {
        ("golden/\(key.fixture)/\(key.step).cassette.json", "")
    }
}
