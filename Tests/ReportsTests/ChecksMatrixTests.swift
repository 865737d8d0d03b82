import Checks
import Foundation
import Golden
import Intake
import Pipeline
import Storage
import Testing
@testable import Reports

@Suite("The checks matrix of index.html")
struct ChecksMatrixTests {
    /// A check name with markup, an ampersand and quotes, as scenario assertions have.
    static let hostileName = "assertion.not-regex <script>alert(\"x\")</script> & 'y'"

    /// Three fixtures whose checks land in every state:
    /// - `alpha`: days-per-week fails and passed in golden (fail); the hostile check fails and failed in golden (known).
    /// - `beta`: days-per-week fails in the draft as in golden (known); options.count passes in both goal steps.
    /// - `gamma`: days-per-week fails in the draft as in golden and in a new edit with no golden (fail);
    ///   no goal step, so options.count is not run.
    static func report() -> RunReport {
        func step(_ id: StepID, _ checks: [(String, Bool)]) -> StepResult {
            var result = StepResult(id: id, status: .valid, output: Samples.program(markdown: "# Plan", minutes: 30),
                                    attempts: [Samples.attempt("{}", latency: 1, input: 10, output: 10)])
            result.checks = checks.map { CheckResult(name: $0.0, passed: $0.1, message: $0.1 ? "fine" : "\($0.0) broke: <b>&</b>") }
            return result
        }
        func approved(_ checks: [String: Bool]) -> GoldenEntry {
            GoldenEntry(output: Samples.program(markdown: "# Golden plan", minutes: 30), checks: checks)
        }
        let results = [
            FixtureResult(fixture: "alpha", steps: [
                step(.goalOptions, [("options.count", true)]),
                step(.programDraft, [("program.days-per-week", false), ("a.always-passes", true), (hostileName, false)]),
            ]),
            FixtureResult(fixture: "beta", steps: [
                step(.goalOptions, [("options.count", true)]),
                step(.optionEdit(round: 1), [("options.count", true)]),
                step(.programDraft, [("program.days-per-week", false), ("a.always-passes", true)]),
            ]),
            FixtureResult(fixture: "gamma", steps: [
                step(.programDraft, [("program.days-per-week", false), ("a.always-passes", true)]),
                step(.programEdit, [("program.days-per-week", false)]),
            ]),
        ]
        let goldenDraft: [String: Bool] = ["program.days-per-week": false, "a.always-passes": true]
        let golden: [StepKey: GoldenEntry] = [
            StepKey(fixture: "alpha", step: "program-draft"): approved(["program.days-per-week": true, "a.always-passes": true, hostileName: false]),
            StepKey(fixture: "beta", step: "program-draft"): approved(goldenDraft),
            StepKey(fixture: "gamma", step: "program-draft"): approved(goldenDraft),
        ]
        return Samples.build(results, approved: golden, orphans: [])
    }

    @Test func eachCellSumsUpTheCheckOverTheFixturesSteps() throws {
        let matrix = ChecksMatrix(Self.report())
        #expect(matrix.fixtures == ["alpha", "beta", "gamma"])
        func states(_ name: String) throws -> [ChecksMatrix.State] {
            try #require(matrix.rows.first { $0.name == name }).states
        }
        #expect(try states("program.days-per-week") == [.fail, .known, .fail], "a new failure in one step outweighs a known one in another")
        #expect(try states(Self.hostileName) == [.known, .notRun, .notRun])
        #expect(try states("options.count") == [.pass, .pass, .notRun])
        #expect(try states("a.always-passes") == [.pass, .pass, .pass])
        let gamma = matrix.cell(try #require(matrix.rows.first { $0.name == "program.days-per-week" }), 2)
        #expect(gamma.runs.map(\.step) == ["program-draft", "program-edit"])
        #expect(gamma.firstFailure?.step == "program-draft")
    }

    @Test(arguments: [
        ([CheckReport](), ChecksMatrix.State.notRun),
        ([CheckReport(name: "c", passed: true, message: "", passedInGolden: false)], .pass),
        ([CheckReport(name: "c", passed: false, message: "", passedInGolden: true)], .fail),
        ([CheckReport(name: "c", passed: false, message: "", passedInGolden: nil)], .fail),
        ([CheckReport(name: "c", passed: false, message: "", passedInGolden: false)], .known),
        ([CheckReport(name: "c", passed: true, message: "", passedInGolden: true),
          CheckReport(name: "c", passed: false, message: "", passedInGolden: false)], .known),
    ])
    func stateOfOneCheckInOneFixture(_ checks: [CheckReport], _ expected: ChecksMatrix.State) {
        #expect(ChecksMatrix.state(of: checks) == expected)
    }

    @Test func theMostFailedChecksComeFirstThenByName() {
        let matrix = ChecksMatrix(Self.report())
        #expect(matrix.rows.map(\.name) == ["program.days-per-week", Self.hostileName, "a.always-passes", "options.count"])
        #expect(matrix.rows.map(\.failing) == [3, 1, 0, 0])
        #expect(matrix.rows.map(\.ran) == [3, 1, 3, 2])
        #expect(matrix.hasNewFailures)
    }

    @Test func thePageShowsRowsInOrderWithTheirTalliesAndCellStates() throws {
        let section = try matrixSection(HTMLReport.render(Self.report()))
        #expect(section.contains("<details open>"), "a check failing anew opens the matrix")
        let rows = section.components(separatedBy: "<tr>").dropFirst(2)
        let tallies = rows.map { String($0.components(separatedBy: "<span class=\"tally").dropFirst().first?.split(separator: ">", maxSplits: 1).last?.prefix { $0 != "<" } ?? "") }
        #expect(tallies == ["· 3 of 3 fail (2 new)", "· 1 of 1 fail", "· 0 of 3 fail", "· 0 of 2 fail"])
        let classes = rows.map { row in row.components(separatedBy: "<td class=\"cell m-").dropFirst().map { String($0.prefix { $0 != "\"" }) } }
        #expect(classes == [["fail", "known", "fail"], ["known", "not-run", "not-run"], ["pass", "pass", "pass"], ["pass", "pass", "not-run"]])
        // Failing cells link to the step that failed, passing ones to the fixture, cells not run nowhere.
        let first = try #require(rows.first)
        #expect(first.contains("<a href=\"#alpha/program-draft\">✗</a>") && first.contains("<a href=\"#beta/program-draft\">≈</a>"))
        #expect(rows.last?.contains("<a href=\"#alpha\">✓</a>") == true)
        #expect(rows.last?.contains("<td class=\"cell m-not-run\" title=\"gamma · options.count: not run\"></td></tr>") == true)
    }

    @Test func everyLinkOfTheMatrixReachesAnElement() throws {
        let html = HTMLReport.render(Self.report())
        let section = try matrixSection(html)
        let ids = Set(html.components(separatedBy: " id=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) })
        let links = section.components(separatedBy: " href=\"#").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(links.count == 3 + 9, "each fixture's column header and every cell that ran")
        for link in links { #expect(ids.contains(link), "#\(link) has no element") }
    }

    @Test func checkNamesAndMessagesAreEscaped() throws {
        let section = try matrixSection(HTMLReport.render(Self.report()))
        #expect(!section.contains("<script>") && !section.contains("<b>"))
        let escapedName = "assertion.not-regex &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;"
        #expect(section.contains("<th scope=\"row\" title=\"\(escapedName)\"><div class=\"check-name\"><code>\(escapedName)</code>"))
        #expect(section.contains("title=\"alpha · \(escapedName): known failure\nprogram-draft: failed (failed in golden too): \(escapedName) broke: &lt;b&gt;&amp;&lt;/b&gt;\""))
    }

    @Test func aLargeMatrixWithOnlyKnownFailuresStartsFolded() throws {
        var report = Self.report()
        report.fixtures = report.fixtures.map { fixture in
            var fixture = fixture
            fixture.steps = fixture.steps.map { step in
                var step = step
                step.checks = step.checks.map { check in
                    var check = check
                    check.passedInGolden = check.passed
                    return check
                }
                return step
            }
            return fixture
        }
        #expect(try matrixSection(HTMLReport.render(report)).contains("<details open>"), "a small matrix opens")
        let many = (1...HTMLReport.matrixOpenLimit).map { index in
            var fixture = report.fixtures[0]
            fixture.name = "fixture-\(index)"
            return fixture
        }
        report.fixtures = many
        let section = try matrixSection(HTMLReport.render(report))
        let folded = section.contains("<details><summary>")
        let failing = section.contains("<td class=\"cell m-fail\"")
        #expect(folded && !failing, "known failures alone leave a large matrix folded")
    }

    @Test func aRunWithoutChecksHasNoMatrix() {
        var report = Self.report()
        for index in report.fixtures.indices {
            for step in report.fixtures[index].steps.indices { report.fixtures[index].steps[step].checks = [] }
        }
        #expect(!HTMLReport.render(report).contains("checks-matrix"))
    }

    @Test func theMatrixComesAfterTheChartsAndBeforeTheFixtures() throws {
        let html = HTMLReport.render(Self.report())
        let charts = try #require(html.range(of: "<div class=\"charts\">"))
        let matrix = try #require(html.range(of: "<section class=\"matrix\" id=\"checks-matrix\">"))
        let filters = try #require(html.range(of: "<nav class=\"filters\""))
        #expect(charts.lowerBound < matrix.lowerBound && matrix.lowerBound < filters.lowerBound)
    }

    /// The matrix's section of a page.
    private func matrixSection(_ html: String) throws -> String {
        let start = try #require(html.range(of: "<section class=\"matrix\" id=\"checks-matrix\">"))
        return try #require(html[start.lowerBound...].components(separatedBy: "</section>").first)
    }
}
