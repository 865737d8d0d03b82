import Foundation
import Intake
import JSONSchema

/// Approved and pending outputs in memory, for tests: the answers `GoldenStore` gives
/// for the same calls, with orphans named by the files it would have written.
///
/// Entries are kept as values; a value read back equals the one written, as a file
/// read back does (an approved entry keeps no failure messages, as on disk).
public final class MemoryGoldenStore: GoldenStorage, @unchecked Sendable {
    /// Cassettes kept beside the outputs, as `golden/` holds both: their steps are
    /// orphaned and removed with the outputs', as the files are on disk.
    public let recordings: MemoryCassetteStore?

    private let lock = NSLock()
    private var approvedEntries: [StepKey: GoldenEntry] = [:]
    private var pendingEntries: [StepKey: GoldenEntry] = [:]
    private var labels: [StepKey: ReviewLabel] = [:]
    private var allowances: [StepKey: UnsafeAllowance] = [:]
    /// Fixtures whose folder a pending write made: a folder stays, empty or not, until `remove` empties it.
    private var folders: Set<String> = []

    public init(recordings: MemoryCassetteStore? = nil) {
        self.recordings = recordings
    }

    public func approved(_ key: StepKey) throws(GoldenError) -> GoldenEntry? {
        lock.withLock { approvedEntries[key] }
    }

    public func pending(_ key: StepKey) throws(GoldenError) -> GoldenEntry? {
        lock.withLock { pendingEntries[key] }
    }

    public func writePending(_ entry: GoldenEntry, for key: StepKey) throws {
        lock.withLock {
            pendingEntries[key] = entry
            folders.insert(key.fixture)
        }
    }

    @discardableResult
    public func accept(_ key: StepKey) throws -> Bool {
        lock.withLock {
            guard let entry = pendingEntries.removeValue(forKey: key) else { return false }
            approvedEntries[key] = GoldenEntry(output: entry.output, checks: entry.checks)
            return true
        }
    }

    @discardableResult
    public func acceptChecks(_ key: StepKey) throws -> Bool {
        lock.withLock {
            guard let entry = pendingEntries.removeValue(forKey: key) else { return false }
            approvedEntries[key]?.checks = entry.checks
            return true
        }
    }

    @discardableResult
    public func reject(_ key: StepKey) -> Bool {
        lock.withLock { pendingEntries.removeValue(forKey: key) != nil }
    }

    public func entries(pending: Bool) -> [StepKey] {
        lock.withLock { (pending ? pendingEntries : approvedEntries).keys.sorted() }
    }

    public func label(_ key: StepKey) throws(GoldenError) -> ReviewLabel? {
        lock.withLock { labels[key] }
    }

    public func writeLabel(_ label: ReviewLabel, for key: StepKey) throws(GoldenError) {
        lock.withLock {
            labels[key] = label
            folders.insert(key.fixture)
        }
    }

    public func labelledEntries() -> [StepKey] {
        lock.withLock { labels.keys.sorted() }
    }

    public func allowance(_ key: StepKey) throws(GoldenError) -> UnsafeAllowance? {
        lock.withLock { allowances[key] }
    }

    public func writeAllowance(_ allowance: UnsafeAllowance, for key: StepKey) throws(GoldenError) {
        lock.withLock {
            allowances[key] = allowance
            folders.insert(key.fixture)
        }
    }

    public func orphans(excluding produced: Set<StepKey>) -> [GoldenOrphan] {
        var filesByStep: [StepKey: [String]] = [:]
        for key in recordings?.entries() ?? [] where !produced.contains(key) {
            filesByStep[key, default: []].append(key.step + CassetteStore.fileSuffix)
        }
        lock.withLock {
            for (key, entry) in approvedEntries where !produced.contains(key) {
                filesByStep[key, default: []] += Self.fileNames(of: entry, step: key.step, suffix: "")
            }
            for (key, entry) in pendingEntries where !produced.contains(key) {
                filesByStep[key, default: []] += Self.fileNames(of: entry, step: key.step, suffix: ".new")
            }
            for key in labels.keys where !produced.contains(key) {
                filesByStep[key, default: []].append(key.step + ReviewLabel.fileSuffix)
            }
            for key in allowances.keys where !produced.contains(key) {
                filesByStep[key, default: []].append(key.step + UnsafeAllowance.fileSuffix)
            }
        }
        return filesByStep.map { GoldenOrphan(key: $0.key, files: $0.value.sorted()) }.sorted()
    }

    /// Deletes what the orphan's files hold: its approved output, its pending output,
    /// its cassette (a file of each kind stands for the whole entry), then its fixture's
    /// folder when nothing is left in it.
    @discardableResult
    public func remove(_ orphan: GoldenOrphan) throws(GoldenError) -> Bool {
        let key = orphan.key
        let hadRecordings = recordings?.entries().contains { $0.fixture == key.fixture } ?? false
        for name in orphan.files where name.hasSuffix(CassetteStore.fileSuffix) {
            recordings?.delete(StepKey(fixture: key.fixture, step: String(name.dropLast(CassetteStore.fileSuffix.count))))
        }
        let keepsRecordings = recordings?.entries().contains { $0.fixture == key.fixture } ?? false
        return lock.withLock {
            for name in orphan.files {
                guard let step = GoldenStore.step(ofFileNamed: name) else { continue }
                let fileKey = StepKey(fixture: key.fixture, step: step)
                if name.hasSuffix(".new") {
                    pendingEntries[fileKey] = nil
                } else if name.hasSuffix(ReviewLabel.fileSuffix) {
                    labels[fileKey] = nil
                } else if name.hasSuffix(UnsafeAllowance.fileSuffix) {
                    allowances[fileKey] = nil
                } else if !name.hasSuffix(CassetteStore.fileSuffix) {
                    approvedEntries[fileKey] = nil
                }
            }
            let existed = hadRecordings || folders.contains(key.fixture)
            let holdsOutputs = approvedEntries.keys.contains { $0.fixture == key.fixture }
                || pendingEntries.keys.contains { $0.fixture == key.fixture }
                || labels.keys.contains { $0.fixture == key.fixture }
                || allowances.keys.contains { $0.fixture == key.fixture }
            guard existed, !holdsOutputs, !keepsRecordings else { return false }
            folders.remove(key.fixture)
            return true
        }
    }

    public func fixtureFolders() -> [String] {
        let recorded = Set((recordings?.entries() ?? []).map(\.fixture))
        return lock.withLock { folders.union(recorded).union(approvedEntries.keys.map(\.fixture)) }.sorted()
    }

    /// The names `GoldenStore` gives an entry's files: `<step>.json`, `<step>.checks.json`,
    /// `<step>.md` for a program's markdown, and for a pending entry with failure
    /// messages `<step>.messages.json.new`; each with `suffix` appended.
    static func fileNames(of entry: GoldenEntry, step: String, suffix: String) -> [String] {
        var names = ["\(step).json\(suffix)", "\(step).checks.json\(suffix)"]
        if case .object(let object) = entry.output, object[GoldenStore.markdownKey]?.stringValue != nil {
            names.append("\(step).md\(suffix)")
        }
        if suffix == ".new", !entry.failureMessages.isEmpty {
            names.append("\(step).messages.json.new")
        }
        return names
    }
}
