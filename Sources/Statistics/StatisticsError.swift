/// Arguments a statistic cannot be computed from.
public enum StatisticsError: Error, Sendable, Hashable {
    case negativeCount(Int)
    case passesExceedRuns(passes: Int, runs: Int)
    /// pass@k and pass^k draw `k` runs without replacement, so `k` must be in `1...runs`.
    case sampleSizeOutOfRange(k: Int, runs: Int)
    case confidenceOutOfRange(Double)
    case lengthMismatch(Int, Int)
    case emptySample
}

func requireCounts(passes: Int, runs: Int) throws(StatisticsError) {
    guard passes >= 0 else { throw .negativeCount(passes) }
    guard runs >= 0 else { throw .negativeCount(runs) }
    guard passes <= runs else { throw .passesExceedRuns(passes: passes, runs: runs) }
}
