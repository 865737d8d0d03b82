import Foundation
import JSONSchema
import Testing
@testable import Reports

/// Every sample run through each renderer whose output it changes, compared with
/// the committed files in `Snapshots/<sample>/`.
///
/// The samples fix everything that could vary between runs (run id, start time,
/// durations, figures), so no output is normalised. After a deliberate change to a
/// renderer, rerun with `UPDATE_SNAPSHOTS=1` and review the files' `git diff`.
@Suite("Report snapshots")
struct ReportSnapshotTests {
    /// A sample report, named as its snapshot folder.
    enum Sample: String, CaseIterable, Sendable {
        /// `Samples.report()`: a failing gate with a regression, an error, a known failure and an orphan.
        case failing
        /// The same run stopped by Ctrl-C; only `results.json` and `index.html` show it.
        case interrupted
        /// `Samples.reportWithEveryStatus()`: stale, changed, new, unusable and unapproved-check steps besides.
        case everyStatus = "every-status"
        /// `Samples.passingReport()`: a gate that passes.
        case passing
        /// `Samples.reportWithRepeats()`: three repeats whose pass rate falls short.
        case repeats

        var report: RunReport {
            switch self {
            case .failing: Samples.report()
            case .interrupted: Samples.report(interrupted: true)
            case .everyStatus: Samples.reportWithEveryStatus()
            case .passing: Samples.passingReport()
            case .repeats: Samples.reportWithRepeats()
            }
        }

        /// Past pass rates for the chart: the failing run shows it, the others do without.
        var history: [PassRatePoint] {
            self == .failing ? [.init(runID: "a", rate: 0.5), .init(runID: "b", rate: 0.75)] : []
        }
    }

    // Each renderer gets the samples whose output differs in it; the others would be
    // copies: an interrupted run shows only in results.json and index.html, repeats
    // do not show in junit.xml. A passing junit.xml holds nothing the failing one does
    // not (its shape is checked against the XSD), and results.json is one encoder whose
    // every field the failing, interrupted and repeated runs fill.

    @Test(arguments: [Sample.failing, .everyStatus, .passing, .repeats])
    func markdown(_ sample: Sample) {
        assertSnapshot(MarkdownReport.render(sample.report), named: "\(sample.rawValue)/report.md")
    }

    @Test(arguments: [Sample.failing, .everyStatus])
    func junit(_ sample: Sample) {
        assertSnapshot(JUnitReport.render(sample.report), named: "\(sample.rawValue)/junit.xml")
    }

    @Test(arguments: [Sample.failing, .interrupted, .repeats])
    func resultsJSON(_ sample: Sample) throws {
        // The snapshot holds the content indented, to read and diff; the file's own
        // layout (compact, a fixture a line) is ReportFilesTests' to check.
        let data = try ReportWriter.encode(sample.report)
        assertSnapshot(try JSONParser.parse(data).serialized(.prettySorted), named: "\(sample.rawValue)/results.json")
    }

    @Test(arguments: Sample.allCases)
    func html(_ sample: Sample) {
        assertSnapshot(HTMLReport.render(sample.report, history: sample.history), named: "\(sample.rawValue)/index.html")
    }
}
