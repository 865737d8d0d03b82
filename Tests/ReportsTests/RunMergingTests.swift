import Foundation
import Intake
import Pipeline
import Testing

@testable import Reports

/// Shard reports joined by `merge`: the repeat statistics and the gate are
/// recomputed over every shard's repeats, as one whole run would have them.
@Suite("Merging shard reports")
struct RunMergingTests {
    static let outcomes: [String: [Bool?]] = ["a": [true, true, false], "b": [true, false, false], "c": [false, nil, false]]

    /// The three cases of `RepeatStatisticsTests.threeCases`, only `fixtures` of them.
    static func report(_ fixtures: [String], gate: RepeatStatistics.PassRateGate) -> RunReport {
        let runs = (0..<3).map { index in
            fixtures.map { FixtureResult(fixture: $0, steps: [RepeatStatisticsTests.goalOptions(outcomes[$0]![index])]) }
        }
        return Samples.build(runs[0], approved: [:], orphans: [], repeats: runs, gate: gate)
    }

    @Test func mergedShardsHaveTheWholeRunsRepeatStatisticsAndGate() throws {
        let gate = RepeatStatistics.PassRateGate(requiredRates: ["goal-options": 0.35], basis: .lowerBound)
        let whole = Self.report(["a", "b", "c"], gate: gate)
        let shards = [Self.report(["a", "c"], gate: gate), Self.report(["b"], gate: gate)]
        #expect(RunReport.mismatches(among: shards).isEmpty)
        let merged = RunReport.merging(shards, id: "20261121-130000-replay-merged")
        #expect(merged.fixtures.map(\.name) == ["a", "b", "c"])
        #expect(merged.repeats == whole.repeats)
        #expect(merged.repeats?.meetsRequirements == false, "3 of 8 runs: the lower bound misses 35%")
        #expect(merged.totals.passesGate == whole.totals.passesGate)
        #expect(merged.totals.passesGate == false)
        // Each shard alone would judge a different rate: only the merge sees the whole.
        #expect(shards[1].repeats?.steps.first?.passes == 1)
    }

    @Test func shardsJudgedByDifferentPassRatesAreNotOneRun() throws {
        let strict = Self.report(["a"], gate: .init(requiredRates: ["goal-options": 0.35], basis: .lowerBound))
        let lenient = Self.report(["b"], gate: .init(requiredRates: ["goal-options": 0.35]))
        let problems = RunReport.mismatches(among: [strict, lenient])
        #expect(problems.contains { $0.hasPrefix("different pass-rate requirements: ") }, "\(problems)")
    }
}
