import Foundation
import Intake

/// The golden outputs of a run with prompt variants: the steps the variant's track
/// holds are compared with (and leave pending outputs in) its folder,
/// `golden/variants/<label>/`; earlier steps share the base prompts' files.
public struct VariantGoldenStore: GoldenStorage {
    public let base: GoldenStore
    public let variant: GoldenStore
    public let track: VariantTrack

    public init(golden folder: URL, track: VariantTrack, digests: FileDigests? = nil) {
        base = GoldenStore(folder: folder, digests: digests)
        variant = GoldenStore(folder: track.folder(in: folder), digests: digests)
        self.track = track
    }

    private func store(for step: String) -> GoldenStore {
        track.holds(step: step) ? variant : base
    }

    public func approved(_ key: StepKey) throws(GoldenError) -> GoldenEntry? {
        try store(for: key.step).approved(key)
    }

    public func pending(_ key: StepKey) throws(GoldenError) -> GoldenEntry? {
        try store(for: key.step).pending(key)
    }

    public func writePending(_ entry: GoldenEntry, for key: StepKey) throws {
        try store(for: key.step).writePending(entry, for: key)
    }

    @discardableResult
    public func accept(_ key: StepKey) throws -> Bool {
        try store(for: key.step).accept(key)
    }

    @discardableResult
    public func acceptChecks(_ key: StepKey) throws -> Bool {
        try store(for: key.step).acceptChecks(key)
    }

    @discardableResult
    public func reject(_ key: StepKey) -> Bool {
        store(for: key.step).reject(key)
    }

    public func entries(pending: Bool) -> [StepKey] {
        (base.entries(pending: pending).filter { !track.holds(step: $0.step) }
            + variant.entries(pending: pending).filter { track.holds(step: $0.step) }).sorted()
    }

    public func label(_ key: StepKey) throws(GoldenError) -> ReviewLabel? {
        try store(for: key.step).label(key)
    }

    public func writeLabel(_ label: ReviewLabel, for key: StepKey) throws(GoldenError) {
        try store(for: key.step).writeLabel(label, for: key)
    }

    public func allowance(_ key: StepKey) throws(GoldenError) -> UnsafeAllowance? {
        try store(for: key.step).allowance(key)
    }

    public func writeAllowance(_ allowance: UnsafeAllowance, for key: StepKey) throws(GoldenError) {
        try store(for: key.step).writeAllowance(allowance, for: key)
    }

    public func labelledEntries() -> [StepKey] {
        (base.labelledEntries().filter { !track.holds(step: $0.step) }
            + variant.labelledEntries().filter { track.holds(step: $0.step) }).sorted()
    }

    /// The base prompts' orphans among the steps the track does not hold; a variant's
    /// folder is pruned by deleting it.
    public func orphans(excluding produced: Set<StepKey>) -> [GoldenOrphan] {
        base.orphans(excluding: produced).filter { !track.holds(step: $0.key.step) }
    }

    @discardableResult
    public func remove(_ orphan: GoldenOrphan) throws(GoldenError) -> Bool {
        try base.remove(orphan)
    }

    public func contentDigest(of keys: [StepKey]) -> String? {
        combinedDigest(of: keys) { $0.contentDigest(of: $1) }
    }

    public func contentDigestOnceAccepted(of keys: [StepKey]) -> String? {
        combinedDigest(of: keys) { $0.contentDigestOnceAccepted(of: $1) }
    }

    /// The digest of the base's steps and the variant's, each store's by `digest`.
    private func combinedDigest(of keys: [StepKey], _ digest: (GoldenStore, [StepKey]) -> String?) -> String? {
        let held = keys.filter { track.holds(step: $0.step) }
        guard let base = digest(base, keys.filter { !track.holds(step: $0.step) }), let variant = digest(variant, held) else { return nil }
        return SHA256Digest.hex(of: base + variant)
    }

    public func fixtureFolders() -> [String] {
        Array(Set(base.fixtureFolders() + variant.fixtureFolders())).sorted()
    }
}

extension GoldenStore {
    /// The golden outputs a run is compared with: `golden/`, routed through the variant's folder when one is selected.
    public static func forRun(golden folder: URL, track: VariantTrack?, digests: FileDigests? = nil) -> any GoldenStorage {
        track.map { VariantGoldenStore(golden: folder, track: $0, digests: digests) } ?? GoldenStore(folder: folder, digests: digests)
    }
}
