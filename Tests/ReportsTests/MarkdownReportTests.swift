import Foundation
import Testing
@testable import Reports

@Suite("report.md as a pull-request comment")
struct MarkdownReportTests {
    @Test func noTableRowHoldsMoreThanOneLine() {
        let text = MarkdownReport.render(Samples.reportWithEveryStatus())
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var columns: Int?
        for (index, line) in lines.enumerated() {
            guard line.hasPrefix("|") else {
                columns = nil
                continue
            }
            #expect(line.hasSuffix("|"), "line \(index + 1) starts a table row it does not finish: \(line)")
            let cells = line.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count - 1
            if let columns { #expect(cells == columns, "line \(index + 1) is not a whole row: \(line)") }
            columns = columns ?? cells
        }
    }

    @Test func tagsOutsideFencesAreCodeAndMarkupIsEscaped() {
        #expect(MarkdownReport.inline("kept <current_program> as is") == "kept `<current_program>` as is")
        #expect(MarkdownReport.inline("a *b* | c_d <e f>") == "a \\*b\\* \\| c\\_d \\<e f\\>")
        #expect(MarkdownReport.inline("repeated id `comp-prs`") == "repeated id `comp-prs`")
        #expect(MarkdownReport.code("a `b` c") == "``a `b` c``")
        var inFence = false
        for line in MarkdownReport.render(Samples.reportWithEveryStatus()).split(separator: "\n") {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inFence.toggle() }
            let outsideCode = line.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
            #expect(inFence || !outsideCode.contains { $0.contains("<current_program>") }, "a raw tag: \(line)")
        }
    }

    @Test func stepsFailingForTheSameReasonShareOneEntry() {
        var report = Samples.reportWithEveryStatus()
        var copy = report.fixtures[1]
        copy.name = "teenager"
        copy.steps = copy.steps.map { step in
            var step = step
            step.reasons = step.reasons.map { $0.replacingOccurrences(of: "/night-shift-nurse/", with: "/teenager/") }
            return step
        }
        report.fixtures.append(copy)
        let text = MarkdownReport.render(report)
        #expect(text.contains("- **stale** 2 steps: `night-shift-nurse/program-edit`, `teenager/program-edit`"))
        #expect(text.contains("  - stale-recording: the request differs from golden/\\*/program-edit.cassette.json"))
        #expect(text.components(separatedBy: "+Their program today:").count == 2, "the shared diff is shown once")
    }
}
