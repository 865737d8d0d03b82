import Checks
import Console
import Foundation
import Golden
import Intake
import JSONSchema
import Pipeline
import Providers
import Reports
import Testing

/// The summary table `run` prints: one row per step kind in pipeline order, the whole run as its footer.
struct SummaryTableTests {
    static func attempt(valid: Bool, latency: Double, input: Int, output: Int) -> Attempt {
        Attempt(
            responseText: "{}", finishReason: "stop", usage: TokenUsage(input: input, output: output), latency: latency,
            problems: valid ? [] : ["options: expected at least 3 items"])
    }

    static func report(_ steps: [StepResult]) -> RunReport {
        let run = RunReport.RunInfo(
            id: "20261125-120000-replay", startedAt: Date(timeIntervalSince1970: 1_795_000_000), durationSeconds: 3,
            provider: "replay", model: "recorded", commit: nil, prompts: [:], ci: false, interrupted: false, warnings: [])
        return RunReport(run: run, fixtures: [], results: [FixtureResult(fixture: "ana", steps: steps)], golden: GoldenReport(verdicts: [], orphans: []))
    }

    @Test func eachStepKindIsCountedOnceAndTheRunAddsThemUp() {
        var options = StepResult(id: .goalOptions, status: .valid, output: ["options": []], attempts: [Self.attempt(valid: true, latency: 2, input: 1000, output: 200)], cost: 0.00072)
        options.checks = [CheckResult(name: "options.count", passed: true, message: ""), CheckResult(name: "options.distinct", passed: false, message: "twins")]
        let repaired = StepResult(
            id: .optionEdit(round: 1), status: .valid, output: ["options": []],
            attempts: [Self.attempt(valid: false, latency: 3, input: 1200, output: 250), Self.attempt(valid: true, latency: 1, input: 1500, output: 240)],
            cost: 0.0015)
        let invalid = StepResult(
            id: .optionEdit(round: 2), status: .invalid, attempts: [Self.attempt(valid: false, latency: 4, input: 1300, output: 300)],
            failure: StepFailure(kind: .invalidOutput, message: "options: expected at least 3 items"))
        let report = Self.report([
            options, repaired, invalid,
            StepResult(id: .confirm, status: .skipped, note: "no valid goal options to choose from"),
            StepResult(id: .programDraft, status: .skipped, note: "no confirmed goal"),
            StepResult(id: .programEdit, status: .skipped, note: "no valid program draft to edit"),
        ])
        let totals = report.totals
        #expect(totals.rows.map(\.step) == ["goal-options", "goal-options-edit", "confirm", "program-draft", "program-edit"])
        #expect(!totals.allValid)
        #expect(totals.steps == 3 && totals.calls == 4 && totals.firstPassValid == 1 && totals.repaired == 1)
        #expect(totals.table(recorded: true) == """
            step               runs  1st-pass  repaired  invalid  errors  skipped  checks ok  failed  recorded tokens in  recorded tokens out  recorded mean s  cost $
            goal-options          1         1         0        0       0        0          1       1                1000                  200              2.0  0.0007
            goal-options-edit     2         0         1        1       0        0          0       0                4000                  790              4.0  0.0015
            confirm               1         0         0        0       0        1          0       0                   0                    0              0.0       -
            program-draft         1         0         0        0       0        1          0       0                   0                    0              0.0       -
            program-edit          1         0         0        0       0        1          0       0                   0                    0              0.0       -
            \(String(repeating: "-", count: 154))
            total                 6         1         1        1       0        3          1       1                5000                  990              3.3  0.0022
            """)
    }
}
