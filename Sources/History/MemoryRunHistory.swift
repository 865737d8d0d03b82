import Foundation
import GRDB
import Reports

/// Runs in memory, for tests: listed and ordered as `RunHistory` lists them, with each
/// start time kept to the millisecond, as SQLite keeps it.
public final class MemoryRunHistory: RunRecords, @unchecked Sendable {
    /// The file errors name, as `RunHistory`'s errors name its database.
    public let file: URL

    private let lock = NSLock()
    private var runs: [String: RunRow] = [:]
    private var stepsByRun: [String: [StepRow]] = [:]
    private var pruned: [String] = []

    public init(file: URL = URL(fileURLWithPath: ".history/runs.sqlite")) {
        self.file = file
    }

    public func record(_ report: RunReport, reportFolder: String?) throws(HistoryError) {
        var run = RunRow(report, reportFolder: reportFolder)
        run.startedAt = Date.fromDatabaseValue(run.startedAt.databaseValue) ?? run.startedAt
        let steps = report.fixtures.flatMap { fixture in fixture.steps.map { StepRow(runId: report.run.id, fixture: fixture.name, step: $0) } }
        lock.withLock {
            runs[run.id] = run
            stepsByRun[run.id] = steps
        }
    }

    public func recentRuns(limit: Int = 20) throws(HistoryError) -> [RunRow] {
        let all = lock.withLock { Array(runs.values) }
        let sorted = all.sorted { ($0.startedAt, $0.id) > ($1.startedAt, $1.id) }
        return Array(sorted.prefix(max(0, limit)))
    }

    @discardableResult
    public func prune(_ retention: Retention, compacting: Bool) throws(HistoryError) -> [RunRow] {
        let removed = retention.removes(try recentRuns(limit: .max))
        lock.withLock {
            for run in removed {
                runs[run.id] = nil
                stepsByRun[run.id] = nil
            }
            pruned = removed.map(\.id) + pruned
        }
        return removed
    }

    public func prunedRunIDs() throws(HistoryError) -> [String] {
        lock.withLock { pruned }
    }

    public func steps(ofRun id: String) throws(HistoryError) -> [StepRow] {
        let steps = lock.withLock { stepsByRun[id] ?? [] }
        // By fixture, then in the order they were recorded (SQLite's row order).
        return steps.enumerated().sorted { ($0.element.fixture, $0.offset) < ($1.element.fixture, $1.offset) }.map(\.element)
    }
}
