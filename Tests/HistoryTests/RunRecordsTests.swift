import Foundation
import Golden
import JSONSchema
import Pipeline
import Testing
@testable import History
@testable import Reports

/// The SQLite history and its in-memory twin record, order and find runs alike.
@Suite("Run records")
struct RunRecordsTests {
    enum Backing: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, memory
        var testDescription: String { rawValue }
    }

    /// A run of `fixtures`, each with one valid goal-options step.
    static func report(id: String, at seconds: Double, fixtures: [String] = ["busy-parent"], passes: Bool = true) -> RunReport {
        var base = RunHistoryTests.report(id: id, at: seconds, summaries: ["a", "b", "c"], checks: ["options.count": passes])
        let steps = base.fixtures[0].steps
        base.fixtures = fixtures.map { name in
            var fixture = base.fixtures[0]
            fixture.name = name
            fixture.steps = steps
            return fixture
        }
        return base
    }

    @Test(arguments: Backing.allCases)
    func runsAreListedAndFoundAlike(backing: Backing) throws {
        let file = RunHistoryTests.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let history: any RunRecords = backing == .sqlite ? try RunHistory(file: file) : MemoryRunHistory(file: file)

        let noRuns = #expect(throws: HistoryError.self) { try history.run("latest") }
        #expect(noRuns?.description == "runs.sqlite: no runs recorded yet: `trainer-eval run` records every run")
        #expect(try history.recentRuns(limit: 20).isEmpty)

        // Start times kept to the millisecond; two runs that start together are ordered by id.
        try history.record(Self.report(id: "20261101-100000-replay", at: 1000.1234), reportFolder: "Reports/one")
        try history.record(Self.report(id: "20261101-100000-local", at: 2000.5), reportFolder: nil)
        try history.record(Self.report(id: "20261101-100000-openai", at: 2000.5, passes: false), reportFolder: nil)
        // Recorded again: the run is replaced, its steps with it.
        try history.record(Self.report(id: "20261101-100000-replay", at: 1000.1234, fixtures: ["zed", "amy"]), reportFolder: "Reports/one")

        let runs = try history.recentRuns(limit: 20)
        #expect(runs.map(\.id) == ["20261101-100000-openai", "20261101-100000-local", "20261101-100000-replay"])
        #expect(runs[2].startedAt == Date(timeIntervalSince1970: 1000.123))
        #expect(runs[2].reportFolder == "Reports/one")
        #expect(try history.recentRuns(limit: 2).map(\.id) == ["20261101-100000-openai", "20261101-100000-local"])
        #expect(try history.passRates(limit: 2).map(\.runID) == ["20261101-100000-local", "20261101-100000-openai"])
        #expect(try history.steps(ofRun: "20261101-100000-replay").map(\.key)
            == ["amy/goal-options", "amy/program-draft", "zed/goal-options", "zed/program-draft"])
        #expect(try history.steps(ofRun: "nope").isEmpty)

        #expect(try history.run("latest").id == "20261101-100000-openai")
        #expect(try history.run("latest~2").id == "20261101-100000-replay")
        #expect(try history.run("20261101-100000-l").id == "20261101-100000-local")
        #expect(try history.run(before: "20261101-100000-local").id == "20261101-100000-replay")
        let ambiguous = #expect(throws: HistoryError.self) { try history.run("20261101") }
        #expect(ambiguous?.message == "`20261101` matches 3 runs: 20261101-100000-openai, 20261101-100000-local, 20261101-100000-replay; give more of the id")
        let first = #expect(throws: HistoryError.self) { try history.run(before: "20261101-100000-replay") }
        #expect(first?.message.hasPrefix("no run before 20261101-100000-replay") == true)
    }
}
