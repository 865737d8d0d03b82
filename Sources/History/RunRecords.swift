import Foundation
import Golden
import Intake
import Reports

/// Where every run's per-step results are kept: `RunHistory` in SQLite, `MemoryRunHistory` in memory.
///
/// A store records runs and lists them; finding a run by reference, the run before
/// another and the pass rates for a chart are the same over any store, below.
public protocol RunRecords: Sendable {
    /// The file the history is kept in, as errors name it.
    var file: URL { get }

    /// Stores a run (replacing a run with the same id).
    func record(_ report: RunReport, reportFolder: String?) throws(HistoryError)

    /// The newest runs first (latest start, then greatest id), at most `limit`.
    func recentRuns(limit: Int) throws(HistoryError) -> [RunRow]

    /// The per-step results of one run, in fixture and step order.
    func steps(ofRun id: String) throws(HistoryError) -> [StepRow]

    /// Removes the runs `retention` lets go, and with `compacting` gives their space
    /// back to the file system. Returns the runs removed, newest first.
    @discardableResult
    func prune(_ retention: Retention, compacting: Bool) throws(HistoryError) -> [RunRow]

    /// The ids of the runs pruned so far, newest first: a reference to one is told it was pruned.
    func prunedRunIDs() throws(HistoryError) -> [String]
}

/// Which runs the history keeps.
public struct Retention: Sendable, Hashable {
    /// The newest runs kept; nil keeps any number.
    public var keep: Int?
    /// Runs started before this go; nil keeps any age.
    public var olderThan: Date?

    public init(keep: Int? = nil, olderThan: Date? = nil) {
        self.keep = keep
        self.olderThan = olderThan
    }

    /// How many runs the history keeps when nothing says otherwise.
    public static let defaultKeep = 100

    /// The environment variable that changes it: a number of runs, 0 for every run.
    public static let keepVariable = "TRAINER_EVAL_HISTORY_KEEP"

    /// What every recorded run is pruned to: the newest `defaultKeep` runs, or as many
    /// as `TRAINER_EVAL_HISTORY_KEEP` says (0 keeps them all).
    public static func automatic(environment: [String: String] = ProcessInfo.processInfo.environment) -> Retention {
        guard let text = environment[keepVariable], let keep = Int(text), keep >= 0 else { return Retention(keep: defaultKeep) }
        return Retention(keep: keep == 0 ? nil : keep)
    }

    /// The runs of `runs` (newest first) it lets go.
    public func removes(_ runs: [RunRow]) -> [RunRow] {
        runs.enumerated().filter { index, run in
            (keep.map { index >= $0 } ?? false) || (olderThan.map { run.startedAt < $0 } ?? false)
        }.map(\.element)
    }
}

extension RunRecords {
    /// Pass rates of the last `limit` runs, oldest first, for charts.
    public func passRates(limit: Int = 30) throws(HistoryError) -> [PassRatePoint] {
        try recentRuns(limit: limit).reversed().map { PassRatePoint(runID: $0.id, rate: $0.passRate) }
    }

    /// Finds a run by its id, a unique prefix of it, `latest`, or `latest~N` (N runs before the latest).
    public func run(_ reference: String) throws(HistoryError) -> RunRow {
        let rows = try allRunsNewestFirst()
        guard !rows.isEmpty else { throw HistoryError(file: file, message: "no runs recorded yet: `\(Invocation.command) run` records every run") }
        if reference == "latest" { return rows[0] }
        if reference.hasPrefix("latest~"), let back = Int(reference.dropFirst("latest~".count)), back >= 0 {
            guard back < rows.count else {
                let pruned = try prunedRunIDs().count
                guard pruned > 0, back < rows.count + pruned else {
                    throw HistoryError(file: file, message: "`\(reference)`: only \(rows.count) run\(rows.count == 1 ? "" : "s") recorded")
                }
                throw HistoryError(file: file, message: "`\(reference)` was pruned from the history: it keeps the newest \(rows.count) run\(rows.count == 1 ? "" : "s"), "
                    + "and \(pruned) older one\(pruned == 1 ? " was" : "s were") removed (`\(Invocation.command) history prune`, or \(Retention.keepVariable) for every run)")
            }
            return rows[back]
        }
        if let exact = rows.first(where: { $0.id == reference }) { return exact }
        let matches = rows.filter { $0.id.hasPrefix(reference) }
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty {
            if let pruned = try prunedRunIDs().first(where: { $0 == reference || $0.hasPrefix(reference) }) {
                throw HistoryError(file: file, message: "run \(pruned) was pruned from the history; its report folder may still be under Reports/")
            }
            throw HistoryError(file: file, message: "no run `\(reference)`; recent runs: " + rows.prefix(5).map(\.id).joined(separator: ", "))
        }
        throw HistoryError(file: file, message: "`\(reference)` matches \(matches.count) runs: " + matches.prefix(5).map(\.id).joined(separator: ", ") + "; give more of the id")
    }

    /// The latest run's id and the steps it could not compare with golden because
    /// their recordings were stale or missing.
    public func staleStepsOfLatestRun() throws(HistoryError) -> (run: String, steps: [StepKey], variantArguments: String) {
        let latest = try run("latest")
        let stale = try steps(ofRun: latest.id).filter { $0.status == StepVerdict.Status.stale.rawValue }
        let variants = latest.variants.map { " --variant \($0.step)=\($0.name)" }.joined()
        return (latest.id, stale.map { StepKey(fixture: $0.fixture, step: $0.stepId) }, variants)
    }

    /// The run recorded just before the one with this id.
    public func run(before id: String) throws(HistoryError) -> RunRow {
        let rows = try allRunsNewestFirst()
        guard let index = rows.firstIndex(where: { $0.id == id }), index + 1 < rows.count else {
            throw HistoryError(file: file, message: "no run before \(id) to compare it with; name two runs, or compare with --baseline golden")
        }
        return rows[index + 1]
    }

    private func allRunsNewestFirst() throws(HistoryError) -> [RunRow] {
        try recentRuns(limit: .max)
    }
}
