import Foundation
import Statistics

/// Is B better than A? The cases (fixture and step) both runs produced, paired: a
/// case passes when its output is valid and every check passed. The pairs where
/// exactly one side passes decide, by an exact two-sided McNemar test; the same for
/// each check on its own, and bootstrap intervals for the token and latency changes.
/// Too few discordant pairs can never reach significance, whichever way they split:
/// that is `too-few-pairs`, never `no-difference`.
public struct PairedVerdict: Sendable, Hashable {
    public enum Verdict: String, Sendable {
        case better, worse
        case noDifference = "no-difference"
        /// No split of the discordant pairs could reach significance: the evidence cannot decide.
        case tooFewPairs = "too-few-pairs"
    }

    /// How much more evidence could decide, when the verdict is `too-few-pairs`.
    public struct Shortfall: Sendable, Hashable {
        /// The fewest discordant pairs that could reach significance (all one way).
        public var discordantNeeded: Int
        /// Paired cases that would hold `discordantNeeded` discordant pairs at the
        /// observed discordance rate (discordant / pairs), and how many more than now;
        /// nil when no pair differs, so the rate gives no estimate.
        public var pairsNeeded: Int?
        public var morePairs: Int? { pairsNeeded.map { max(0, $0 - observedPairs) } }
        /// Repeats of every case (`run --repeat K` on both runs) that would give `pairsNeeded` pairs.
        public var repeatsNeeded: Int? {
            guard let pairsNeeded, observedPairs > 0 else { return nil }
            return (pairsNeeded + observedPairs - 1) / observedPairs
        }
        let observedPairs: Int
    }

    /// One check over the pairs where both sides report it.
    public struct CheckPairs: Sendable, Hashable {
        public var name: String
        public var pairs: Int
        public var aPass: Int
        public var bPass: Int
        public var pValue: Double
    }

    /// The mean change B − A over the pairs, with its paired bootstrap 95% interval.
    public struct Difference: Sendable, Hashable {
        public var meanA: Double
        public var meanB: Double
        public var meanDifference: Double
        public var interval: Interval
    }

    /// The level below which a difference counts as real.
    public static let significance = 0.05

    public let pairs: Int
    public let aPass: Int
    public let bPass: Int
    /// Pairs where only A passes, and only B.
    public let aBetter: Int
    public let bBetter: Int
    public let pValue: Double
    public let verdict: Verdict
    /// Set when the verdict is `too-few-pairs`.
    public let shortfall: Shortfall?
    public let checks: [CheckPairs]
    /// Input plus output tokens per case; nil when a side has no figures (golden).
    public let tokens: Difference?
    public let latencySeconds: Difference?

    public init<Step: ComparedStep>(pairs: [(a: Step, b: Step)]) {
        let passes = pairs.map { (Self.passes($0.a), Self.passes($0.b)) }
        let outcome = PairedOutcome(passes)
        self.pairs = pairs.count
        aPass = passes.filter(\.0).count
        bPass = passes.filter(\.1).count
        aBetter = outcome.onlyAPassed
        bBetter = outcome.onlyBPassed
        pValue = outcome.mcNemarPValue
        let discordant = aBetter + bBetter
        let discordantNeeded = McNemarTest.smallestDecisiveDiscordantCount(significance: Self.significance)
        if discordant < discordantNeeded {
            verdict = .tooFewPairs
            // At the observed rate, d discordant among n pairs: n · needed / d pairs hold `needed`.
            let pairsNeeded = discordant == 0 ? nil : (pairs.count * discordantNeeded + discordant - 1) / discordant
            shortfall = Shortfall(discordantNeeded: discordantNeeded, pairsNeeded: pairsNeeded, observedPairs: pairs.count)
        } else {
            verdict = pValue >= Self.significance ? .noDifference : bBetter > aBetter ? .better : .worse
            shortfall = nil
        }

        var byCheck: [String: [(Bool, Bool)]] = [:]
        for pair in pairs where pair.a.producedOutput && pair.b.producedOutput {
            let a = Self.results(pair.a), b = Self.results(pair.b)
            for (name, passedA) in a {
                if let passedB = b[name] { byCheck[name, default: []].append((passedA, passedB)) }
            }
        }
        checks = byCheck.keys.sorted().map { name in
            let results = byCheck[name]!
            return CheckPairs(
                name: name, pairs: results.count, aPass: results.filter(\.0).count, bPass: results.filter(\.1).count,
                pValue: PairedOutcome(results).mcNemarPValue)
        }
        let measured = pairs.filter { Self.hasFigures($0.a) && Self.hasFigures($0.b) }
        tokens = Self.difference(measured.map { (Double($0.a.inputTokens + $0.a.outputTokens), Double($0.b.inputTokens + $0.b.outputTokens)) })
        latencySeconds = Self.difference(measured.map { ($0.a.latencySeconds, $0.b.latencySeconds) })
    }

    static func passes(_ step: some ComparedStep) -> Bool {
        step.producedOutput && step.failedCheckNames.isEmpty
    }

    private static func results(_ step: some ComparedStep) -> [String: Bool] {
        var results: [String: Bool] = [:]
        for name in step.passedCheckNames { results[name] = true }
        for name in step.failedCheckNames { results[name] = false }
        return results
    }

    /// A run's step has figures when the model was called; golden rows have none.
    private static func hasFigures(_ step: some ComparedStep) -> Bool {
        step.inputTokens + step.outputTokens > 0
    }

    private static func difference(_ values: [(a: Double, b: Double)]) -> Difference? {
        guard values.count >= 2,
              let bootstrap = try? PairedBootstrap(a: values.map(\.a), b: values.map(\.b))
        else { return nil }
        let count = Double(values.count)
        return Difference(
            meanA: values.map(\.a).reduce(0, +) / count, meanB: values.map(\.b).reduce(0, +) / count,
            meanDifference: bootstrap.meanDifference, interval: bootstrap.interval)
    }
}
