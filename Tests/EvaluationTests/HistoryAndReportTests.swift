import Evaluation
import Foundation
import History
import Pipeline
import Reports
import Testing
import TestSupport

/// A run lands in the history it is given and writes its report folder where told.
@Suite("Evaluation history and report")
struct HistoryAndReportTests {
    @Test func theHistoryRecordsTheRunAndTheReportIsWritten() async throws {
        let bench = Bench()
        defer { bench.cleanUp() }
        let outcome = try await bench.run(["busy-parent"], provider: ScriptedProvider(otherwise: Replies.valid))

        #expect(outcome.warnings == [])
        let runs = try bench.history.recentRuns(limit: 10)
        #expect(runs.map(\.id) == [outcome.report.run.id])
        #expect(runs.first?.steps == 4, "model steps")
        #expect(runs.first?.provider == "scripted")
        #expect(runs.first?.reportFolder == outcome.reportFolder.path)
        #expect(try bench.history.steps(ofRun: outcome.report.run.id).map(\.stepId)
            == ["goal-options", "goal-options-edit-1", "confirm", "program-draft", "program-edit"])

        #expect(outcome.reportFolder.deletingLastPathComponent().standardizedFileURL.path == bench.reports.standardizedFileURL.path)
        for name in ReportWriter.fileNames {
            #expect(FileManager.default.fileExists(atPath: outcome.reportFolder.appendingPathComponent(name).path), "\(name)")
        }
    }

    @Test func aHistoryThatCannotBeOpenedCostsAWarningNotTheReport() async throws {
        let bench = Bench()
        defer { bench.cleanUp() }
        // A file that is no database where the history should be.
        let file = bench.reports.appendingPathComponent("history/runs.sqlite")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("this is not a database".utf8).write(to: file)
        var stores = bench.stores
        stores.openHistory = { try RunHistory(file: file) }
        let evaluation = Evaluation(
            layout: Repository.layout, prompts: try Repository.prompts(), prices: try PriceTable.load(layout: Repository.layout),
            provider: ScriptedProvider(otherwise: Replies.valid), options: Bench.options(), stores: stores)
        let outcome = try await evaluation.run(try Repository.fixtures(["busy-parent"]))

        #expect(outcome.warnings.count == 1)
        #expect(outcome.warnings.first?.hasPrefix("runs.sqlite: cannot open the run history") == true, "\(outcome.warnings)")
        #expect(FileManager.default.fileExists(atPath: outcome.reportFolder.appendingPathComponent("index.html").path))
    }
}
