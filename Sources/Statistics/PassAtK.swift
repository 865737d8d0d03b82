/// What repeated runs of one case say about drawing `k` of them.
///
/// Both are the unbiased estimators over all C(n, k) ways to pick `k` of the `n` runs,
/// computed as running products so that no binomial coefficient is ever formed.
public enum PassAtK {
    /// pass@k: the chance that at least one of `k` runs passes, 1 − C(n−c, k) / C(n, k)
    /// (Chen et al., 2021).
    public static func anyPass(passes c: Int, runs n: Int, k: Int) throws(StatisticsError) -> Double {
        try requireSample(passes: c, runs: n, k: k)
        if n - c < k { return 1 }
        // C(n−c, k) / C(n, k) = ∏_{i = n−c+1}^{n} (1 − k / i)
        var allFail = 1.0
        for i in stride(from: n - c + 1, through: n, by: 1) {
            allFail *= 1 - Double(k) / Double(i)
        }
        return 1 - allFail
    }

    /// pass^k: the chance that all `k` runs pass, C(c, k) / C(n, k); the flake-aware bar.
    public static func allPass(passes c: Int, runs n: Int, k: Int) throws(StatisticsError) -> Double {
        try requireSample(passes: c, runs: n, k: k)
        if c < k { return 0 }
        // C(c, k) / C(n, k) = ∏_{i = 0}^{k−1} (c − i) / (n − i)
        var all = 1.0
        for i in 0..<k {
            all *= Double(c - i) / Double(n - i)
        }
        return all
    }

    private static func requireSample(passes: Int, runs: Int, k: Int) throws(StatisticsError) {
        try requireCounts(passes: passes, runs: runs)
        guard k >= 1, k <= runs else { throw .sampleSizeOutOfRange(k: k, runs: runs) }
    }
}
