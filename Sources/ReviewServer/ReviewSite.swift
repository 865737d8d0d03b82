import Evaluation
import Foundation
import Golden
import History
import Intake
import Reports
import Storage

/// What the review pages read: the golden tracks and their pending queue, the run
/// history and each run's report. Nothing here names a path a request gave: every
/// fixture, step, track and run a request names is looked up among those that exist.
final class ReviewSite: Sendable {
    let project: Project
    var layout: ProjectLayout { project.layout }
    /// Which checks guard safety, read again when `check-severity.yaml` changes.
    var safety: SafetyPolicy { get throws { try safetyFile.value } }
    /// The reasons a label may give, read again when `review-reasons.yaml` changes.
    var reasons: ReviewReasons { get throws { try reasonsFile.value } }
    private let safetyFile: Reloaded<SafetyPolicy>
    private let reasonsFile: Reloaded<ReviewReasons>
    let corpus: FixtureCorpus
    let fixtures: [String]
    /// Who reviews when the form leaves it blank: git's user.name.
    let defaultReviewer: String?
    private let reports = ReportCache()
    private let trackCache = TrackCache()
    private let openHistory = Once<RunHistory>()
    private let agreements = AgreementCache()
    private let goldenIndex = GoldenIndex()
    private let comparisons = Recent<(comparison: RunComparison, outputs: ComparedOutputs)>()
    private let stepRows = Recent<[StepRow]>()

    init(project: Project) throws {
        self.project = project
        let layout = project.layout
        safetyFile = Reloaded(file: SafetyPolicy.file(in: layout)) { try SafetyPolicy.load(layout: layout) }
        reasonsFile = Reloaded(file: ReviewReasons.file(in: layout)) { try ReviewReasons.load(layout: layout) }
        _ = try safetyFile.value
        _ = try reasonsFile.value
        corpus = try project.corpus()
        fixtures = corpus.fixtureNames()
        defaultReviewer = project.reviewer(nil)
    }

    // MARK: Tracks

    /// The base's golden outputs, or a variant's folder under `golden/variants/`.
    struct Track: Sendable {
        /// Nil for the base.
        var label: String?
        var review: GoldenReview
        var store: any GoldenStorage { review.store }
        /// How URLs name it: `base`, or the variant label.
        var id: String { label ?? Self.baseID }
        var title: String { label ?? "base" }
        static let baseID = "base"
    }

    /// Every track, the base first. The variants' folders are listed each time (a run
    /// may add one); each track's prompts are read once.
    func tracks() throws -> [Track] {
        let folder = layout.golden.appendingPathComponent(VariantTrack.folderName, isDirectory: true)
        let labels = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        let safety = try safety
        return try trackCache.tracks(for: labels) {
            try GoldenReview.everyTrack(layout: layout).map { Track(label: $0.trackLabel, review: $0) }
        }.map { track in
            var track = track
            track.review.safety = safety
            return track
        }
    }

    /// The track a request names, or a 404.
    func track(_ id: String?) throws -> Track {
        let id = id ?? Track.baseID
        guard let track = try tracks().first(where: { $0.id == id }) else {
            throw PageError.notFound("There is no golden track \"\(id)\": the tracks are the base and the folders under golden/variants/.")
        }
        return track
    }

    /// The folder a track's golden files are in.
    func folder(of track: Track) -> URL {
        track.label.map { VariantTrack(label: $0, firstStep: .goalOptions).folder(in: layout.golden) } ?? layout.golden
    }

    /// Which steps of a track are approved, pending and labelled (`GoldenIndex`).
    func index(of track: Track) -> GoldenIndex.Snapshot {
        goldenIndex.snapshot(of: folder(of: track))
    }

    /// A step a request names on a track: it must have an approved or a pending output there.
    func key(fixture: String?, step: String?, on track: Track) throws -> StepKey {
        guard let fixture, let step else { throw PageError.badRequest("Name a fixture and a step.") }
        let key = StepKey(fixture: fixture, step: step)
        guard index(of: track).steps.contains(key) else {
            throw PageError.notFound("\(track.title) has no output for \(key).")
        }
        return key
    }

    /// The reviewers' labels on a track.
    func labels(on track: Track) throws -> ReviewLabels {
        ReviewLabels(golden: track.store, reasons: try reasons, fixtures: fixtures)
    }

    // MARK: The queue

    /// One pending output in the review queue.
    struct Queued: Sendable, Hashable {
        var track: String
        var key: StepKey
    }

    /// Every pending output, track by track (the base first), in fixture and step order.
    func queue() throws -> [Queued] {
        try tracks().flatMap { track in index(of: track).pending.map { Queued(track: track.id, key: $0) } }
    }

    /// Where in `queue` the first pending output after `here` is (tracks in their
    /// order, then steps); `queue.count` when none is.
    func queueIndex(after here: Queued, in queue: [Queued]) throws -> Int {
        let order = try tracks().map(\.id)
        func rank(_ entry: Queued) -> (Int, String, String) {
            (order.firstIndex(of: entry.track) ?? order.count, entry.key.fixture, entry.key.step)
        }
        return queue.firstIndex { rank($0) > rank(here) } ?? queue.count
    }

    // MARK: Agreement

    /// The checks' agreement with the labels on a track, as `agreement` measures it: a
    /// replay of the track, kept until a file under the track's golden folder or
    /// `prompts/` changes (a label, an accept, a check's data), so that reading the page
    /// again costs nothing.
    func agreement(on track: Track) async throws -> (measure: Project.AgreementMeasure, seconds: Double, cached: Bool) {
        let stamp = changeStamp(of: track)
        if let kept = agreements.value(track: track.id, stamp: stamp) { return (kept.measure, kept.seconds, true) }
        let started = Date()
        let variants = track.label.map { $0.split(separator: "+").map(String.init) } ?? []
        let measure = try await project.measureAgreement(variants: variants)
        let seconds = Date().timeIntervalSince(started)
        agreements.keep(measure, seconds: seconds, track: track.id, stamp: stamp)
        return (measure, seconds, false)
    }

    /// When anything the agreement reads last changed: each fixture folder of the track,
    /// and of the base for a variant (whose earlier steps are the base's), where a label
    /// written or an output accepted renames files; every file under `fixtures/` and
    /// `prompts/`.
    private func changeStamp(of track: Track) -> [String: Double] {
        var stamps = FileStamps.subfolders(layout.golden)
        if track.label != nil { stamps.merge(FileStamps.subfolders(folder(of: track))) { $1 } }
        stamps.merge(FileStamps.tree(layout.fixtures)) { $1 }
        stamps.merge(FileStamps.tree(layout.root.appendingPathComponent("prompts"))) { $1 }
        return stamps
    }

    // MARK: Comparison

    /// Two runs compared with both sides' outputs, as `compare --report` shows them; a
    /// comparison of two runs is worked out once (runs never change), one with golden each time.
    func comparison(base: String, head: String) throws -> (comparison: RunComparison, outputs: ComparedOutputs) {
        let againstGolden = base == "golden"
        let runs = againstGolden ? [head] : [base, head]
        let resolved = try runs.map { try run($0).id }
        let key = resolved.joined(separator: "\u{0}")
        if !againstGolden, let kept = comparisons.value(key) { return kept }
        let loaded = try RunComparison.loadWithOutputs(
            runs: resolved, againstGolden: againstGolden, history: history(), golden: project.golden, layout: layout,
            reading: { self.report(of: $0) })
        if !againstGolden { comparisons.keep(loaded, for: key) }
        return loaded
    }

    // MARK: Runs

    /// The run history, opened on first use and kept open.
    func history() throws -> RunHistory {
        try openHistory.value { try project.history() }
    }

    /// Every recorded run, newest first.
    func runs() throws -> [RunRow] {
        guard FileManager.default.fileExists(atPath: layout.history.path) else { return [] }
        return try history().recentRuns(limit: Int.max / 2)
    }

    /// The run a request names (an id, a unique prefix, `latest` or `latest~N`).
    func run(_ reference: String) throws -> RunRow {
        guard FileManager.default.fileExists(atPath: layout.history.path) else {
            throw PageError.notFound("No run is recorded yet: `trainer-eval run` records one.")
        }
        do {
            return try history().run(reference)
        } catch {
            throw PageError.notFound(String(describing: error))
        }
    }

    /// A run's steps as the history holds them (a run never changes), kept for the last few runs.
    func steps(ofRun run: RunRow) throws -> [StepRow] {
        if let kept = stepRows.value(run.id) { return kept }
        let rows = try history().steps(ofRun: run.id)
        stepRows.keep(rows, for: run.id)
        return rows
    }

    /// Whether a run's report folder still holds its `results.json`.
    func hasReport(_ run: RunRow) -> Bool {
        FileManager.default.fileExists(atPath: RunComparison.reportFile(of: run, layout: layout).path)
    }

    /// A run's report, read from its `results.json` once (a run's report never changes) and kept.
    func report(of run: RunRow) -> Result<RunReport, RunComparison.ReportUnavailable> {
        reports.report(of: run) { RunComparison.readReport(of: run, layout: layout) }
    }
}

/// The last few run reports read, by run id and the time the file changed.
private final class ReportCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(id: String, report: RunReport)] = []
    private let capacity = 3

    /// Reads one report at a time: a page that asks for the report being read (the
    /// newest run's, read at start) waits for it instead of reading it again.
    private let reading = NSLock()

    func report(of run: RunRow, read: () -> Result<RunReport, RunComparison.ReportUnavailable>) -> Result<RunReport, RunComparison.ReportUnavailable> {
        if let cached = lock.withLock({ entries.first { $0.id == run.id }?.report }) { return .success(cached) }
        reading.lock()
        defer { reading.unlock() }
        if let cached = lock.withLock({ entries.first { $0.id == run.id }?.report }) { return .success(cached) }
        let result = read()
        if case .success(let report) = result {
            lock.withLock {
                entries.removeAll { $0.id == run.id }
                entries.insert((run.id, report), at: 0)
                if entries.count > capacity { entries.removeLast() }
            }
        }
        return result
    }
}

/// The last agreement measured on each track, with the change stamp it was measured at.
private final class AgreementCache: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [String: (stamp: [String: Double], measure: Project.AgreementMeasure, seconds: Double)] = [:]

    func value(track: String, stamp: [String: Double]) -> (measure: Project.AgreementMeasure, seconds: Double)? {
        lock.withLock { kept[track].flatMap { $0.stamp == stamp ? ($0.measure, $0.seconds) : nil } }
    }

    func keep(_ measure: Project.AgreementMeasure, seconds: Double, track: String, stamp: [String: Double]) {
        lock.withLock { kept[track] = (stamp, measure, seconds) }
    }
}

/// The last few values by key.
private final class Recent<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [(key: String, value: Value)] = []

    func value(_ key: String) -> Value? {
        lock.withLock { kept.first { $0.key == key }?.value }
    }

    func keep(_ value: Value, for key: String) {
        lock.withLock {
            kept.removeAll { $0.key == key }
            kept.insert((key, value), at: 0)
            if kept.count > 3 { kept.removeLast() }
        }
    }
}

/// A value made on first use and kept; a failure is not kept, so the next use tries again.
private final class Once<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var made: Value?

    func value(_ make: () throws -> Value) throws -> Value {
        try lock.withLock {
            if let made { return made }
            let value = try make()
            made = value
            return value
        }
    }
}

/// The tracks as last built, rebuilt when the variants' folders change.
private final class TrackCache: @unchecked Sendable {
    private let lock = NSLock()
    private var built: (labels: [String], tracks: [ReviewSite.Track])?

    func tracks(for labels: [String], build: () throws -> [ReviewSite.Track]) throws -> [ReviewSite.Track] {
        if let built = lock.withLock({ built }), built.labels == labels { return built.tracks }
        let tracks = try build()
        lock.withLock { built = (labels, tracks) }
        return tracks
    }
}

/// A page that cannot be shown, with the status it is answered with.
enum PageError: Error, CustomStringConvertible {
    case notFound(String)
    case badRequest(String)
    /// Someone else changed what the page showed: nothing was written.
    case conflict(String)

    var status: Int {
        switch self {
        case .notFound: 404
        case .badRequest: 400
        case .conflict: 409
        }
    }

    var description: String {
        switch self {
        case .notFound(let text), .badRequest(let text), .conflict(let text): text
        }
    }
}
