import Foundation
import Golden
import Intake
import JSONSchema
import Pipeline
import Storage

extension RunReport {
    /// Joins a run's step results with their golden verdicts.
    public init(run: RunInfo, fixtures: [Fixture], results: [FixtureResult], golden: GoldenReport) {
        self.init(run: run, fixtures: fixtures, repeats: [results], golden: golden)
    }

    /// Joins a run's step results with their golden verdicts; `repeats[r]` holds repeat
    /// r + 1's results. The first repeat is the one compared with golden. With more than
    /// one repeat, every model step keeps a record of each repeat, and the run's
    /// stability is computed from those records and judged against `gate`.
    /// `settled` holds the reports of fixtures read back whole, by name, used as they are.
    public init(
        run: RunInfo, fixtures: [Fixture], repeats: [[FixtureResult]], golden: GoldenReport,
        gate: RepeatStatistics.PassRateGate = RepeatStatistics.PassRateGate(), settled: [String: FixtureReport] = [:]
    ) {
        let verdicts = Dictionary(golden.verdicts.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let intakes = Dictionary(fixtures.map { ($0.name, $0.recordJSON) }, uniquingKeysWith: { first, _ in first })
        let records = repeats.count > 1 ? Self.repeatRecords(repeats) : [:]
        // Fixtures are joined on every core: a large run has thousands.
        let reports = (repeats.first ?? []).concurrentMap { fixture in
            if let report = settled[fixture.fixture] { return report }
            var report = FixtureReport(fixture, intake: intakes[fixture.fixture] ?? .null) { key in (verdicts[key], golden.approved[key] ?? nil) }
            if !records.isEmpty {
                for (index, result) in fixture.steps.enumerated() where result.step != nil {
                    report.steps[index].repeats = records[StepKey(fixture: fixture.fixture, id: result.id)]
                }
            }
            return report
        }
        var totals = RunTotals()
        for fixture in reports {
            for step in fixture.steps { totals.add(step) }
        }
        let statistics = repeats.count > 1 ? RepeatStatistics(fixtures: reports, gate: gate) : nil
        totals.orphans = golden.orphans.count
        // Each model step's status is its verdict's, so the report's steps carry the comparison with golden.
        totals.passesGate = RunReport.passes(reports, orphans: golden.orphans.count, repeats: statistics, mode: .ci)
        self.init(run: run, totals: totals, fixtures: reports, orphans: golden.orphans.map(\.description), repeats: statistics)
    }

    /// Each fixture step's record of every repeat, in repeat order.
    private static func repeatRecords(_ repeats: [[FixtureResult]]) -> [StepKey: [RepeatRecord]] {
        var records: [StepKey: [RepeatRecord]] = [:]
        for (offset, results) in repeats.enumerated() {
            for fixture in results {
                for result in fixture.steps where result.step != nil {
                    records[StepKey(fixture: fixture.fixture, id: result.id), default: []].append(RepeatRecord(result, repeatNumber: offset + 1))
                }
            }
        }
        return records
    }

    /// Model steps with a given status, in fixture order.
    public func steps(withStatus status: StepVerdict.Status) -> [(fixture: FixtureReport, step: StepReport)] {
        fixtures.flatMap { fixture in fixture.steps.filter { $0.status == status }.map { (fixture, $0) } }
    }

    public func count(_ status: StepVerdict.Status) -> Int {
        totals.statuses[status.rawValue] ?? 0
    }
}

extension FixtureReport {
    /// A fixture's step results joined with each step's verdict and the golden entry it
    /// was judged against, as `judgement` gives them.
    public init(_ result: FixtureResult, intake: JSONValue, judgement: (StepKey) -> (verdict: StepVerdict?, approved: GoldenEntry?)) {
        let steps = result.steps.map { step in
            let judged = judgement(StepKey(fixture: result.fixture, id: step.id))
            return StepReport(step, verdict: judged.verdict, approved: judged.approved)
        }
        self.init(name: result.fixture, intake: intake, steps: steps)
    }
}

extension StepReport {
    /// A step's result joined with its verdict and the golden entry it was judged against.
    public init(_ result: StepResult, verdict: StepVerdict?, approved: GoldenEntry?) {
        id = result.id.description
        step = result.step
        outcome = result.status
        if let verdict {
            status = verdict.status
            reasons = verdict.reasons
            // A stale recording's request diff belongs under its one-line reason.
            if let requestDiff = verdict.requestDiff, !reasons.isEmpty { reasons[0] += "\n" + requestDiff }
            diff = verdict.outputDiff == nil && verdict.markdownDiff == nil
                ? nil : DiffReport(output: verdict.outputDiff, markdown: verdict.markdownDiff)
        } else {
            // The deterministic confirm step has no golden file of its own: its
            // choice shows up in the program steps that follow it.
            switch result.status {
            case .valid: status = .matches
            case .skipped: status = .skipped
            case .invalid, .error: status = .regression
            }
            reasons = [result.failure?.message, result.note].compactMap { $0 }
            diff = nil
        }
        failure = result.failure
        note = result.note
        attempts = result.attempts.map {
            AttemptReport(
                latencySeconds: $0.latency, finishReason: $0.finishReason, inputTokens: $0.usage.input,
                outputTokens: $0.usage.output, retries: $0.retries, problems: $0.problems,
                responseText: $0.problems.isEmpty ? nil : $0.responseText)
        }
        firstPassValid = result.firstPassValid
        repaired = result.repaired
        latencySeconds = result.latency
        inputTokens = result.usage.input
        outputTokens = result.usage.output
        cost = result.cost
        checks = result.checks.map {
            CheckReport(name: $0.name, passed: $0.passed, message: $0.message, passedInGolden: approved?.checks[$0.name])
        }
        output = result.output
        golden = approved?.output == result.output ? nil : approved?.output
        prompt = result.prompt.map { PromptReport(user: $0.user) }
        interventions = result.interventions.isEmpty ? nil : result.interventions
    }

    /// Whether the CI gate passes this step.
    public var passesGate: Bool { status.passesGate }

    /// The program markdown of the output, for program steps.
    public var markdown: String? { output?[GoldenStore.markdownKey]?.stringValue }
    /// The program markdown of the approved output, when the output differs from it.
    public var goldenMarkdown: String? { golden?[GoldenStore.markdownKey]?.stringValue }
}

extension RunReport {
    /// What the checks made of each model step's output, by key, for `Agreement`: the
    /// checks that failed, and whether the output is the approved one (only then can a
    /// label of the approved output judge it).
    public var judgedOutputs: [StepKey: Agreement.Judged] {
        var judged: [StepKey: Agreement.Judged] = [:]
        for fixture in fixtures {
            for step in fixture.steps {
                guard let kind = step.step?.traits.output else { continue }
                let key = StepKey(fixture: fixture.name, step: step.id)
                var failed = step.checks.filter { !$0.passed }.map(\.name)
                if step.outcome == .invalid, !failed.contains(GoldenEntry.usableOutputCheck) { failed.append(GoldenEntry.usableOutputCheck) }
                let unchanged: Bool
                switch step.status {
                case .matches, .knownFailure, .unapprovedCheck: unchanged = true
                case .regression: unchanged = step.outcome == .valid && step.diff == nil
                case .changed, .new, .stale, .error, .skipped: unchanged = false
                }
                judged[key] = Agreement.Judged(
                    key: key, kind: kind == .program ? "program" : "options", failedChecks: failed, isApprovedOutput: unchanged)
            }
        }
        return judged
    }
}
