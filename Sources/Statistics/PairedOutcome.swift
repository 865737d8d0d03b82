/// How two variants fared on the same cases: each case run once under A and once under B.
public struct PairedOutcome: Sendable, Hashable {
    public var bothPassed: Int
    public var bothFailed: Int
    public var onlyAPassed: Int
    public var onlyBPassed: Int

    public init(bothPassed: Int = 0, bothFailed: Int = 0, onlyAPassed: Int = 0, onlyBPassed: Int = 0) {
        self.bothPassed = bothPassed
        self.bothFailed = bothFailed
        self.onlyAPassed = onlyAPassed
        self.onlyBPassed = onlyBPassed
    }

    /// Counts pairs of (A passed, B passed).
    public init<Pairs: Sequence>(_ pairs: Pairs) where Pairs.Element == (Bool, Bool) {
        self.init()
        for (aPassed, bPassed) in pairs {
            switch (aPassed, bPassed) {
            case (true, true): bothPassed += 1
            case (false, false): bothFailed += 1
            case (true, false): onlyAPassed += 1
            case (false, true): onlyBPassed += 1
            }
        }
    }

    public var total: Int { bothPassed + bothFailed + onlyAPassed + onlyBPassed }

    /// The pairs where A and B disagree: the only ones that say which is better.
    public var discordant: Int { onlyAPassed + onlyBPassed }

    /// The exact two-sided McNemar p-value of these pairs.
    public var mcNemarPValue: Double { McNemarTest.pValue(onlyAPassed: onlyAPassed, onlyBPassed: onlyBPassed) }
}
