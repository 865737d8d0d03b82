import Foundation
import Golden
import Intake
import Reports
import Storage

extension RunComparison {
    /// The comparison `compare` shows: `[A, B]` is B against A; `[B]` is B against the
    /// run before it; `[]` is the latest run against the one before. With `againstGolden`,
    /// the one named run (default `latest`) against the approved outputs of the steps it produced.
    public static func load(runs: [String], againstGolden: Bool, history: any RunRecords, golden: any GoldenStorage) throws -> RunComparison {
        try ComparedRuns(runs: runs, againstGolden: againstGolden, history: history, golden: golden).comparison
    }

    /// The comparison with what each side shows for every case (checks with their
    /// messages, outputs), for the page `compare --report` writes. A run's outputs are
    /// read from its report folder's `results.json`; a run whose folder is gone shows
    /// its checks by name only, and the page says so.
    /// `reading` reads a run's report (`serve` passes the reports it keeps).
    public static func loadWithOutputs(
        runs: [String], againstGolden: Bool, history: any RunRecords, golden: any GoldenStorage, layout: ProjectLayout,
        reading: ((RunRow) -> Result<RunReport, ReportUnavailable>)? = nil
    ) throws -> (comparison: RunComparison, outputs: ComparedOutputs) {
        let compared = try ComparedRuns(runs: runs, againstGolden: againstGolden, history: history, golden: golden)
        var notes: [String] = []
        func outputs(_ side: ComparedRuns.Side) -> [ComparedOutput] {
            if let entries = side.goldenEntries {
                return side.rows.map { row in entries[row.key].map { ComparedOutput(key: row.key, golden: $0) } ?? ComparedOutput(row) }
            }
            guard let run = side.run else { return side.rows.map(ComparedOutput.init) }
            let fromReport: [String: ComparedOutput]
            switch reading?(run) ?? readReport(of: run, layout: layout) {
            case .success(let report):
                fromReport = Dictionary(ComparedOutput.steps(of: report).map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
            case .failure(let problem):
                notes.append("\(run.id): \(problem); its checks are shown by name, without messages or outputs")
                fromReport = [:]
            }
            return side.rows.map { fromReport[$0.key] ?? ComparedOutput($0) }
        }
        let base = outputs(compared.base), head = outputs(compared.head)
        return (compared.comparison, ComparedOutputs(base: base, head: head, notes: notes))
    }

    /// Where a run's `results.json` is, or was: its report folder's.
    public static func reportFile(of run: RunRow, layout: ProjectLayout) -> URL {
        let folder = run.reportFolder.map { path in
            path.hasPrefix("/") ? URL(fileURLWithPath: path, isDirectory: true) : layout.root.appendingPathComponent(path, isDirectory: true)
        } ?? layout.reports.appendingPathComponent(run.id, isDirectory: true)
        return folder.appendingPathComponent("results.json")
    }

    /// A run's report as its `results.json` holds it, or why it cannot be read.
    public static func readReport(of run: RunRow, layout: ProjectLayout) -> Result<RunReport, ReportUnavailable> {
        let file = reportFile(of: run, layout: layout)
        guard let data = try? Data(contentsOf: file) else {
            return .failure(ReportUnavailable(description: "no report at \(layout.displayPath(of: file)) (only the newest report folders are kept)"))
        }
        do {
            let report = try ReportWriter.decode(data)
            guard report.run.id == run.id else {
                return .failure(ReportUnavailable(description: "\(layout.displayPath(of: file)) belongs to run \(report.run.id)"))
            }
            return .success(report)
        } catch {
            return .failure(ReportUnavailable(description: "\(layout.displayPath(of: file)) cannot be read: \(error)"))
        }
    }

    /// Why a run's report cannot be shown: its folder is gone, or holds another run's.
    public struct ReportUnavailable: Error, CustomStringConvertible {
        public var description: String
    }

    /// The approved golden outputs as rows, so a run can be compared with golden.
    public static func goldenRows(store: any GoldenStorage) throws -> [StepRow] {
        try goldenEntries(store: store).map(\.row)
    }

    /// The approved golden outputs, each with its row.
    static func goldenEntries(store: any GoldenStorage) throws -> [(row: StepRow, entry: GoldenEntry)] {
        try store.entries(pending: false).compactMap { key in
            guard let entry = try store.approved(key) else { return nil }
            // An approved unusable reply is a known failure: golden has no output there either.
            let usable = entry.isUsable
            let row = StepRow(
                runId: "golden", fixture: key.fixture, stepId: key.step, status: usable ? "matches" : "known-failure",
                outcome: usable ? "valid" : "invalid",
                failedChecks: entry.checks.filter { !$0.value }.map(\.key), passedChecks: entry.checks.filter(\.value).map(\.key),
                output: entry.output)
            return (row, entry)
        }
    }
}

/// The two sides `compare` names, resolved to their rows.
private struct ComparedRuns {
    struct Side {
        var name: String
        var rows: [StepRow]
        /// The run, when the side is one.
        var run: RunRow?
        /// The approved entries by `fixture/step`, when the side is golden.
        var goldenEntries: [String: GoldenEntry]?
    }

    var base: Side
    var head: Side

    var comparison: RunComparison {
        RunComparison(
            base: base.rows, head: head.rows, baseName: base.name, headName: head.name, baseRunID: base.run?.id, headRunID: head.run?.id)
    }

    init(runs: [String], againstGolden: Bool, history: any RunRecords, golden: any GoldenStorage) throws {
        if againstGolden {
            let headRun = try history.run(runs.first ?? "latest")
            let entries = try RunComparison.goldenEntries(store: golden)
            // A step with no model (confirm) has no golden file of its own. Golden cases the
            // run did not produce (other fixtures, steps it did not reach) are out of its
            // scope, not removed.
            let steps = try history.steps(ofRun: headRun.id).filter { StepID($0.stepId)?.callsModel != false }
            let produced = Set(steps.filter { $0.outcome != "skipped" }.map(\.key))
            base = Side(
                name: "golden", rows: entries.map(\.row).filter { produced.contains($0.key) },
                goldenEntries: Dictionary(entries.map { ($0.row.key, $0.entry) }, uniquingKeysWith: { first, _ in first }))
            head = Side(name: headRun.variantLabel, rows: steps, run: headRun)
            return
        }
        let headRun = try history.run(runs.count == 2 ? runs[1] : runs.first ?? "latest")
        let baseRun = runs.count == 2 ? try history.run(runs[0]) : try history.run(before: headRun.id)
        guard baseRun.id != headRun.id else {
            throw HistoryError(file: history.file, message: "`\(runs.joined(separator: "` and `"))` are the same run (\(headRun.id)); a run compared with itself shows nothing")
        }
        // Each side is named by what it ran; two runs of the same prompts are told apart by id.
        let sameLabel = baseRun.variantLabel == headRun.variantLabel
        base = Side(
            name: sameLabel ? "\(baseRun.variantLabel) \(baseRun.id)" : baseRun.variantLabel, rows: try history.steps(ofRun: baseRun.id),
            run: baseRun)
        head = Side(
            name: sameLabel ? "\(headRun.variantLabel) \(headRun.id)" : headRun.variantLabel, rows: try history.steps(ofRun: headRun.id),
            run: headRun)
    }
}

extension ComparedOutput {
    /// A step known only from its history row: its checks by name, no output.
    public init(_ row: StepRow) {
        let checks = row.failedCheckNames.sorted().map { Check(name: $0, passed: false) }
            + row.passedCheckNames.sorted().map { Check(name: $0, passed: true) }
        self.init(
            key: row.key, outcome: row.outcome, failure: row.failure, checks: checks,
            inputTokens: row.inputTokens, outputTokens: row.outputTokens, latencySeconds: row.latencySeconds)
    }
}
