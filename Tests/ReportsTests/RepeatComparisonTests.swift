import Foundation
import JSONSchema
import Pipeline
import Testing

@testable import Reports

/// `compare` with repeats in both runs: each case's share of passing repeats, paired.
@Suite("Repeat comparison")
struct RepeatComparisonTests {
    typealias Step = PairedVerdictTests.Step

    /// A case whose repeats pass as given, numbered from 1.
    static func step(_ index: Int, passing: [Bool]) -> Step {
        let records = passing.enumerated().map { offset, passed in
            RepeatRecord(
                repeatNumber: offset + 1, outcome: .valid, firstPassValid: true, checks: ["options.distinct"],
                failedChecks: passed ? [] : ["options.distinct"])
        }
        return Step(key: "fixture-\(index)/goal-options", repeats: records)
    }

    @Test func sevenCasesEachPassingOneMoreRepeatOfFourAreBetter() throws {
        // Every case goes from 2 of 4 to 3 of 4: seven differences of +0.25, all tied.
        // SciPy: wilcoxon([0.25] * 7) gives statistic 0, p = 2/128 = 0.015625.
        let base = (0..<7).map { Self.step($0, passing: [true, true, false, false]) }
        let head = (0..<7).map { Self.step($0, passing: [true, true, true, false]) }
        let comparison = RunComparison(base: base, head: head, baseName: "A", headName: "B")
        let repeats = try #require(comparison.repeats)
        #expect((repeats.repeats, repeats.cases, repeats.aBetter, repeats.bBetter) == (4, 7, 0, 7))
        #expect(repeats.aMeanPassRate == 0.5 && repeats.bMeanPassRate == 0.75)
        #expect(repeats.statistic == 0 && abs(repeats.pValue - 0.015625) < 1e-12)
        #expect(repeats.verdict == .better)

        let json = ComparisonReport.json(comparison)
        #expect(json["repeats"]?["p_value"] == .number(0.015625))
        #expect(json["repeats"]?["cases"] == 7 && json["repeats"]?["repeats"] == 4)
        #expect(json["repeats"]?["a_mean_pass_rate"] == 0.5 && json["repeats"]?["b_mean_pass_rate"] == 0.75)
        #expect(json["verdict"] != nil && json["pairs"] == 7, "every earlier field stays")
        #expect(ComparisonReport.repeatsLine(comparison)
            == "repeats: 4 per case · 7 cases · A passes 50% of repeats · B 75% · B better in 7, A in 0 · W = 0, p = 0.016 (Wilcoxon signed-rank): better")
    }

    @Test func repeatsArePairedByNumberAndOneSideWithoutRepeatsHasNoComparison() throws {
        // Five cases better by a quarter and one worse by a quarter: SciPy gives statistic 3.5, p = 0.21875.
        // The head ran a fifth repeat the base did not: it is left out of the pairing.
        let base = (0..<6).map { Self.step($0, passing: $0 == 5 ? [true, true, true, false] : [true, false, false, false]) }
        let head = (0..<6).map { Self.step($0, passing: $0 == 5 ? [true, true, false, false, true] : [true, true, false, false, false]) }
        let repeats = try #require(RunComparison(base: base, head: head, baseName: "A", headName: "B").repeats)
        #expect(repeats.repeats == 4)
        #expect(repeats.statistic == 3.5 && abs(repeats.pValue - 0.21875) < 1e-12)
        #expect(repeats.verdict == .noDifference)

        var single = base
        for index in single.indices { single[index].repeats = nil }
        let comparison = RunComparison(base: single, head: head, baseName: "A", headName: "B")
        #expect(comparison.repeats == nil)
        #expect(ComparisonReport.json(comparison)["repeats"] == .null)
        #expect(ComparisonReport.repeatsLine(comparison) == nil)
    }
}
