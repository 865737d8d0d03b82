import Intake
import Checks
import Foundation
import Golden
import JSONSchema
import Pipeline
import Providers
import Reports
import Storage

/// A small run with every kind of step a report must show: goal options that
/// match golden, a program whose markdown changed (with hostile HTML in it), and
/// a provider error.
enum Samples {
    static let options: JSONValue = ["options": [
        ["id": "walk-8k", "summary": "Walk 8,000 steps a day by June", "detail": "Add 500 steps a week."],
        ["id": "push-ups-5", "summary": "Do 5 full push-ups in 10 weeks", "detail": "Start on the knees."],
        ["id": "move-3x", "summary": "Move 3 times a week for 8 weeks", "detail": "Short sessions."],
    ]]

    static let markdown = """
        # Keisha's plan <script>alert(1)</script>
        **Plan:** 8 weeks · 3 days a week

        ## Day 1: Full body (25 min)
        - **Goblet squat**: 3 × 10, rest 60 s.
        - **Knee push-up**: 3 × 8, rest 60 s. <img src=x onerror=alert(2)>

        | week | focus |
        |---|---|
        | 1-4 | learn the moves |
        | 5-8 | add a set |

        [safe](https://example.org/a) and [unsafe](javascript:alert(3))
        """

    static func program(markdown: String, minutes: Int) -> JSONValue {
        ["title": "Keisha's plan", "days_per_week": 3, "session_minutes": .number(Double(minutes)), "program_markdown": .string(markdown)]
    }

    static func attempt(_ text: String, latency: Double, input: Int, output: Int) -> Attempt {
        Attempt(responseText: text, finishReason: "stop", usage: TokenUsage(input: input, output: output), latency: latency, problems: [])
    }

    static func report(interrupted: Bool = false) -> RunReport {
        let (results, approved) = busyParent()
        return build(results, approved: approved, orphans: [StepKey(fixture: "retired-fixture", step: "goal-options")], interrupted: interrupted)
    }

    /// A known failure, a regressed program draft that was repaired, and a provider error.
    static func busyParent() -> ([FixtureResult], [StepKey: GoldenEntry]) {
        var goal = StepResult(id: .goalOptions, status: .valid, output: options,
                              attempts: [attempt("{}", latency: 2.5, input: 900, output: 120)], cost: 0.0012)
        goal.checks = [CheckResult(name: "options.count", passed: true, message: "3 options"),
                       CheckResult(name: "options.one-line-summaries", passed: false, message: "not one short line: \"a very long summary\"")]
        let newProgram = program(markdown: markdown, minutes: 25)
        var draft = StepResult(id: .programDraft, status: .valid, output: newProgram,
                               attempts: [attempt("{", latency: 9, input: 2000, output: 700), attempt("{}", latency: 8, input: 2300, output: 650)])
        draft.attempts[0].problems = ["/program_json: missing required property `sessions`"]
        draft.checks = [CheckResult(name: "program.session-length", passed: false, message: "sessions up to 40 min; the person has 25")]
        let edit = StepResult(id: .programEdit, status: .error, attempts: [],
                              failure: StepFailure(kind: .init("rate-limited"), message: "HTTP 429 after 3 retries", retries: 3))
        let results = [FixtureResult(fixture: "busy-parent", steps: [goal, draft, edit])]

        let goldenGoal = GoldenComparison.entry(for: goal)
        let goldenDraft = GoldenEntry(output: program(markdown: "# Keisha's plan\n\n## Day 1: Full body (30 min)\n- **Goblet squat**: 3 × 10, rest 60 s.\n", minutes: 30),
                                      checks: ["program.session-length": true])
        let approved: [StepKey: GoldenEntry] = [
            StepKey(fixture: "busy-parent", step: "goal-options"): goldenGoal,
            StepKey(fixture: "busy-parent", step: "program-draft"): goldenDraft,
        ]
        return (results, approved)
    }

    /// `report()` with a second fixture holding the other statuses a reviewer meets:
    /// a stale recording (its reason a multi-line prompt diff with a tag in it), a
    /// changed program, a new output, a known failure whose reply was never usable, and
    /// goal options failing a check added since they were approved.
    static func reportWithEveryStatus() -> RunReport {
        let (busyParentResults, busyParentApproved) = busyParent()
        let cutOff = Attempt(responseText: "{\"program_json\": {\"title\": \"Ana", finishReason: "length",
                             usage: TokenUsage(input: 1700, output: 1800), latency: 330,
                             problems: ["line 1, column 40 of the reply: the document is truncated",
                                        "the reply stopped at the token limit (max_tokens 1800) before the JSON was complete"])
        let unusable = StepResult(id: .goalOptions, status: .invalid, attempts: [cutOff, cutOff],
                                  failure: StepFailure(kind: .init("invalid-output"), message: "the reply stopped at the token limit (max_tokens 1800)"))
        let new = StepResult(id: .optionEdit(round: 1), status: .valid, output: options,
                             attempts: [attempt("{}", latency: 3, input: 800, output: 100)])
        let changed = StepResult(id: .programDraft, status: .valid,
                                 output: program(markdown: "# Ana's plan\n\n## Day 1: Walk (20 min)\n- **Brisk walk**: 20 min, easy pace.\n", minutes: 20),
                                 attempts: [attempt("{}", latency: 7, input: 1900, output: 600)])
        let stale = StepResult(id: .programEdit, status: .error, failure: StepFailure(
            kind: .provider(.staleRecording), message: staleHeadline + "\n" + promptDiff))
        // Goal options approved before two checks were added: one passes, one fails.
        var unapproved = StepResult(id: .goalOptions, status: .valid, output: options,
                                    attempts: [attempt("{}", latency: 2, input: 850, output: 110)])
        unapproved.checks = [CheckResult(name: "options.count", passed: true, message: "3 options")]
        let approvedUnapproved = GoldenComparison.entry(for: unapproved)
        unapproved.checks += [CheckResult(name: "options.distinct", passed: true, message: "3 distinct options"),
                              CheckResult(name: "options.measurable", passed: false, message: "no number in \"Short sessions.\"")]
        let results = busyParentResults + [FixtureResult(fixture: "night-shift-nurse", steps: [unusable, new, changed, stale]),
                                           FixtureResult(fixture: "retired-teacher", steps: [unapproved])]
        let approved = busyParentApproved.merging([
            StepKey(fixture: "retired-teacher", step: "goal-options"): approvedUnapproved,
            StepKey(fixture: "night-shift-nurse", step: "goal-options"): GoldenComparison.entry(for: unusable),
            StepKey(fixture: "night-shift-nurse", step: "program-draft"): GoldenEntry(
                output: program(markdown: "# Ana's plan\n\n## Day 1: Walk (30 min)\n- **Brisk walk**: 30 min, easy pace.\n", minutes: 20), checks: [:]),
        ]) { first, _ in first }
        return build(results, approved: approved, orphans: [StepKey(fixture: "retired-fixture", step: "goal-options")])
    }

    /// How a stale recording's reason starts, and the prompt diff under it (with a tag in it).
    static let staleHeadline = "the request differs from golden/night-shift-nurse/program-edit.cassette.json: changed: prompt template (prompts/program-edit/user.mustache)"
    static let promptDiff = """
        --- recorded messages
        +++ current messages
        @@ -1,3 +1,3 @@
        -Their current program:
        +Their program today:
         <current_program>
        """

    /// A replay whose every step matches golden: the gate passes.
    static func passingReport() -> RunReport {
        var goal = StepResult(id: .goalOptions, status: .valid, output: options,
                              attempts: [attempt("{}", latency: 2.5, input: 900, output: 120)])
        goal.checks = [CheckResult(name: "options.count", passed: true, message: "3 options")]
        let approved = [StepKey(fixture: "busy-parent", step: "goal-options"): GoldenComparison.entry(for: goal)]
        return build([FixtureResult(fixture: "busy-parent", steps: [goal])], approved: approved, orphans: [])
    }

    /// `passingReport()` run three times: its check failed in one repeat, so the
    /// pass rate falls short of the one asked for and the gate fails on stability alone.
    static func reportWithRepeats() -> RunReport {
        func goal(countPasses: Bool) -> StepResult {
            var goal = StepResult(id: .goalOptions, status: .valid, output: options,
                                  attempts: [attempt("{}", latency: 2.5, input: 900, output: 120)])
            goal.checks = [CheckResult(name: "options.count", passed: countPasses, message: countPasses ? "3 options" : "2 options")]
            return goal
        }
        let runs = [true, false, true].map { [FixtureResult(fixture: "busy-parent", steps: [goal(countPasses: $0)])] }
        let approved = [StepKey(fixture: "busy-parent", step: "goal-options"): GoldenComparison.entry(for: goal(countPasses: true))]
        return build(runs[0], approved: approved, orphans: [], repeats: runs, gate: .init(requiredRates: ["goal-options": 0.8]))
    }

    /// The report of `results` judged against `approved`, as a replay run; with `repeats`
    /// (every repeat's results, `results` first) judged against `gate`.
    static func build(_ results: [FixtureResult], approved: [StepKey: GoldenEntry], orphans: [StepKey], interrupted: Bool = false,
                      repeats: [[FixtureResult]] = [], gate: RepeatStatistics.PassRateGate = .init()) -> RunReport {
        let verdicts = results.flatMap { fixture in
            fixture.steps.map { step in
                GoldenComparison.verdict(for: step, fixture: fixture.fixture, approved: approved[StepKey(fixture: fixture.fixture, id: step.id)])
            }
        }
        let golden = GoldenReport(verdicts: verdicts, orphans: orphans.map { GoldenOrphan(key: $0, files: ["\($0.step).json"]) }, approved: approved)
        let run = RunReport.RunInfo(
            id: "20261121-120000-replay", startedAt: Date(timeIntervalSince1970: 1_795_000_000), durationSeconds: 19.5,
            provider: "replay", model: "qwen2.5-coder-1.5b-instruct-q4_k_m", commit: "0123456789ab",
            prompts: ["goal-options": .init(version: 2, fingerprint: "00112233445566aa", system: "You are the goal-setting coach.")], ci: true, interrupted: interrupted,
            warnings: ["gemini cannot enforce `pattern` in goal-options.schema.json"])
        return RunReport(run: run, fixtures: [], repeats: repeats.isEmpty ? [results] : repeats, golden: golden, gate: gate)
    }
}
