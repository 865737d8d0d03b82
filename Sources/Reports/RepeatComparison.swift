import Foundation
import JSONSchema
import Statistics

/// Two runs with repeats compared case by case: each case's share of passing
/// repeats in A against B, paired by fixture and step, and within a case by repeat
/// (only the repeats both runs counted). A Wilcoxon signed-rank test on the paired
/// rates says whether B's cases pass more often than A's. A repeat pairs only when
/// both runs produced it (`RepeatRecord.wasProduced`).
public struct RepeatComparison: Sendable, Hashable {
    /// The most repeats paired in one case (normally the smaller run's N).
    public let repeats: Int
    /// Cases with at least one repeat counted on both sides.
    public let cases: Int
    public let aMeanPassRate: Double
    public let bMeanPassRate: Double
    /// Cases whose pass rate is higher in A, and in B.
    public let aBetter: Int
    public let bBetter: Int
    /// min(R+, R−) of the signed-rank test.
    public let statistic: Double
    public let pValue: Double
    public let verdict: PairedVerdict.Verdict

    /// Nil unless some case has repeats on both sides.
    public init?<Step: ComparedStep>(pairs: [(a: Step, b: Step)]) {
        var aRates: [Double] = [], bRates: [Double] = []
        var paired = 0
        for pair in pairs {
            guard let a = pair.a.repeats, let b = pair.b.repeats else { continue }
            let aByRepeat = Dictionary(a.filter(\.wasProduced).map { ($0.repeatNumber, $0.passed) }, uniquingKeysWith: { first, _ in first })
            let bByRepeat = Dictionary(b.filter(\.wasProduced).map { ($0.repeatNumber, $0.passed) }, uniquingKeysWith: { first, _ in first })
            let shared = Set(aByRepeat.keys).intersection(bByRepeat.keys)
            guard !shared.isEmpty else { continue }
            paired = max(paired, shared.count)
            aRates.append(Double(shared.filter { aByRepeat[$0]! }.count) / Double(shared.count))
            bRates.append(Double(shared.filter { bByRepeat[$0]! }.count) / Double(shared.count))
        }
        guard !aRates.isEmpty, let test = try? WilcoxonSignedRankTest(a: aRates, b: bRates) else { return nil }
        repeats = paired
        cases = aRates.count
        aMeanPassRate = aRates.reduce(0, +) / Double(aRates.count)
        bMeanPassRate = bRates.reduce(0, +) / Double(bRates.count)
        aBetter = zip(aRates, bRates).filter { $0 > $1 }.count
        bBetter = zip(aRates, bRates).filter { $0 < $1 }.count
        statistic = test.statistic
        pValue = test.pValue
        verdict = pValue >= PairedVerdict.significance ? .noDifference : bMeanPassRate > aMeanPassRate ? .better : .worse
    }
}

extension ComparisonReport {
    /// `repeats: 5 per case · 28 cases · A passes 71% of repeats · B 80% · B better in 9 cases, A in 3 · p = 0.031 (Wilcoxon signed-rank): better`;
    /// nil without repeats on both sides.
    public static func repeatsLine(_ comparison: RunComparison) -> String? {
        guard let repeats = comparison.repeats else { return nil }
        return "repeats: \(repeats.repeats) per case · \(repeats.cases) case\(repeats.cases == 1 ? "" : "s")"
            + " · \(comparison.baseName) passes \(percent(repeats.aMeanPassRate)) of repeats · \(comparison.headName) \(percent(repeats.bMeanPassRate))"
            + " · \(comparison.headName) better in \(repeats.bBetter), \(comparison.baseName) in \(repeats.aBetter)"
            + " · W = \(String(format: "%g", repeats.statistic)), p = \(format(repeats.pValue)) (Wilcoxon signed-rank): \(repeats.verdict.rawValue)"
    }

    /// The `repeats` member of `compare --format json`.
    static func repeatsJSON(_ repeats: RepeatComparison) -> JSONValue {
        [
            "repeats": .number(Double(repeats.repeats)), "cases": .number(Double(repeats.cases)),
            "a_mean_pass_rate": .number(repeats.aMeanPassRate), "b_mean_pass_rate": .number(repeats.bMeanPassRate),
            "a_better": .number(Double(repeats.aBetter)), "b_better": .number(Double(repeats.bBetter)),
            "statistic": .number(repeats.statistic), "p_value": .number(repeats.pValue), "verdict": .string(repeats.verdict.rawValue),
        ]
    }

    private static func percent(_ value: Double) -> String {
        String(format: "%.0f%%", value * 100)
    }
}
