import Foundation
import Intake
import Storage

/// Which steps of a golden folder are approved, pending and labelled, as
/// `GoldenStore.entries` lists them, without reading every fixture folder for every
/// page: a fixture folder is listed again only when its modification time moved,
/// which every file created, renamed or removed in it does (a run's pending output,
/// an accept, a label). At 10,000 fixture-steps a page then stats the folders
/// instead of reading them. A folder that changed within `settle` seconds of being
/// listed is listed again: two changes in one tick of the file system's clock leave
/// the same modification time.
final class GoldenIndex: @unchecked Sendable {
    struct Snapshot: Sendable {
        var approved: [StepKey] = []
        var pending: [StepKey] = []
        var labelled: [StepKey] = []
        /// Every step with an approved or a pending output.
        var steps: Set<StepKey> = []
    }

    private struct Folder {
        /// Its modification time, in seconds since 1970.
        var stamp: Double
        /// When it was listed, in seconds since 1970.
        var listedAt: Double
        var approved: [String]
        var pending: [String]
        var labelled: [String]
    }

    static let settle = 2.0
    private let lock = NSLock()
    /// By golden folder path, then fixture.
    private var folders: [String: [String: Folder]] = [:]
    private var snapshots: [String: Snapshot] = [:]

    func snapshot(of golden: URL) -> Snapshot {
        lock.withLock {
            let path = golden.path
            let fixtures = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
                .filter { !$0.hasPrefix(".") && ReservedGoldenFolder.all[$0] == nil }.sorted()
            var known = folders[path] ?? [:]
            var changed = Set(known.keys) != Set(fixtures)
            var listed: [String: Folder] = [:]
            for fixture in fixtures {
                let folderPath = path + "/" + fixture
                guard let found = FileStamps.stamp(folderPath), found.isFolder else { continue }
                let stamp = found.seconds
                if let folder = known[fixture], folder.stamp == stamp, folder.listedAt - stamp >= Self.settle {
                    listed[fixture] = folder
                    continue
                }
                changed = true
                let listedAt = Date().timeIntervalSince1970
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folderPath)) ?? []
                listed[fixture] = Folder(
                    stamp: stamp, listedAt: listedAt, approved: GoldenStore.steps(amongFilesNamed: names, suffix: ".json"),
                    pending: GoldenStore.steps(amongFilesNamed: names, suffix: ".json.new"),
                    labelled: GoldenStore.steps(amongFilesNamed: names, suffix: ReviewLabel.fileSuffix))
            }
            known = listed
            folders[path] = known
            if !changed, let kept = snapshots[path] { return kept }
            var snapshot = Snapshot()
            for fixture in fixtures {
                guard let folder = known[fixture] else { continue }
                snapshot.approved += folder.approved.map { StepKey(fixture: fixture, step: $0) }
                snapshot.pending += folder.pending.map { StepKey(fixture: fixture, step: $0) }
                snapshot.labelled += folder.labelled.map { StepKey(fixture: fixture, step: $0) }
            }
            snapshot.steps = Set(snapshot.approved).union(snapshot.pending)
            snapshots[path] = snapshot
            return snapshot
        }
    }
}
