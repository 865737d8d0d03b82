import Golden
import Intake
import Reports

extension RunComparison {
    /// The comparison `compare` shows: `[A, B]` is B against A; `[B]` is B against the
    /// run before it; `[]` is the latest run against the one before. With `againstGolden`,
    /// the one named run (default `latest`) against the approved outputs of the steps it produced.
    public static func load(runs: [String], againstGolden: Bool, history: any RunRecords, golden: any GoldenStorage) throws -> RunComparison {
        if againstGolden {
            let head = try history.run(runs.first ?? "latest")
            let rows = try goldenRows(store: golden)
            // Confirm is deterministic and has no golden file of its own. Golden cases the
            // run did not produce (other fixtures, steps it did not reach) are out of its
            // scope, not removed.
            let steps = try history.steps(ofRun: head.id).filter { $0.stepId != StepID.confirm.description }
            let produced = Set(steps.filter { $0.outcome != "skipped" }.map(\.key))
            return RunComparison(base: rows.filter { produced.contains($0.key) }, head: steps, baseName: "golden", headName: head.id)
        }
        let head = try history.run(runs.count == 2 ? runs[1] : runs.first ?? "latest")
        let base = runs.count == 2 ? try history.run(runs[0]) : try history.run(before: head.id)
        guard base.id != head.id else {
            throw HistoryError(file: history.file, message: "`\(runs.joined(separator: "` and `"))` are the same run (\(head.id)); a run compared with itself shows nothing")
        }
        return RunComparison(
            base: try history.steps(ofRun: base.id), head: try history.steps(ofRun: head.id), baseName: base.id, headName: head.id)
    }

    /// The approved golden outputs as rows, so a run can be compared with golden.
    public static func goldenRows(store: any GoldenStorage) throws -> [StepRow] {
        try store.entries(pending: false).compactMap { key in
            guard let entry = try store.approved(fixture: key.fixture, step: key.step) else { return nil }
            // An approved unusable reply is a known failure: golden has no output there either.
            let usable = entry.checks[GoldenComparison.usableOutputCheck] != false
            return StepRow(
                runId: "golden", fixture: key.fixture, stepId: key.step, status: usable ? "matches" : "known-failure",
                outcome: usable ? "valid" : "invalid",
                failedChecks: entry.checks.filter { !$0.value }.map(\.key), passedChecks: entry.checks.filter(\.value).map(\.key),
                output: entry.output)
        }
    }
}
