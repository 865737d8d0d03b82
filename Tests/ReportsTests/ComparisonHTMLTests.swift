import Checks
import Foundation
import Golden
import Intake
import JSONSchema
import Pipeline
import Providers
import Testing

@testable import Reports

/// The comparison page as a reviewer deciding "is B better than A" reads it.
@Suite("compare --report's index.html")
struct ComparisonHTMLTests {
    static func options(_ summaries: [String]) -> JSONValue {
        ["options": .array(summaries.enumerated().map { index, summary in
            ["id": .string("option-\(index)"), "summary": .string(summary), "detail": "Short sessions."]
        })]
    }

    static func step(_ id: StepID, output: JSONValue, failing: [String] = [], passing: [String] = []) -> StepResult {
        var result = StepResult(id: id, status: .valid, output: output, attempts: [Samples.attempt("{}", latency: 2, input: 900, output: 120)])
        result.checks = (["output.language"] + passing).map { CheckResult(name: $0, passed: true, message: "fine") }
            + failing.map { CheckResult(name: $0, passed: false, message: "found <b>trouble</b>") }
        return result
    }

    /// Two runs of three fixtures. `early-tie` comes first and ties (its options pass on
    /// both sides; its program fails the same check on both, with different words);
    /// in `busy-parent` B wins the goal options and A wins the program draft.
    static func runs() -> (a: RunReport, b: RunReport) {
        let tiedOptions = options(["Walk 8,000 steps a day"])
        let a = Samples.build([
            FixtureResult(fixture: "early-tie", steps: [
                step(.goalOptions, output: tiedOptions),
                step(.programDraft, output: Samples.program(markdown: "# Plan\n\n- **Squat**: 3 × 10", minutes: 30), failing: ["program.rest-days"]),
            ]),
            FixtureResult(fixture: "busy-parent", steps: [
                step(.goalOptions, output: options(["Run a 5K <script>alert('a')</script>", "Swim twice a week"]), failing: ["options.distinct"]),
                step(.programDraft, output: Samples.program(markdown: "# Keisha's plan\n\n## Day 1 (25 min)\n- **Goblet squat**: 3 × 10, rest 60 s.", minutes: 25),
                     passing: ["program.session-length"]),
            ]),
        ], approved: [:], orphans: [])
        let b = Samples.build([
            FixtureResult(fixture: "early-tie", steps: [
                step(.goalOptions, output: tiedOptions),
                step(.programDraft, output: Samples.program(markdown: "# Plan\n\n- **Lunge**: 3 × 10", minutes: 30), failing: ["program.rest-days"]),
            ]),
            FixtureResult(fixture: "busy-parent", steps: [
                step(.goalOptions, output: options(["Walk 8,000 steps a day", "Swim twice a week"]), passing: ["options.distinct"]),
                step(.programDraft, output: Samples.program(markdown: "# Keisha's plan\n\n## Day 1 (40 min)\n- **Goblet squat**: 4 × 10, rest 60 s. <script>alert('b')</script>", minutes: 40),
                     failing: ["program.session-length"]),
            ]),
        ], approved: [:], orphans: [])
        return (a, b)
    }

    static func page(includingUnchanged: Bool = false, baseName: String = "run-a", headName: String = "run-b") -> (RunComparison, String) {
        let (a, b) = runs()
        let outputs = ComparedOutputs(base: ComparedOutput.steps(of: a), head: ComparedOutput.steps(of: b))
        let comparison = RunComparison(base: ComparedOutput.steps(of: a), head: ComparedOutput.steps(of: b), baseName: baseName, headName: headName)
        return (comparison, ComparisonReport.html(comparison, outputs: outputs, includingUnchanged: includingUnchanged))
    }

    @Test func discordantPairsComeFirstBWinsBeforeAWinsThenTheTiesFolded() throws {
        let (_, html) = Self.page()
        let articles = values(of: "id", in: html, after: "<article class=\"pair\"")
        #expect(articles == ["busy-parent/goal-options", "busy-parent/program-draft", "early-tie/program-draft"],
                "B's win, then A's, then the tie that differs; the identical tie is listed by name only")
        let kinds = values(of: "data-kind", in: html, after: "<article class=\"pair\"")
        #expect(kinds == ["b-wins", "a-wins", "both-fail"])
        let sections = ["id=\"verdict\"", "id=\"b-wins\"", "id=\"a-wins\"", "id=\"both-fail\"", "id=\"both-pass\""].map { html.range(of: $0)?.lowerBound }
        #expect(sections.allSatisfy { $0 != nil } && sections.map { $0! } == sections.map { $0! }.sorted())
        let ties = try #require(html.components(separatedBy: "id=\"both-fail\"").dropFirst().first)
        #expect(ties.hasPrefix(" data-kind=\"both-fail\"><details><summary>"), "ties are folded")
        #expect(html.contains("<code>early-tie/goal-options</code>"), "an identical tie is still named")

        let (_, everything) = Self.page(includingUnchanged: true)
        #expect(values(of: "id", in: everything, after: "<article class=\"pair\"").last == "early-tie/goal-options")
    }

    @Test func bothOutputsOfAPairAreSideBySideWithTheirDifferencesMarked() throws {
        let (_, html) = Self.page()
        let options = try article("busy-parent/goal-options", in: html)
        let a = try #require(options.range(of: "<div class=\"side a fails\">"))
        let b = try #require(options.range(of: "<div class=\"side b passes\">"))
        #expect(options.contains("<div class=\"sides\">") && a.lowerBound < b.lowerBound)
        let aColumn = options[a.lowerBound..<b.lowerBound], bColumn = options[b.lowerBound...]
        #expect(aColumn.contains("<li class=\"differs\"><code>options.distinct</code>: found <code>&lt;b&gt;</code>trouble<code>&lt;/b&gt;</code></li>"))
        #expect(aColumn.contains("Swim twice a week") && bColumn.contains("Swim twice a week"))
        #expect(bColumn.contains("<li class=\"differs\"><strong>Walk 8,000 steps a day</strong>"), "an option only B has is marked")
        #expect(!bColumn.contains("<li class=\"differs\"><strong>Swim"), "an option both have is not")
        #expect(options.contains("<tr><td><code>options.distinct</code></td><td><span class=\"bad\">fail</span></td><td><span class=\"ok\">pass</span></td></tr>"))
        #expect(options.contains("<pre class=\"diff\">"), "the structural diff of the two outputs")

        let program = try article("busy-parent/program-draft", in: html)
        #expect(program.contains("<div class=\"program\"><h1>Keisha&#39;s plan</h1>"), "markdown is rendered")
        #expect(program.contains("<del>25</del>") && program.contains("<ins>40</ins>"), "changed words are marked in each column")
        #expect(program.contains("~ session_minutes: 25 → 40"))
    }

    @Test func everythingAnOutputOrARunNameHoldsIsEscaped() {
        let (_, html) = Self.page(headName: "<img src=x onerror=alert(1)>")
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("<img src=x"))
        #expect(html.contains("Run a 5K &lt;script&gt;alert(&#39;a&#39;)&lt;/script&gt;"))
        #expect(html.contains("&lt;script&gt;alert(&#39;b&#39;)&lt;/script&gt;"))
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(html.contains("Content-Security-Policy") && !html.contains("<link") && !html.contains("<script"), "self-contained, without script")
    }

    @Test func theVerdictComesFirstWithItsNumbers() throws {
        let (comparison, html) = Self.page()
        let verdict = comparison.verdict
        #expect((verdict.bBetter, verdict.aBetter) == (1, 1))
        let header = try #require(html.components(separatedBy: "<header>").dropFirst().first?.components(separatedBy: "</header>").first)
        #expect(header.contains("<span class=\"verdict same\">too few pairs to decide</span>"), "two discordant pairs can never decide")
        let section = try #require(html.components(separatedBy: "id=\"verdict\"").dropFirst().first?.components(separatedBy: "</section>").first)
        #expect(section.contains("at least 6 discordant pairs, all one way, are needed"))
        #expect(section.contains("<dt>p-value</dt><dd>1.000 (exact McNemar)</dd>"))
        #expect(section.contains("<dt>B wins</dt><dd>1</dd>") && section.contains("<dt>A wins</dt><dd>1</dd>"))
        #expect(section.contains("<dt>Tokens per case</dt><dd>A 1020 → B 1020 · +0 [+0, +0] (95% paired bootstrap)</dd>"))
        #expect(section.contains("<tr class=\"better\"><td><code>options.distinct</code></td><td>1</td><td>0</td><td>1</td><td>+1</td><td>1.000</td></tr>"))
        #expect(section.contains("<tr class=\"worse\"><td><code>program.session-length</code></td>"))
    }

    @Test func aClearWinIsCalledBetterAndTheWorseDirectionWorse() {
        func fixture(_ name: String, passing: Bool) -> FixtureResult {
            FixtureResult(fixture: name, steps: [Self.step(.goalOptions, output: Self.options(["Walk"]), failing: passing ? [] : ["options.distinct"])])
        }
        let names = (1...8).map { "person-\($0)" }
        let a = Samples.build(names.map { fixture($0, passing: false) }, approved: [:], orphans: [])
        let b = Samples.build(names.map { fixture($0, passing: true) }, approved: [:], orphans: [])
        let (stepsA, stepsB) = (ComparedOutput.steps(of: a), ComparedOutput.steps(of: b))
        let better = ComparisonReport.html(RunComparison(base: stepsA, head: stepsB, baseName: "a", headName: "b"),
                                           outputs: ComparedOutputs(base: stepsA, head: stepsB))
        #expect(better.contains("<span class=\"verdict pass\">B is better</span>") && better.contains("p = 0.008, below 0.05: B is better."))
        let worse = ComparisonReport.html(RunComparison(base: stepsB, head: stepsA, baseName: "b", headName: "a"),
                                          outputs: ComparedOutputs(base: stepsB, head: stepsA))
        #expect(worse.contains("<span class=\"verdict fail\">B is worse</span>"))
        #expect(values(of: "data-kind", in: worse, after: "<article class=\"pair\"") == Array(repeating: "a-wins", count: 8))
    }

    @Test func aSideWithoutAnOutputShowsWhyAndItsReply() throws {
        var (a, b) = Self.runs()
        b.fixtures[1].steps[1].outcome = .invalid
        b.fixtures[1].steps[1].output = nil
        b.fixtures[1].steps[1].attempts[0].responseText = "{\"program_json\": <cut"
        b.fixtures[1].steps[1].failure = StepFailure(kind: .init("invalid-output"), message: "the reply stopped at the token limit")
        let outputs = ComparedOutputs(base: ComparedOutput.steps(of: a), head: ComparedOutput.steps(of: b))
        let html = ComparisonReport.html(
            RunComparison(base: ComparedOutput.steps(of: a), head: ComparedOutput.steps(of: b), baseName: "a", headName: "b"), outputs: outputs)
        let program = try article("busy-parent/program-draft", in: html)
        #expect(program.contains("<div class=\"side b no-output\">"))
        #expect(program.contains("invalid-output: the reply stopped at the token limit"))
        #expect(program.contains("<pre>{&quot;program_json&quot;: &lt;cut</pre>"))
        #expect(!program.contains("class=\"check-diff\""), "checks that never ran are not a difference")
    }

    /// The markup of one pair.
    private func article(_ key: String, in html: String) throws -> Substring {
        let start = try #require(html.range(of: "<article class=\"pair\" id=\"\(key)\""))
        let end = try #require(html.range(of: "</article>", range: start.upperBound..<html.endIndex))
        return html[start.lowerBound..<end.upperBound]
    }

    /// The values of an attribute in elements that start with `prefix`, in document order.
    private func values(of attribute: String, in html: String, after prefix: String) -> [String] {
        html.components(separatedBy: prefix).dropFirst().compactMap { element in
            element.prefix { $0 != ">" }.components(separatedBy: " \(attribute)=\"").dropFirst().first.map { String($0.prefix { $0 != "\"" }) }
        }
    }
}
