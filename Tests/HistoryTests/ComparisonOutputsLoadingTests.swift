import Foundation
import Golden
import Intake
import Storage
import Testing
@testable import History
@testable import Reports

/// `compare --report` reads both runs' outputs from their report folders.
@Suite("Loading a comparison's outputs")
struct ComparisonOutputsLoadingTests {
    @Test func outputsComeFromEachRunsResultsAndAPrunedFolderIsNamed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("project-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let layout = ProjectLayout(root: root)
        let history = MemoryRunHistory()
        let base = RunHistoryTests.report(id: "20261101-100000-replay", at: 1, summaries: ["Walk <daily>"], checks: ["options.count": false])
        let head = RunHistoryTests.report(id: "20261102-100000-replay", at: 2, summaries: ["Swim"], checks: ["options.count": true])
        let folder = try ReportWriter(root: layout.reports).write(head)
        try history.record(base, reportFolder: "Reports/\(base.run.id)")
        try history.record(head, reportFolder: layout.displayPath(of: folder))

        let (comparison, outputs) = try RunComparison.loadWithOutputs(
            runs: [base.run.id, head.run.id], againstGolden: false, history: history, golden: MemoryGoldenStore(), layout: layout)
        #expect(comparison.verdict.bBetter == 1)
        let headOptions = try #require(outputs.head["busy-parent/goal-options"])
        #expect(headOptions.output?["options"]?.arrayValue?.first?["summary"]?.stringValue == "Swim", "read from results.json")
        let baseOptions = try #require(outputs.base["busy-parent/goal-options"])
        #expect(baseOptions.output == nil && baseOptions.failedCheckNames == ["options.count"], "the history row alone: checks by name")
        #expect(outputs.notes.count == 1 && outputs.notes[0].hasPrefix("20261101-100000-replay: no report at Reports/20261101-100000-replay/results.json"))

        let html = ComparisonReport.html(comparison, outputs: outputs)
        #expect(html.contains("The output was not kept (its report folder is gone).") && html.contains("<strong>Swim</strong>"))
    }
}
