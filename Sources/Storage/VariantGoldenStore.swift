import Foundation
import Intake

/// The golden outputs of a run with prompt variants: the steps the variant's track
/// holds are compared with (and leave pending outputs in) its folder,
/// `golden/variants/<label>/`; earlier steps share the base prompts' files.
public struct VariantGoldenStore: GoldenStorage {
    public let base: GoldenStore
    public let variant: GoldenStore
    public let track: VariantTrack

    public init(golden folder: URL, track: VariantTrack) {
        base = GoldenStore(folder: folder)
        variant = GoldenStore(folder: track.folder(in: folder))
        self.track = track
    }

    private func store(for step: String) -> GoldenStore {
        track.holds(step: step) ? variant : base
    }

    public func approved(fixture: String, step: String) throws(GoldenError) -> GoldenEntry? {
        try store(for: step).approved(fixture: fixture, step: step)
    }

    public func pending(fixture: String, step: String) throws(GoldenError) -> GoldenEntry? {
        try store(for: step).pending(fixture: fixture, step: step)
    }

    public func writePending(_ entry: GoldenEntry, fixture: String, step: String) throws {
        try store(for: step).writePending(entry, fixture: fixture, step: step)
    }

    @discardableResult
    public func accept(fixture: String, step: String) throws -> Bool {
        try store(for: step).accept(fixture: fixture, step: step)
    }

    @discardableResult
    public func acceptChecks(fixture: String, step: String) throws -> Bool {
        try store(for: step).acceptChecks(fixture: fixture, step: step)
    }

    @discardableResult
    public func reject(fixture: String, step: String) -> Bool {
        store(for: step).reject(fixture: fixture, step: step)
    }

    public func entries(pending: Bool) -> [StepKey] {
        (base.entries(pending: pending).filter { !track.holds(step: $0.step) }
            + variant.entries(pending: pending).filter { track.holds(step: $0.step) }).sorted()
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

    public func fixtureFolders() -> [String] {
        Array(Set(base.fixtureFolders() + variant.fixtureFolders())).sorted()
    }
}

extension GoldenStore {
    /// The golden outputs a run is compared with: `golden/`, routed through the variant's folder when one is selected.
    public static func forRun(golden folder: URL, track: VariantTrack?) -> any GoldenStorage {
        track.map { VariantGoldenStore(golden: folder, track: $0) } ?? GoldenStore(folder: folder)
    }
}
