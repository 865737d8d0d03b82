import Foundation

/// The exact two-sided McNemar test: a sign test on the discordant pairs.
///
/// Under the null hypothesis each discordant pair is equally likely to favour A or B, so
/// with b = only A passed and c = only B passed, p = min(1, 2·P(X ≤ min(b, c))) with
/// X ~ Binomial(b + c, 1/2). This equals `scipy.stats.binomtest(b, b + c, 0.5).pvalue`.
public enum McNemarTest {
    /// 1 when there are no discordant pairs: nothing tells the variants apart.
    public static func pValue(onlyAPassed b: Int, onlyBPassed c: Int) -> Double {
        precondition(b >= 0 && c >= 0, "counts must not be negative")
        let n = b + c
        guard n > 0 else { return 1 }
        return min(1, 2 * BinomialHalf.lowerTail(atMost: min(b, c), trials: n))
    }

    /// The fewest discordant pairs that can reach p < `significance`, all of them one way:
    /// 6 at 0.05 (p = 2 · 0.5⁶ = 0.031; five give 0.0625). Fewer can never decide.
    public static func smallestDecisiveDiscordantCount(significance: Double) -> Int {
        var count = 1
        while pValue(onlyAPassed: 0, onlyBPassed: count) >= significance { count += 1 }
        return count
    }
}

/// Tails of Binomial(n, 1/2), in log space so that 2⁻ⁿ does not underflow for large n.
enum BinomialHalf {
    /// P(X ≤ k) for X ~ Binomial(trials, 1/2), with k ≤ trials / 2.
    static func lowerTail(atMost k: Int, trials n: Int) -> Double {
        precondition(k >= 0 && 2 * k <= n)
        // Terms grow up to the mode, so sum them relative to the largest one, C(n, k),
        // walking down with C(n, i-1) = C(n, i) · i / (n - i + 1).
        var sum = 1.0
        var term = 1.0
        var i = k
        while i > 0 {
            term *= Double(i) / Double(n - i + 1)
            sum += term
            if term < sum * 1e-18 { break }
            i -= 1
        }
        return exp(logChoose(n, k) - Double(n) * ln2 + log(sum))
    }
}

/// log C(n, k), exactly 0 at the ends.
func logChoose(_ n: Int, _ k: Int) -> Double {
    if k == 0 || k == n { return 0 }
    return lgamma(Double(n + 1)) - lgamma(Double(k + 1)) - lgamma(Double(n - k + 1))
}

private let ln2 = 0.693_147_180_559_945_309_417_232_121_458
