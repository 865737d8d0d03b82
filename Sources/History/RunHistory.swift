import Intake
import Foundation
import GRDB
import Golden
import JSONSchema
import Reports

/// Every run's per-step results in a local SQLite file (`.history/runs.sqlite`,
/// ignored by git): the source of `trainer-eval history`, `compare`, and the
/// report's pass-rate chart.
public struct RunHistory: Sendable {
    public let file: URL
    private let database: DatabaseQueue

    /// Opens the history at `file`, creating it and its folder when missing, and
    /// migrating an older file in place.
    public init(file: URL) throws(HistoryError) {
        self.file = file
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            database = try DatabaseQueue(path: file.path, configuration: configuration)
            try Self.migrator.migrate(database)
        } catch {
            throw HistoryError(file: file, message: "cannot open the run history: \(error)")
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "run") { table in
                table.primaryKey("id", .text)
                table.column("startedAt", .datetime).notNull()
                table.column("durationSeconds", .double).notNull()
                table.column("provider", .text).notNull()
                table.column("model", .text).notNull()
                table.column("commit", .text)
                table.column("prompts", .text).notNull()
                table.column("ci", .boolean).notNull()
                table.column("interrupted", .boolean).notNull()
                table.column("steps", .integer).notNull()
                table.column("passed", .integer).notNull()
                table.column("statuses", .text).notNull()
                table.column("inputTokens", .integer).notNull()
                table.column("outputTokens", .integer).notNull()
                table.column("cost", .double)
                table.column("passesGate", .boolean).notNull()
                table.column("reportFolder", .text)
            }
            try db.create(table: "stepResult") { table in
                table.column("runId", .text).notNull().references("run", onDelete: .cascade)
                table.column("fixture", .text).notNull()
                table.column("stepId", .text).notNull()
                table.column("status", .text).notNull()
                table.column("outcome", .text).notNull()
                table.column("firstPassValid", .boolean).notNull()
                table.column("repaired", .boolean).notNull()
                table.column("latencySeconds", .double).notNull()
                table.column("inputTokens", .integer).notNull()
                table.column("outputTokens", .integer).notNull()
                table.column("failedChecks", .text).notNull()
                table.column("passedChecks", .text).notNull()
                table.column("outputFingerprint", .text)
                table.column("failure", .text)
                table.primaryKey(["runId", "fixture", "stepId"])
            }
        }
        return migrator
    }

    /// Stores a run (replacing a run with the same id).
    public func record(_ report: RunReport, reportFolder: String?) throws(HistoryError) {
        let run = RunRow(report, reportFolder: reportFolder)
        let steps = report.fixtures.flatMap { fixture in fixture.steps.map { StepRow(runId: report.run.id, fixture: fixture.name, step: $0) } }
        do {
            try database.write { db in
                try run.save(db)
                try StepRow.filter(Column("runId") == run.id).deleteAll(db)
                for step in steps { try step.insert(db) }
            }
        } catch {
            throw HistoryError(file: file, message: "cannot record run \(report.run.id): \(error)")
        }
    }

    /// The newest runs first.
    public func recentRuns(limit: Int = 20) throws(HistoryError) -> [RunRow] {
        do {
            return try database.read { db in
                try RunRow.order(Column("startedAt").desc, Column("id").desc).limit(limit).fetchAll(db)
            }
        } catch {
            throw HistoryError(file: file, message: "cannot read the run history: \(error)")
        }
    }

    /// The pass rate a run is recorded with: the share of its model steps that passed the gate.
    public static func passRate(of report: RunReport) -> Double {
        RunRow(report, reportFolder: nil).passRate
    }

    /// Pass rates of the last `limit` runs, oldest first, for charts.
    public func passRates(limit: Int = 30) throws(HistoryError) -> [PassRatePoint] {
        try recentRuns(limit: limit).reversed().map { PassRatePoint(runID: $0.id, rate: $0.passRate) }
    }

    /// Finds a run by its id, a unique prefix of it, `latest`, or `latest~N` (N runs before the latest).
    public func run(_ reference: String) throws(HistoryError) -> RunRow {
        let rows = try allRunsNewestFirst()
        guard !rows.isEmpty else { throw HistoryError(file: file, message: "no runs recorded yet: `trainer-eval run` records every run") }
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
    public func staleStepsOfLatestRun() throws(HistoryError) -> (run: String, steps: [StepKey]) {
        let latest = try run("latest")
        let stale = try steps(ofRun: latest.id).filter { $0.status == StepVerdict.Status.stale.rawValue }
        return (latest.id, stale.map { StepKey(fixture: $0.fixture, step: $0.stepId) })
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
        do {
            return try database.read { db in try RunRow.order(Column("startedAt").desc, Column("id").desc).fetchAll(db) }
        } catch {
            throw HistoryError(file: file, message: "cannot read the run history: \(error)")
        }
    }

    /// The per-step results of one run, in fixture and step order.
    public func steps(ofRun id: String) throws(HistoryError) -> [StepRow] {
        do {
            return try database.read { db in
                try StepRow.filter(Column("runId") == id).order(Column("fixture"), Column("rowid")).fetchAll(db)
            }
        } catch {
            throw HistoryError(file: file, message: "cannot read run \(id): \(error)")
        }
    }
}

/// A history problem, with the file it concerns.
public struct HistoryError: Error, CustomStringConvertible, Sendable {
    public let file: URL
    public let message: String

    public var description: String { "\(file.lastPathComponent): \(message)" }
}
