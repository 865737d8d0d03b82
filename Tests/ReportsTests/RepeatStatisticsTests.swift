import Checks
import Foundation
import Golden
import Intake
import JSONSchema
import Pipeline
import Providers
import Testing

@testable import Reports

/// Stability over repeats, from the repeat records a report keeps. The figures are
/// pinned to values worked out by hand and checked with SciPy
/// (`binomtest(k, n).proportion_ci(method="wilson")`, `wilcoxon`), not to this code.
@Suite("Repeat statistics")
struct RepeatStatisticsTests {
    /// A goal-options step whose `options.distinct` passes or fails; nil is a repeat
    /// whose recording was missing (stale), which says nothing about the prompt.
    static func goalOptions(_ passes: Bool?) -> StepResult {
        guard let passes else {
            return StepResult(
                id: .goalOptions, status: .error,
                failure: StepFailure(kind: .provider(.missingRecording), message: "no recording of repeat 2"))
        }
        var step = StepResult(id: .goalOptions, status: .valid, output: Samples.options,
                              attempts: [Samples.attempt("{}", latency: 2, input: 100, output: 10)])
        step.checks = [CheckResult(name: "options.count", passed: true, message: ""),
                       CheckResult(name: "options.distinct", passed: passes, message: passes ? "" : "two alike")]
        return step
    }

    /// Three cases over three repeats: `a` passes 2 of 3, `b` 1 of 3, `c` 0 of 2 (its
    /// second repeat's recording is missing).
    static func threeCases(gate: RepeatStatistics.PassRateGate = .init()) -> RunReport {
        let outcomes: [String: [Bool?]] = ["a": [true, true, false], "b": [true, false, false], "c": [false, nil, false]]
        let runs = (0..<3).map { index in
            ["a", "b", "c"].map { FixtureResult(fixture: $0, steps: [goalOptions(outcomes[$0]![index])]) }
        }
        return Samples.build(runs[0], approved: [:], orphans: [], repeats: runs, gate: gate)
    }

    @Test func passRateHasItsWilsonIntervalAndCasesTheirPassAtKAndPassAllK() throws {
        let step = try #require(Self.threeCases().repeats?.steps.first)
        // 3 passes in 8 counted runs (the missing recording is not a failure).
        #expect((step.runs, step.passes, step.cases) == (8, 3, 3))
        #expect(abs(step.passRateInterval.lower - 0.13684428582359737) < 1e-12)
        #expect(abs(step.passRateInterval.upper - 0.6942576053973728) < 1e-12)
        // Repeat 1: 2 of 3 pass; repeat 2: 1 of 2; repeat 3: 0 of 3.
        #expect(abs(step.passRate.mean - 7.0 / 18.0) < 1e-12 && step.passRate.min == 0 && abs(step.passRate.max - 2.0 / 3.0) < 1e-12)
        // k = 2, the fewest counted repeats of a case. pass@2 per case: a 1, b 1 − C(2,2)/C(3,2) = 2/3, c 0;
        // pass^2: a C(2,2)/C(3,2) = 1/3, b 0, c 0.
        let rates = try #require(step.caseRates)
        #expect(rates.k == 2)
        #expect(abs(rates.passAtK - 5.0 / 9.0) < 1e-12)
        #expect(abs(rates.passAllK - 1.0 / 9.0) < 1e-12)

        let distinct = try #require(step.checks.first { $0.check == "options.distinct" })
        #expect((distinct.runs, distinct.passes, distinct.cases, distinct.flakyCases) == (8, 3, 3, 2))
        #expect(abs(distinct.passRateInterval.lower - 0.13684428582359737) < 1e-12)
        let count = try #require(step.checks.first { $0.check == "options.count" })
        #expect((count.runs, count.passes, count.flakyCases) == (8, 8, 0))
        #expect(count.caseRates == RepeatStatistics.CaseRates(k: 2, passAtK: 1, passAllK: 1))
    }

    @Test func theLowerBoundGateFailsARateTheMeanPasses() throws {
        let mean = try #require(Self.threeCases(gate: .init(requiredRates: ["goal-options": 0.35])).repeats)
        #expect(mean.meetsRequirements, "the mean, 7/18 ≈ 0.389, reaches 0.35")
        let lower = try #require(Self.threeCases(gate: .init(requiredRates: ["goal-options": 0.35], basis: .lowerBound)).repeats)
        #expect(!lower.meetsRequirements)
        #expect(lower.steps[0].gateOn == .lowerBound)
        #expect(lower.shortfalls == ["goal-options: pass rate lower bound 14% (Wilson 95%, 3 of 8 runs passed) < required 35%"])
        #expect(lower.tableRows[0].last == "35% (lower bound) ✗")
        #expect(Self.threeCases(gate: .init(requiredRates: ["*": 0.35], basis: .lowerBound)).totals.passesGate == false)
    }

    @Test func aShortfallSaysWhenTooFewRunsCouldNeverReachTheRate() {
        // All of n runs passing gives a lower bound of n / (n + z²): 15 runs reach 79.6%, 16 reach 80.6%.
        #expect(RepeatStatistics.runsNeeded(toReach: 0.8) == 16)
        #expect(RepeatStatistics.runsNeeded(toReach: 0.5) == 4)
        let report = Self.threeCases(gate: .init(requiredRates: ["goal-options": 0.8], basis: .lowerBound))
        #expect(report.repeats?.shortfalls.first?.hasSuffix("; even with every run passing, it takes at least 16 runs to reach 80%") == true)
    }

    @Test func everyRepeatIsInResultsJSONAndTheStatisticsComeBackFromItAlone() throws {
        let report = Self.threeCases(gate: .init(requiredRates: ["goal-options": 0.35], basis: .lowerBound))
        let data = try ReportWriter.encode(report)
        let json = try JSONParser.parse(data)
        let records = try #require(json["fixtures"]?[2]?["steps"]?[0]?["repeats"]?.arrayValue)
        #expect(records.count == 3)
        #expect(records[1]["repeat"] == 2 && records[1]["failure"] == "missing-recording" && records[1]["outcome"] == "error")
        #expect(records[2]["failedChecks"] == ["options.distinct"] && records[2]["checks"] == ["options.count", "options.distinct"])
        #expect(records[0]["inputTokens"] == 100 && records[0]["outputTokens"] == 10 && records[0]["latencySeconds"] == 2)

        // A tool holding only results.json (a shard, or one side of a comparison) recomputes the same figures.
        let decoded = try ReportWriter.decode(data)
        let recomputed = RepeatStatistics(fixtures: decoded.fixtures, gate: .init(requiredRates: ["goal-options": 0.35], basis: .lowerBound))
        #expect(recomputed == report.repeats)
        #expect(decoded.repeats == report.repeats)

        let schemaURL = ReportFilesTests.repositoryRoot.appendingPathComponent("Reports/schema/results.schema.json")
        let schema = try Schema(JSONParser.parse(Data(contentsOf: schemaURL)), baseURI: schemaURL.absoluteString)
        let result = schema.validate(json)
        #expect(result.isValid, "\(result.errors.map { "\($0)" }.joined(separator: "\n"))")
    }

    @Test func aSingleRunKeepsResultsJSONFreeOfRepeatRecords() throws {
        let text = String(decoding: try ReportWriter.encode(Samples.passingReport()), as: UTF8.self)
        #expect(!text.contains("\"repeats\""))
    }
}
