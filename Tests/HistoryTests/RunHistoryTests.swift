import Checks
import Foundation
import Intake
import Golden
import JSONSchema
import Pipeline
import Providers
import Storage
import Testing
@testable import History
@testable import Reports

@Suite("Run history")
struct RunHistoryTests {
    static func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID().uuidString)/runs.sqlite")
    }

    static func options(_ summaries: [String]) -> JSONValue {
        let options: [JSONValue] = summaries.enumerated().map { index, summary in
            ["id": .string("option-\(index)"), "summary": .string(summary), "detail": "Short."]
        }
        return ["options": .array(options)]
    }

    /// A run of one fixture: goal options with the given checks, and a program step that errored or not.
    static func report(id: String, at seconds: Double, summaries: [String], checks: [String: Bool], programFails: Bool = false) -> RunReport {
        var goal = StepResult(id: .goalOptions, status: .valid, output: options(summaries),
            attempts: [Attempt(responseText: "{}", finishReason: "stop", usage: TokenUsage(input: 100, output: 20), latency: 1, problems: [])])
        goal.checks = checks.sorted { $0.key < $1.key }.map { CheckResult(name: $0.key, passed: $0.value, message: "") }
        let program = programFails
            ? StepResult(id: .programDraft, status: .error, failure: StepFailure(kind: .init("timeout"), message: "no answer in 600 s"))
            : StepResult(id: .programDraft, status: .valid, output: ["title": "Plan"],
                         attempts: [Attempt(responseText: "{}", finishReason: "stop", usage: TokenUsage(input: 300, output: 200), latency: 3, problems: [])])
        let results = [FixtureResult(fixture: "busy-parent", steps: [goal, program])]
        let verdicts = results[0].steps.map { GoldenComparison.verdict(for: $0, fixture: "busy-parent", approved: GoldenComparison.entry(for: $0)) }
        let run = RunReport.RunInfo(
            id: id, startedAt: Date(timeIntervalSince1970: seconds), durationSeconds: 4, provider: "replay", model: "m", commit: "abc",
            prompts: ["goal-options": .init(version: 1, fingerprint: "0000000000000001", system: "system")], ci: false, interrupted: false, warnings: [])
        return RunReport(run: run, fixtures: [], results: results, golden: GoldenReport(verdicts: verdicts, orphans: []))
    }

    @Test func recordsRunsAndListsThemNewestFirstWithPassRates() throws {
        let file = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let history = try RunHistory(file: file)
        try history.record(Self.report(id: "20261101-100000-replay", at: 1000, summaries: ["a", "b", "c"], checks: ["options.count": true]), reportFolder: "Reports/one")
        try history.record(Self.report(id: "20261102-100000-local", at: 2000, summaries: ["a", "b", "c"], checks: ["options.count": true], programFails: true), reportFolder: nil)

        // A second handle on the same file sees both (migrations are idempotent).
        let reopened = try RunHistory(file: file)
        let runs = try reopened.recentRuns()
        #expect(runs.map(\.id) == ["20261102-100000-local", "20261101-100000-replay"])
        #expect(runs[0].steps == 2 && runs[0].passed == 1 && runs[0].passRate == 0.5)
        #expect(runs[0].statuses == "error=1 matches=1")
        #expect(runs[1].passRate == 1 && runs[1].reportFolder == "Reports/one")
        #expect(try reopened.passRates().map(\.rate) == [1, 0.5])
        let steps = try reopened.steps(ofRun: "20261102-100000-local")
        #expect(steps.map(\.stepId) == ["goal-options", "program-draft"])
        #expect(steps[1].failure == "timeout: no answer in 600 s")
    }

    @Test func recordingARunAgainReplacesIt() throws {
        let file = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let history = try RunHistory(file: file)
        try history.record(Self.report(id: "20261101-100000-replay", at: 1000, summaries: ["a", "b", "c"], checks: [:]), reportFolder: nil)
        try history.record(Self.report(id: "20261101-100000-replay", at: 1000, summaries: ["a", "b", "c"], checks: [:], programFails: true), reportFolder: nil)
        #expect(try history.recentRuns().count == 1)
        #expect(try history.steps(ofRun: "20261101-100000-replay").count == 2)
    }

    @Test func findsRunsByIdPrefixAndPosition() throws {
        let file = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let history = try RunHistory(file: file)
        #expect(throws: HistoryError.self) { try history.run("latest") }
        for (index, id) in ["20261101-100000-replay", "20261101-110000-replay", "20261102-090000-local"].enumerated() {
            try history.record(Self.report(id: id, at: Double(index) * 100, summaries: ["a"], checks: [:]), reportFolder: nil)
        }
        #expect(try history.run("latest").id == "20261102-090000-local")
        #expect(try history.run("latest~2").id == "20261101-100000-replay")
        #expect(try history.run("20261102").id == "20261102-090000-local")
        let ambiguous = #expect(throws: HistoryError.self) { try history.run("20261101") }
        #expect(ambiguous?.message.contains("matches 2 runs") == true)
        let missing = #expect(throws: HistoryError.self) { try history.run("nope") }
        #expect(missing?.message.contains("recent runs: 20261102-090000-local") == true)
        let tooFar = #expect(throws: HistoryError.self) { try history.run("latest~3") }
        #expect(tooFar?.message.contains("only 3 runs recorded") == true)
    }

    @Test func anUnreadableFileIsAClearError() throws {
        let file = Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("this is not a database".utf8).write(to: file)
        let error = #expect(throws: HistoryError.self) { try RunHistory(file: file) }
        #expect(error?.description.contains("runs.sqlite: cannot open the run history") == true)
    }
}

@Suite("Comparing runs")
struct RunComparisonTests {
    static func rows(_ report: RunReport) -> [StepRow] {
        report.fixtures.flatMap { fixture in fixture.steps.map { StepRow(runId: report.run.id, fixture: fixture.name, step: $0) } }
    }

    @Test func namesImprovedRegressedChangedAndUnchangedCases() {
        let base = Self.rows(RunHistoryTests.report(
            id: "a", at: 0, summaries: ["a", "b", "c"], checks: ["options.count": true, "options.distinct": false]))
        let improved = Self.rows(RunHistoryTests.report(
            id: "b", at: 1, summaries: ["a", "b", "c"], checks: ["options.count": true, "options.distinct": true]))
        var comparison = RunComparison(base: base, head: improved, baseName: "a", headName: "b")
        #expect(comparison.cases.map(\.change) == [.improved, .unchanged])
        #expect(comparison.cases[0].details == ["now passing: options.distinct"])

        let regressed = Self.rows(RunHistoryTests.report(
            id: "c", at: 2, summaries: ["x", "y"], checks: ["options.count": false, "options.distinct": false], programFails: true))
        comparison = RunComparison(base: base, head: regressed, baseName: "a", headName: "c")
        // A call that failed produced nothing to judge: only the base has that case, and it is no pair.
        #expect(comparison.cases.map(\.change) == [.regressed, .onlyInBase])
        #expect(comparison.cases[0].details == ["now failing: options.count", "the output differs"])
        #expect(comparison.cases[1].details == ["not produced there: timeout: no answer in 600 s"])
        #expect(comparison.verdict.pairs == 1)

        let reworded = Self.rows(RunHistoryTests.report(
            id: "d", at: 3, summaries: ["a", "b", "d"], checks: ["options.count": true, "options.distinct": false]))
        comparison = RunComparison(base: base, head: reworded, baseName: "a", headName: "d")
        #expect(comparison.cases.map(\.change) == [.changed, .unchanged])
        #expect(ComparisonReport.summaryLine(comparison) == "changed 1 · unchanged 1")
    }

    /// Each side is named by what it ran, not only by its run id.
    @Test func runsAreNamedByBaseOrTheirVariantLabel() throws {
        let history = MemoryRunHistory()
        try history.record(RunHistoryTests.report(id: "20261101-100000-replay", at: 1, summaries: ["a", "b", "c"], checks: [:]), reportFolder: nil)
        var variant = RunHistoryTests.report(id: "20261102-100000-replay", at: 2, summaries: ["a", "b", "c"], checks: [:])
        variant.run.prompts["goal-options"]?.variant = "three-short"
        try history.record(variant, reportFolder: nil)
        let golden = MemoryGoldenStore()
        let comparison = try RunComparison.load(runs: ["latest~1", "latest"], againstGolden: false, history: history, golden: golden)
        #expect((comparison.baseName, comparison.headName) == ("base", "goal-options=three-short"))
        #expect(ComparisonReport.headline(comparison)
            == "goal-options=three-short (run 20261102-100000-replay) against base (run 20261101-100000-replay)")
        #expect(ComparisonReport.verdictLine(comparison).contains("base passes 2 · goal-options=three-short passes 2"))
        // Two runs of the same prompts are told apart by their ids.
        try history.record(RunHistoryTests.report(id: "20261103-100000-replay", at: 3, summaries: ["a", "b", "c"], checks: [:]), reportFolder: nil)
        let same = try RunComparison.load(runs: ["latest~2", "latest"], againstGolden: false, history: history, golden: golden)
        #expect((same.baseName, same.headName) == ("base 20261101-100000-replay", "base 20261103-100000-replay"))
        #expect(ComparisonReport.headline(same) == "base 20261103-100000-replay against base 20261101-100000-replay")
    }

    @Test func casesOnlyOneRunProducedAreListedApart() {
        let base = Self.rows(RunHistoryTests.report(id: "a", at: 0, summaries: ["a"], checks: [:]))
        let head = Array(base.dropLast()) + [StepRow(
            runId: "b", fixture: "new-person", stepId: "goal-options", status: "new", outcome: "valid",
            failedChecks: [], passedChecks: [], output: ["options": []])]
        let comparison = RunComparison(base: base, head: head, baseName: "a", headName: "b")
        #expect(comparison.cases.map(\.key) == ["busy-parent/goal-options", "busy-parent/program-draft", "new-person/goal-options"])
        #expect(comparison.cases.map(\.change) == [.unchanged, .onlyInBase, .onlyInHead])
    }

    @Test func comparesARunWithGoldenFilesOnDisk() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = GoldenStore(folder: folder)
        let approved = GoldenEntry(output: RunHistoryTests.options(["a", "b", "c"]), checks: ["options.count": true, "options.distinct": false])
        try store.writePending(approved, for: StepKey(fixture: "busy-parent", step: "goal-options"))
        #expect(try store.accept(StepKey(fixture: "busy-parent", step: "goal-options")))

        let golden = try RunComparison.goldenRows(store: store)
        #expect(golden.map(\.key) == ["busy-parent/goal-options"])
        let head = Self.rows(RunHistoryTests.report(
            id: "b", at: 1, summaries: ["a", "b", "c"], checks: ["options.count": false, "options.distinct": true]))
            .filter { $0.stepId == "goal-options" }
        let comparison = RunComparison(base: golden, head: head, baseName: "golden", headName: "b")
        #expect(comparison.cases.map(\.change) == [.regressed])
        #expect(comparison.cases[0].details == ["now failing: options.count", "now passing: options.distinct"])

        let markdown = ComparisonReport.markdown(comparison)
        #expect(markdown.contains("| regressed | `busy-parent/goal-options` | now failing: options.count; now passing: options.distinct |"))
        let outputs = ComparedOutputs(
            base: try RunComparison.goldenRows(store: store).map(ComparedOutput.init), head: head.map(ComparedOutput.init))
        let html = ComparisonReport.html(comparison, outputs: outputs)
        #expect(html.contains("<article class=\"pair\" id=\"busy-parent/goal-options\" data-kind=\"both-fail\" data-change=\"regressed\">"))
        #expect(html.contains("<span class=\"badge s-regression\">regressed</span>"))
        #expect(html.contains("Content-Security-Policy"))
    }

    /// An approved unusable reply is a known failure; its replay is unchanged, as the gate says.
    @Test func anApprovedUnusableReplyIsUnchangedAgainstGolden() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = GoldenStore(folder: folder)
        let unusable = GoldenEntry(output: ["unusable_reply": "{\"program_json\": {\"title\": \"Cut off"], checks: ["output.usable": false])
        try store.writePending(unusable, for: StepKey(fixture: "weight-gain", step: "program-draft"))
        try store.accept(StepKey(fixture: "weight-gain", step: "program-draft"))
        let head = [StepRow(
            runId: "b", fixture: "weight-gain", stepId: "program-draft", status: "known-failure", outcome: "invalid",
            failedChecks: [], passedChecks: [], output: nil, failure: "invalid-output: the reply stopped at the token limit")]
        let comparison = RunComparison(base: try RunComparison.goldenRows(store: store), head: head, baseName: "golden", headName: "b")
        #expect(comparison.cases.map(\.change) == [.unchanged])
    }

    @Test func unchangedCasesAreListedOnlyWhenAsked() {
        let base = Self.rows(RunHistoryTests.report(id: "a", at: 0, summaries: ["a"], checks: [:]))
        let comparison = RunComparison(base: base, head: base, baseName: "a", headName: "b")
        let outputs = ComparedOutputs(base: base.map(ComparedOutput.init), head: base.map(ComparedOutput.init))
        let html = ComparisonReport.html(comparison, outputs: outputs)
        #expect(!html.contains("<article class=\"pair\" id=\"busy-parent/goal-options\""))
        #expect(html.contains("Same checks and the same output on both sides (<code>compare --all --report</code> shows them): <code>busy-parent/goal-options</code>"))
        #expect(ComparisonReport.html(comparison, outputs: outputs, includingUnchanged: true)
            .contains("<article class=\"pair\" id=\"busy-parent/goal-options\""))
        #expect(ComparisonReport.markdown(comparison) .contains("Every case is unchanged."))
    }

    @Test func multiLineDetailsFollowTheMarkdownTableInsteadOfBreakingIt() {
        let base = [StepRow(runId: "a", fixture: "f", stepId: "goal-options", status: "matches", outcome: "valid",
                            failedChecks: [], passedChecks: [], output: ["x": 1])]
        let head = [StepRow(runId: "b", fixture: "f", stepId: "goal-options", status: "error", outcome: "error",
                            failedChecks: [], passedChecks: [], output: nil, failure: "stale: changed\n-old line\n+<new> | line")]
        let markdown = ComparisonReport.markdown(RunComparison(base: base, head: head, baseName: "a", headName: "b"))
        let rows = markdown.split(separator: "\n").filter { $0.hasPrefix("| only-in-base") }
        #expect(rows == ["| only-in-base | `f/goal-options` | not produced there: stale: changed |"])
        #expect(markdown.contains("~~~\nnot produced there: stale: changed\n-old line\n+<new> | line\n~~~"))
    }
}
