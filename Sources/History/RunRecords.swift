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
                throw HistoryError(file: file, message: "`\(reference)`: only \(rows.count) run\(rows.count == 1 ? "" : "s") recorded")
            }
            return rows[back]
        }
        if let exact = rows.first(where: { $0.id == reference }) { return exact }
        let matches = rows.filter { $0.id.hasPrefix(reference) }
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty {
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
