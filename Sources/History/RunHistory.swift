import Foundation
import GRDB
import JSONSchema
import Reports

/// Every run's per-step results in a local SQLite file (`.history/runs.sqlite`,
/// ignored by git): the source of `trainer-eval history`, `compare`, and the
/// report's pass-rate chart.
public struct RunHistory: RunRecords, Sendable {
    public let file: URL
    private let database: DatabaseQueue
    /// What each recorded run prunes the history to.
    public let retention: Retention

    /// Opens the history at `file`, creating it and its folder when missing, and
    /// migrating an older file in place. Each run recorded prunes it to `retention`.
    public init(file: URL, retention: Retention = .automatic()) throws(HistoryError) {
        self.file = file
        self.retention = retention
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
        migrator.registerMigration("v2-repeats") { db in
            // Each repeat of a step under `run --repeat N`, as a JSON array; null without repeats.
            try db.alter(table: "stepResult") { table in table.add(column: "repeats", .text) }
        }
        migrator.registerMigration("v3-pruned") { db in
            // The runs pruned, so that a reference to one is told so.
            try db.create(table: "prunedRun") { table in
                table.primaryKey("id", .text)
                table.column("startedAt", .datetime).notNull()
            }
        }
        return migrator
    }

    /// Stores a run (replacing a run with the same id).
    public func record(_ report: RunReport, reportFolder: String?) throws(HistoryError) {
        let run = RunRow(report, reportFolder: reportFolder)
        // Each row fingerprints its output: a large run's rows are made on every core.
        let steps = report.fixtures.concurrentMap { fixture in
            fixture.steps.map { StepRow(runId: report.run.id, fixture: fixture.name, step: $0) }
        }.joined()
        do {
            try database.write { db in
                try run.save(db)
                try StepRow.filter(Column("runId") == run.id).deleteAll(db)
                let insert = try db.makeStatement(sql: StepRow.insertSQL)
                for step in steps {
                    if step.repeats == nil {
                        try insert.execute(arguments: step.insertArguments)
                    } else {
                        try step.insert(db)
                    }
                }
            }
        } catch {
            throw HistoryError(file: file, message: "cannot record run \(report.run.id): \(error)")
        }
        // The space of the runs let go is reused by the next runs: the file stays bounded.
        if retention.keep != nil || retention.olderThan != nil { try prune(retention, compacting: false) }
    }

    @discardableResult
    public func prune(_ retention: Retention, compacting: Bool) throws(HistoryError) -> [RunRow] {
        do {
            let removed = try database.write { db -> [RunRow] in
                let runs = try RunRow.order(Column("startedAt").desc, Column("id").desc).fetchAll(db)
                let removed = retention.removes(runs)
                for run in removed {
                    try StepRow.filter(Column("runId") == run.id).deleteAll(db)
                    try RunRow.deleteOne(db, key: run.id)
                    try db.execute(sql: "INSERT OR REPLACE INTO prunedRun (id, startedAt) VALUES (?, ?)", arguments: [run.id, run.startedAt])
                }
                return removed
            }
            if compacting { try database.vacuum() }
            return removed
        } catch {
            throw HistoryError(file: file, message: "cannot prune the run history: \(error)")
        }
    }

    public func prunedRunIDs() throws(HistoryError) -> [String] {
        do {
            return try database.read { db in
                try String.fetchAll(db, sql: "SELECT id FROM prunedRun ORDER BY startedAt DESC, id DESC")
            }
        } catch {
            throw HistoryError(file: file, message: "cannot read the run history: \(error)")
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
