import Foundation
import Statistics

/// Is B better than A? The same cases (fixture and step) paired across two runs: a
/// case passes when it produced an output and every check passed. The pairs where
/// exactly one side passes decide, by an exact two-sided McNemar test; the same for
/// each check on its own, and bootstrap intervals for the token and latency changes.
public struct PairedVerdict: Sendable, Hashable {
    public enum Verdict: String, Sendable {
        case better, worse
        case noDifference = "no-difference"
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
        verdict = pValue >= Self.significance ? .noDifference : bBetter > aBetter ? .better : .worse

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
