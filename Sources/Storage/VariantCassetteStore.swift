import Foundation
import Intake

/// The recordings of a run with prompt variants: the steps the variant's track
/// holds are replayed from and recorded into its folder (`golden/variants/<label>/`),
/// earlier steps, which send what the base prompts send, share the base cassettes.
/// A variant's recording therefore never answers a base request, nor the reverse.
public struct VariantCassetteStore: CassetteStorage {
    public let base: any CassetteStorage
    public let variant: any CassetteStorage
    public let track: VariantTrack

    public init(base: any CassetteStorage, variant: any CassetteStorage, track: VariantTrack) {
        self.base = base
        self.variant = variant
        self.track = track
    }

    private func store(for step: String) -> any CassetteStorage {
        track.holds(step: step) ? variant : base
    }

    public func cassette(_ key: StepKey) throws(CassetteError) -> Cassette? {
        try store(for: key.step).cassette(key)
    }

    public func replayable(_ key: StepKey) throws(CassetteError) -> ReplayableCassette? {
        try store(for: key.step).replayable(key)
    }

    public func recordedData(_ key: StepKey) -> Data? {
        store(for: key.step).recordedData(key)
    }

    public func recordedIdentity(_ key: StepKey) -> RecordedIdentity? {
        store(for: key.step).recordedIdentity(key)
    }

    public func write(_ cassette: Cassette) throws {
        try store(for: cassette.step).write(cassette)
    }

    public func recordingPlace(_ key: StepKey) -> (file: String, variantArguments: String) {
        // A label is the selection it was made from: `program-draft=v4.4+program-edit=v4.5`.
        let arguments = track.label.split(separator: "+").map { " --variant \($0)" }.joined()
        guard track.holds(step: key.step) else { return (base.recordingPlace(key).file, arguments) }
        return ("golden/\(VariantTrack.folderName)/\(track.label)/\(key.fixture)/\(key.step).cassette.json", arguments)
    }

    public func entries() -> [StepKey] {
        (base.entries().filter { !track.holds(step: $0.step) } + variant.entries().filter { track.holds(step: $0.step) }).sorted()
    }
}

extension CassetteStore {
    /// The recordings a run uses: `golden/`, routed through the variant's folder when one is selected.
    public static func forRun(golden folder: URL, track: VariantTrack?, digests: FileDigests? = nil) -> any CassetteStorage {
        let base = CassetteStore(folder: folder, digests: digests)
        guard let track else { return base }
        return VariantCassetteStore(base: base, variant: CassetteStore(folder: track.folder(in: folder), digests: digests), track: track)
    }
}
