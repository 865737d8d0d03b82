import Foundation
import Testing
@testable import Reports

@Suite("index.html as a reviewer reads it")
struct HTMLReviewTests {
    @Test func aFailingGateOpensOnWhatNeedsAttentionWorstFirst() throws {
        let html = HTMLReport.render(Samples.reportWithEveryStatus())
        let attention = try #require(html.range(of: "<section class=\"attention\" id=\"needs-attention\">"))
        for later in ["<dl class=\"facts\">", "<div class=\"charts\">", "<nav class=\"filters\"", "<main>"] {
            let position = try #require(html.range(of: later))
            #expect(attention.lowerBound < position.lowerBound, "\(later) comes before the needs-attention list")
        }
        let section = html[attention.lowerBound...].components(separatedBy: "</section>")[0]
        let list = try #require(section.components(separatedBy: "<ol>").dropFirst().first?.components(separatedBy: "</ol>").first)
        // The orphaned golden file comes after the steps; known failures are not in the list.
        #expect(values(of: "data-status", in: list) == ["regression", "error", "stale", "changed", "new", "regression"])
        #expect(values(of: "href", in: list) == ["#busy-parent/program-draft", "#busy-parent/program-edit", "#night-shift-nurse/program-edit",
                                                 "#night-shift-nurse/program-draft", "#night-shift-nurse/goal-options-edit-1", "#orphans"])
        let known = try #require(section.components(separatedBy: "<details class=\"known\">").dropFirst().first)
        #expect(known.hasPrefix("<summary>2 known failures (failing in golden too)</summary>"), "known failures come last, folded")
        #expect(values(of: "href", in: known) == ["#busy-parent/goal-options", "#night-shift-nurse/goal-options"])
    }

    @Test func everyLinkOfTheListReachesItsStep() {
        let html = HTMLReport.render(Samples.reportWithEveryStatus())
        let ids = Set(values(of: "id", in: html))
        for target in values(of: "href", in: html) where target.hasPrefix("#") {
            #expect(ids.contains(String(target.dropFirst())), "\(target) has no element")
        }
    }

    @Test func aPassingGateOpensOnTheRunAsBefore() throws {
        let html = HTMLReport.render(Samples.passingReport())
        #expect(!html.contains("needs-attention"))
        let header = try #require(html.components(separatedBy: "<header>").dropFirst().first?.components(separatedBy: "</header>").first)
        #expect(header.contains("gate passes") && header.contains("<dl class=\"facts\">"))
    }

    @Test func marksNeverBreakTheMarkdownAroundThem() {
        let changes = ProgramChanges(
            golden: "1. Squat 3 × 10\n- see [the guide](https://example.org/old) for rest_seconds and days_per_week\n| week | sets |\n|---|---|\n| 1 | 3 |",
            new: "1. Squat 4 × 10\n- see [the video](https://example.org/new) for rest_minutes and days_per_week\n| week | sets |\n|---|---|\n| 1 | 4 |\n\n## Cool-down")
        let new = ProgramChanges.render(changes.new, tag: "ins")
        #expect(new.contains("<ol><li>Squat <ins>4</ins> × 10</li></ol>"), "the list number stays a list")
        #expect(new.contains("<a href=\"https://example.org/new\" rel=\"noopener noreferrer\">the <ins>video</ins></a> for <ins>rest</ins>_<ins>minutes</ins> and days_per_week"),
                "a link keeps its address and snake_case words stay words")
        #expect(new.contains("<td>1</td><td><ins>4</ins></td>"))
        #expect(new.contains("<h2><ins>Cool-down</ins></h2>"), "a line only the new side has is marked whole")
        #expect(ProgramChanges.render(changes.golden, tag: "del").contains("<ol><li>Squat <del>3</del> × 10</li></ol>"))
    }

    @Test func multiLineMessagesKeepTheirLinesAndTagsShowAsCode() {
        let html = HTMLReport.render(Samples.reportWithEveryStatus())
        #expect(!html.contains("<current_program>"))
        #expect(HTML.message("wrap it in <current_program> and `id`") == "wrap it in <code>&lt;current_program&gt;</code> and <code>id</code>")
        #expect(HTML.message("a < b and c > d") == "a &lt; b and c &gt; d")
    }

    @Test func replayedFiguresAreLabelledAsRecordedAndPerAttempt() {
        let html = HTMLReport.render(Samples.reportWithEveryStatus())
        #expect(!html.contains("3600 tok"), "two attempts' tokens are never summed into one impossible figure")

        var live = Samples.report()
        live.run.provider = "openai-compatible"
        let liveHTML = HTMLReport.render(live)
        #expect(liveHTML.contains("<figcaption>Latency per step (s)</figcaption>"))
        #expect(liveHTML.contains("9.0 + 8.0 s · 2000→700 + 2300→650 tok (2 attempts)") && !liveHTML.contains("recorded 9.0"))
    }

    /// The values of an attribute, in document order.
    private func values(of attribute: String, in text: some StringProtocol) -> [String] {
        text.components(separatedBy: " \(attribute)=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }
}
