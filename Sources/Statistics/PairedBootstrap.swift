/// A percentile bootstrap interval for the mean of paired differences `b[i] − a[i]`.
///
/// Pairs are resampled whole (as differences), so what the two variants share on a case
/// stays shared. The generator is seeded and the index draw is this module's own, so the
/// same inputs, seed and resample count give the same interval on every platform and
/// toolchain.
public struct PairedBootstrap: Sendable, Hashable {
    public let meanDifference: Double
    public let interval: Interval

    public init(a: [Double], b: [Double], confidence: Double = 0.95, resamples: Int = 10_000, seed: UInt64 = 0) throws(StatisticsError) {
        guard a.count == b.count else { throw .lengthMismatch(a.count, b.count) }
        try self.init(differences: zip(a, b).map { $1 - $0 }, confidence: confidence, resamples: resamples, seed: seed)
    }

    public init(differences: [Double], confidence: Double = 0.95, resamples: Int = 10_000, seed: UInt64 = 0) throws(StatisticsError) {
        guard !differences.isEmpty else { throw .emptySample }
        guard confidence > 0, confidence < 1 else { throw .confidenceOutOfRange(confidence) }
        precondition(resamples > 0, "the bootstrap needs at least one resample")
        let n = differences.count
        var generator = SplitMix64(seed: seed)
        var means: [Double] = []
        means.reserveCapacity(resamples)
        for _ in 0..<resamples {
            var sum = 0.0
            for _ in 0..<n { sum += differences[generator.nextIndex(below: n)] }
            means.append(sum / Double(n))
        }
        means.sort()
        let tail = (1 - confidence) / 2
        meanDifference = differences.reduce(0, +) / Double(n)
        interval = Interval(lower: Self.quantile(means, tail), upper: Self.quantile(means, 1 - tail))
    }

    /// The `p` quantile of sorted values, interpolating linearly between order statistics
    /// (NumPy's default, Hyndman and Fan's type 7).
    static func quantile(_ sorted: [Double], _ p: Double) -> Double {
        let position = p * Double(sorted.count - 1)
        let below = Int(position.rounded(.down))
        let above = min(below + 1, sorted.count - 1)
        let fraction = position - Double(below)
        return sorted[below] + fraction * (sorted[above] - sorted[below])
    }
}

/// Vigna's SplitMix64: tiny, fast, and fully determined by its 64-bit seed.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform index in 0..<bound by Lemire's multiply-and-reject, written out here rather
    /// than left to the standard library so that the sequence cannot change under us.
    public mutating func nextIndex(below bound: Int) -> Int {
        precondition(bound > 0)
        let range = UInt64(bound)
        var product = next().multipliedFullWidth(by: range)
        if product.low < range {
            let threshold = (0 &- range) % range
            while product.low < threshold {
                product = next().multipliedFullWidth(by: range)
            }
        }
        return Int(product.high)
    }
}
