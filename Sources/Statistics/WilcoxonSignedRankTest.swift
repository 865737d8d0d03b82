/// The two-sided Wilcoxon signed-rank test on paired differences: do they centre on zero?
///
/// Matches `scipy.stats.wilcoxon(differences)` in SciPy 1.17 with its defaults
/// (`zero_method="wilcox"`, `correction=False`, `alternative="two-sided"`, `method="auto"`):
/// zero differences are dropped and the others ranked by magnitude, ties sharing the
/// average rank; the statistic is min(R+, R−); and the p-value comes from
/// - ``Method/exact``: the exact null distribution, when there are at most 50 differences
///   (zeros included in the count), none zero and no tied magnitudes;
/// - ``Method/signFlips``: otherwise, for at most 13 differences, every assignment of signs
///   to the nonzero differences, as SciPy's `PermutationMethod` enumerates them (2¹³ is
///   below its 9,999 resamples, so it is exact and deterministic there too);
/// - ``Method/normalApproximation``: otherwise, z = (R+ − n(n+1)/4) / σ with the tie
///   correction σ² = (n(n+1)(2n+1) − Σ(t³ − t)/2) / 24 and no continuity correction.
///
/// One deliberate difference: when every difference is zero the p-value is 1 (no evidence
/// either way), where SciPy returns NaN for more than 13 differences.
public struct WilcoxonSignedRankTest: Sendable, Hashable {
    public enum Method: Sendable, Hashable {
        case exact
        case signFlips
        case normalApproximation
    }

    /// min(R+, R−), the smaller of the rank sums of the positive and negative differences.
    public let statistic: Double
    public let pValue: Double
    public let method: Method
    /// How many differences were not zero, and so were ranked.
    public let rankedCount: Int

    /// Tests paired scores: the differences are `b[i] − a[i]`.
    public init(a: [Double], b: [Double]) throws(StatisticsError) {
        guard a.count == b.count else { throw .lengthMismatch(a.count, b.count) }
        try self.init(differences: zip(a, b).map { $1 - $0 })
    }

    public init(differences: [Double]) throws(StatisticsError) {
        guard !differences.isEmpty else { throw .emptySample }
        let nonzero = differences.filter { $0 != 0 }
        let (ranks, tieSizes) = Self.averageRanks(of: nonzero.map(abs))
        let positiveRankSum = zip(nonzero, ranks).reduce(0.0) { $0 + ($1.0 > 0 ? $1.1 : 0) }
        let negativeRankSum = zip(nonzero, ranks).reduce(0.0) { $0 + ($1.0 < 0 ? $1.1 : 0) }
        let hasTies = tieSizes.contains { $0 > 1 }
        let hasZeros = nonzero.count < differences.count

        if differences.count > 50 {
            method = .normalApproximation
        } else if !hasTies && !hasZeros {
            method = .exact
        } else if differences.count <= 13 {
            method = .signFlips
        } else {
            method = .normalApproximation
        }
        statistic = min(positiveRankSum, negativeRankSum)
        rankedCount = nonzero.count

        guard !nonzero.isEmpty else {
            pValue = 1
            return
        }
        switch method {
        case .exact:
            pValue = Self.exactPValue(positiveRankSum: Int(positiveRankSum), count: nonzero.count)
        case .signFlips:
            pValue = Self.signFlipPValue(positiveRankSum: positiveRankSum, ranks: ranks)
        case .normalApproximation:
            let n = Double(nonzero.count)
            let tieCorrection = tieSizes.reduce(0.0) { $0 + Double($1 * $1 * $1 - $1) }
            let variance = (n * (n + 1) * (2 * n + 1) - tieCorrection / 2) / 24
            let z = (positiveRankSum - n * (n + 1) / 4) / variance.squareRoot()
            pValue = min(1, 2 * NormalDistribution.survival(abs(z)))
        }
    }

    /// Ranks 1...n by value, tied values sharing their average rank; and the size of each group of ties.
    static func averageRanks(of values: [Double]) -> (ranks: [Double], tieSizes: [Int]) {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var ranks = [Double](repeating: 0, count: values.count)
        var tieSizes: [Int] = []
        var start = 0
        while start < order.count {
            var end = start + 1
            while end < order.count, values[order[end]] == values[order[start]] { end += 1 }
            let averageRank = Double(start + 1 + end) / 2
            for position in start..<end { ranks[order[position]] = averageRank }
            tieSizes.append(end - start)
            start = end
        }
        return (ranks, tieSizes)
    }

    /// Two-sided p from the exact distribution of R+ over the 2ⁿ sign assignments of ranks 1...n.
    private static func exactPValue(positiveRankSum: Int, count n: Int) -> Double {
        // ways[s]: how many subsets of {1, ..., n} sum to s. At most C(50, 25) < 2⁵³, so exact.
        let maximum = n * (n + 1) / 2
        var ways = [Double](repeating: 0, count: maximum + 1)
        ways[0] = 1
        for rank in 1...n {
            for sum in stride(from: rank * (rank + 1) / 2, through: rank, by: -1) {
                ways[sum] += ways[sum - rank]
            }
        }
        let atMost = ways[...positiveRankSum].reduce(0, +)
        let atLeast = ways[positiveRankSum...].reduce(0, +)
        return min(1, 2 * min(atMost, atLeast) / Double(sign: .plus, exponent: n, significand: 1))
    }

    /// Two-sided p from R+ under every assignment of signs to the given ranks, with SciPy's
    /// relative tolerance of 100 ε for sums that differ only by rounding.
    private static func signFlipPValue(positiveRankSum observed: Double, ranks: [Double]) -> Double {
        let tolerance = abs(observed) * 100 * Double.ulpOfOne
        let assignments = 1 << ranks.count
        var atMost = 0, atLeast = 0
        for mask in 0..<assignments {
            var sum = 0.0
            for (index, rank) in ranks.enumerated() where mask & (1 << index) != 0 { sum += rank }
            if sum <= observed + tolerance { atMost += 1 }
            if sum >= observed - tolerance { atLeast += 1 }
        }
        return min(1, 2 * Double(min(atMost, atLeast)) / Double(assignments))
    }
}
