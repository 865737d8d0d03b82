import Checks
import Foundation
import JSONSchema
import Pipeline
import Testing
@testable import Reports

@Suite("Report files")
struct ReportFilesTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("reports-\(UUID().uuidString)", isDirectory: true)
    }

    @Test func writesFourFilesAndPointsLatestAtThem() throws {
        let root = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = try ReportWriter(root: root).write(Samples.report())
        #expect(folder.lastPathComponent == "20261121-120000-replay")
        for name in ReportWriter.fileNames {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name) missing")
        }
        let latest = try FileManager.default.destinationOfSymbolicLink(atPath: root.appendingPathComponent("latest").path)
        #expect(latest == "20261121-120000-replay")
    }

    @Test func pruningKeepsTheNewestRunsAndNothingElse() throws {
        let root = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let runs = ["20261120-090000-local", "20261121-120000-replay", "20261121-120000-replay-2", "20261122-080000-openai-compatible"]
        for name in runs + ["schema", "my-notes"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        try Data("keep".utf8).write(to: root.appendingPathComponent("README.md"))
        try Data("a file, not a run".utf8).write(to: root.appendingPathComponent("20261101-000000-replay"))
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("latest").path, withDestinationPath: runs[3])

        let writer = ReportWriter(root: root)
        // The current run is never removed, even when older than the ones kept.
        let removed = try writer.pruneRuns(keeping: 2, current: "20261120-090000-local")
        #expect(removed == ["20261121-120000-replay"])
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: root.path))
        #expect(left == ["20261120-090000-local", "20261121-120000-replay-2", "20261122-080000-openai-compatible",
                         "schema", "my-notes", "README.md", "20261101-000000-replay", "latest"])
        #expect(try writer.pruneRuns(keeping: 3, current: "20261122-080000-openai-compatible").isEmpty)
    }

    /// results.json is written a batch of fixtures at a time; whatever the batch size, the
    /// file is the one report, compact, with each fixture on a line of its own.
    @Test(arguments: [1, 7, 64])
    func resultsJSONStreamedInBatchesIsTheWholeReportAFixtureALine(batchSize: Int) throws {
        var report = Samples.reportWithEveryStatus()
        let fixture = try #require(report.fixtures.first)
        report.fixtures = (0..<150).map { index in
            var copy = fixture
            copy.name = "fixture-\(index)"
            return copy
        }
        var streamed: [UInt8] = []
        try ResultsFile.stream(report, batchSize: batchSize) { streamed += $0 }
        #expect(try JSONParser.parse(Data(streamed)) == (try JSONValueEncoder().encode(report)))
        let lines = String(decoding: streamed, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == report.fixtures.count + 3)
        #expect(lines.first == #"{"fixtures":["#)
        #expect(lines.last == "")
        #expect(lines[lines.count - 2].hasPrefix(#"],"formatVersion":"#))
        for (line, fixture) in zip(lines.dropFirst(), report.fixtures) {
            let text = line.hasSuffix(",") ? line.dropLast() : line
            #expect(try JSONParser.parse(Data(text.utf8)) == (try JSONValueEncoder().encode(fixture)))
        }

        var empty = report
        empty.fixtures = []
        var streamedEmpty: [UInt8] = []
        try ResultsFile.stream(empty, batchSize: batchSize) { streamedEmpty += $0 }
        #expect(streamedEmpty == (try JSONValueEncoder().encode(empty).serializedBytes(.canonical)) + Array("\n".utf8))
    }

    /// A fixture's line is written by hand, member by member, for speed: it must be the
    /// very text the encoder gives, for every report and for a step with every field set.
    @Test func aFixturesDirectTextIsTheEncodersCanonicalText() throws {
        var full = try #require(Samples.reportWithEveryStatus().fixtures.first)
        var step = try #require(full.steps.first)
        step.step = nil
        step.cost = 0.000123
        step.latencySeconds = 1.25
        step.note = "a note with \"quotes\", a tab\t, é and \u{7F}"
        step.failure = StepFailure(kind: .init("invalid-output"), message: "cut off", retries: 2, detail: "max_tokens", causes: ["one", "two"])
        step.golden = .object(JSONObject([.init(key: "b", value: .number(2.5)), .init(key: "a", value: .array([.null, .bool(true), .string("<x>")]))]))
        step.output = .object(JSONObject([.init(key: "z", value: .string("last")), .init(key: "a", value: .number(-3))]))
        step.diff = DiffReport(output: "~ a: 1 → 2", markdown: "-old\n+new")
        step.prompt = PromptReport(user: "Plan for Ana,\nthree days.")
        step.repeats = [RepeatRecord(repeatNumber: 1, outcome: .valid, firstPassValid: true, checks: ["c"], failedChecks: [], failure: .invalidOutput)]
        step.interventions = [Intervention(kind: "blocked-advice", detail: "fasting")]
        step.attempts = [AttemptReport(latencySeconds: 0.5, finishReason: "length", inputTokens: 10, outputTokens: 20, retries: 1,
                                       problems: ["p"], responseText: "{\"cut"),
                         AttemptReport(latencySeconds: 2, finishReason: nil, inputTokens: 0, outputTokens: 0, retries: 0, problems: [], responseText: nil)]
        step.checks = [CheckReport(name: "a", passed: false, message: "m", passedInGolden: nil),
                       CheckReport(name: "b", passed: true, message: "", passedInGolden: true)]
        full.steps.append(step)
        let reports = [Samples.report(), Samples.report(interrupted: true), Samples.reportWithEveryStatus(), Samples.reportWithRepeats()]
        let fixtures = reports.flatMap(\.fixtures) + [full]
        for fixture in fixtures {
            let direct = String(decoding: try fixture.canonicalJSON(), as: UTF8.self)
            let encoded = String(decoding: try JSONValueEncoder().encode(fixture).serializedBytes(.canonical), as: UTF8.self)
            #expect(direct == encoded, "\(fixture.name)")
        }
    }

    @Test func resultsJSONIsReplacedWholeAndLeavesNoPartialFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("results-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("results.json")
        try Data("old".utf8).write(to: url)
        try ResultsFile.write(Samples.report(), to: url)
        #expect(try Data(contentsOf: url) == (try ReportWriter.encode(Samples.report())))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["results.json"])
    }

    @Test func resultsJSONMatchesItsCommittedSchemaAndRoundTrips() throws {
        let schemaURL = Self.repositoryRoot.appendingPathComponent("Reports/schema/results.schema.json")
        let schema = try Schema(JSONParser.parse(Data(contentsOf: schemaURL)), baseURI: schemaURL.absoluteString, options: .init(assertsFormat: true))
        for report in [Samples.report(), Samples.report(interrupted: true), Samples.reportWithRepeats()] {
            let data = try ReportWriter.encode(report)
            let result = schema.validate(try JSONParser.parse(data))
            #expect(result.isValid, "\(result.errors.map { "\($0)" }.joined(separator: "\n"))")
            let decoded = try ReportWriter.decode(data)
            #expect(decoded.totals == report.totals)
            #expect(decoded.fixtures.flatMap(\.steps).map(\.status) == report.fixtures.flatMap(\.steps).map(\.status))
        }
    }

    @Test func theProgramsSideBySideAreInEveryReportAndTheSchema() throws {
        var report = Samples.report()
        report.suiteChecks = [
            CheckResult(name: "suite.same-day", passed: false, message: "4 people (a, b, c, d) get the same day: \"Push-up\", \"Plank\"."),
            CheckResult(name: "suite.prescription-share", passed: true, message: "the most common prescriptions of 40: \"3 × 5\" 20%"),
        ]
        let html = HTMLReport.render(report)
        #expect(html.contains("<section class=\"suite\" id=\"suite\"><h2>Programs side by side</h2>"))
        #expect(html.contains("<a href=\"#suite\"><code>suite.same-day</code></a>"), "a failing one needs attention")
        let markdown = MarkdownReport.render(report)
        #expect(markdown.contains("- **sameness** `suite.same-day`: 4 people (a, b, c, d)"))
        #expect(markdown.contains("- ✅ `suite.prescription-share`: the most common prescriptions of 40"))
        let xml = JUnitReport.render(report)
        #expect(xml.contains("<testsuite name=\"suite\" tests=\"2\" failures=\"0\""), "reported, not gated")
        #expect(xml.contains("<system-out>reported, not gated: 4 people"))

        let schemaURL = Self.repositoryRoot.appendingPathComponent("Reports/schema/results.schema.json")
        let schema = try Schema(JSONParser.parse(Data(contentsOf: schemaURL)), baseURI: schemaURL.absoluteString, options: .init(assertsFormat: true))
        let data = try ReportWriter.encode(report)
        let result = schema.validate(try JSONParser.parse(data))
        #expect(result.isValid, "\(result.errors.map { "\($0)" }.joined(separator: "\n"))")
        #expect(try ReportWriter.decode(data).suiteChecks == report.suiteChecks)
    }

    @Test func totalsCountEveryStatusAndTheGateVerdict() {
        let report = Samples.report()
        #expect(report.count(.knownFailure) == 1)
        #expect(report.count(.regression) == 1)
        #expect(report.count(.error) == 1)
        #expect(report.totals.orphans == 1)
        #expect(report.totals.passesGate == false)
        #expect(report.totals.steps == 3 && report.totals.calls == 3)
        #expect(report.totals.firstPassValid == 1 && report.totals.repaired == 1)
        #expect(report.totals.inputTokens == 5200 && report.totals.outputTokens == 1470)
        #expect(report.totals.cost == 0.0012)
        let draft = report.fixtures[0].steps[1]
        #expect(draft.checks.first?.passedInGolden == true)
        #expect(draft.diff?.markdown?.contains("-## Day 1: Full body (30 min)") == true)
        #expect(draft.diff?.output?.contains("~ session_minutes: 30 → 25") == true)
    }

    // What report.md, junit.xml and index.html show is pinned by the files in
    // Snapshots/ (ReportSnapshotTests); the tests here keep the rules those files obey.

    @Test func markdownSummaryFitsAPullRequestComment() {
        let text = MarkdownReport.render(Samples.report())
        #expect(text.split(separator: "\n").count < 80)
    }

    @Test func junitEscapesTheProgramsMarkup() {
        let xml = JUnitReport.render(Samples.report())
        #expect(xml.contains("&lt;script&gt;"), "the markdown diff is escaped")
        #expect(!xml.contains("<script>"))
    }

    @Test func junitTimesAndEscapesMatchWhatXMLToolsExpect() {
        #expect(["0.000", "12.346", "0.001", "3600.000", "0.000"] == [0, 12.3456, 0.0009, 3600, .nan].map(JUnitReport.seconds))
        #expect(JUnitReport.attribute("plain-name") == "plain-name")
        #expect(JUnitReport.attribute("a \"b\" <c> & d\ne\u{1}\u{FFFE}") == "a &quot;b&quot; &lt;c&gt; &amp; d&#10;e\u{FFFD}\u{FFFD}")
        #expect(JUnitReport.text("a \"b\"\n\tc ☕") == "a \"b\"\n\tc ☕")
    }

    @Test func htmlIsSelfContained() {
        let html = HTMLReport.render(Samples.report(), history: [.init(runID: "a", rate: 0.5), .init(runID: "b", rate: 0.75)])
        #expect(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"))
        #expect(!html.contains("src=\"http"), "no external assets")
        #expect(!html.contains("<link"))
        #expect(html.components(separatedBy: "<script>").count == 2, "only the report's own filter script")
        #expect(!html.contains("<script>alert"))
    }
}

@Suite("Large runs and repeats")
struct LargeRunTests {
    @Test func aLargeRunShowsPassingStepsInBriefAndProblemsInFull() {
        var report = Samples.report()
        let template = report.fixtures[0]
        report.fixtures = (0..<150).map { index in
            var fixture = template
            fixture.name = "person-\(index)"
            return fixture
        }
        let html = HTMLReport.render(report)
        #expect(html.contains("This run has 450 steps: steps that pass are shown in brief"))
        // goal-options is a known failure (passes the gate): no cards; the regressed draft keeps its rendered program.
        #expect(!html.contains("<div class=\"card\">"))
        #expect(html.components(separatedBy: "<h4 class=\"column-title\">Golden</h4>").count == 151)
        #expect(html.components(separatedBy: "<details id=\"system-goal-options\">").count == 2, "each system message once")
    }

    @Test func repeatStatisticsGiveTheSpreadAndTheFlakyChecks() throws {
        func result(passes: Bool) -> StepResult {
            var step = StepResult(id: .goalOptions, status: .valid, output: Samples.options,
                                  attempts: [Samples.attempt("{}", latency: 1, input: 1, output: 1)])
            step.checks = [CheckResult(name: "options.count", passed: true, message: ""),
                           CheckResult(name: "options.distinct", passed: passes, message: "")]
            return step
        }
        let runs = [[true, true], [true, false], [false, false]].map { outcomes in
            outcomes.enumerated().map { FixtureResult(fixture: "f\($0.offset)", steps: [result(passes: $0.element)]) }
        }
        let report = Samples.build(runs[0], approved: [:], orphans: [], repeats: runs, gate: .init(requiredRates: ["*": 0.6]))
        let statistics = try #require(report.repeats)
        let step = try #require(statistics.steps.first)
        #expect(step.step == "goal-options" && step.runs == 6 && step.passes == 3 && step.cases == 2)
        #expect(step.passRate.min == 0 && step.passRate.max == 1 && abs(step.passRate.mean - 0.5) < 1e-9)
        #expect(abs(step.checkPassRate.mean - 0.75) < 1e-9)
        #expect(step.firstPassValidity.mean == 1)
        #expect(statistics.flakyLines == ["f0/goal-options options.distinct: passed 2 of 3 (67%)", "f1/goal-options options.distinct: passed 1 of 3 (33%)"])
        #expect(!statistics.meetsRequirements)
        #expect(statistics.shortfalls == ["goal-options: pass rate 50% < required 60%"])
        // Wilson 3 of 6: [0.1876, 0.8124]; pass@3 and pass^3 are 1 and 0 for both cases.
        #expect(statistics.tableRows == [["goal-options", "6", "100%", "50% (0%–100%)", "[19%, 81%]", "100%", "0%", "75% (50%–100%)", "60% ✗"]])
        #expect(statistics.tableHeader[5...6] == ["pass@3", "pass^3"])
    }

}
