import Intake
@testable import Golden
import Testing

/// What a replay says when recordings no longer match: grouped by cause, each diff once,
/// and JSON in a prompt spread over lines so a changed member shows as itself.
struct StaleRecordingsTests {
    static func stale(_ fixture: String, causes: [String], diff: String) -> StepVerdict {
        var verdict = StepVerdict(key: StepKey(fixture: fixture, step: "goal-options"), status: .stale, reasons: ["stale-recording: …"])
        verdict.staleCauses = causes
        verdict.requestDiff = diff
        return verdict
    }

    @Test func stepsOneEditMadeStaleFormOneGroupWithTheirDiffOnce() {
        let template = ["prompt template (prompts/goal-options/user.mustache)"]
        let report = GoldenReport(verdicts: [
            Self.stale("ana", causes: template, diff: "@@ -1 +1 @@\n-Write 3 options\n+Write three options\n context for ana"),
            Self.stale("ben", causes: template, diff: "@@ -1 +1 @@\n-Write 3 options\n+Write three options\n context for ben"),
            Self.stale("cy", causes: ["fixture record (fixtures/cy.json)"], diff: "@@ -4 +4 @@\n-age 30\n+age 31"),
            StepVerdict(key: StepKey(fixture: "ana", step: "program-draft"), status: .skipped, reasons: ["no confirmed goal"]),
            StepVerdict(key: StepKey(fixture: "dee", step: "program-draft"), status: .skipped, reasons: ["not selected"]),
        ], orphans: [])
        let stale = StaleRecordings(report)
        #expect(stale.count == 3)
        #expect(stale.groups.map(\.causes) == [template, ["fixture record (fixtures/cy.json)"]])
        #expect(stale.groups[0].steps.map(\.fixture) == ["ana", "ben"])
        #expect(stale.groups[0].diffs.count == 1, "the same changed lines in other context are one diff")
        #expect(stale.groups[0].diffs[0].steps.count == 2)
        #expect(stale.skippedAfter == 1, "only steps after a stale one count")
    }
}
