import Foundation
import JSONSchema
import Testing

@testable import Reports

/// Is B better than A, with a number: the paired verdict over two runs' cases.
struct PairedVerdictTests {
    struct Step: ComparedStep {
        var key: String
        var outcome = "valid"
        var failure: String?
        var failedCheckNames: Set<String> = []
        var passedCheckNames: Set<String> = ["options.count"]
        var outputFingerprint: String? = "f"
        var inputTokens = 0
        var outputTokens = 0
        var latencySeconds = 0.0
        var repeats: [RepeatRecord]?
    }

    /// `count` cases named from `start`, passing or failing `options.distinct`.
    static func steps(_ count: Int, from start: Int, passing: Bool, tokens: Int = 0) -> [Step] {
        (start..<(start + count)).map { index in
            Step(
                key: "fixture-\(index)/goal-options", failedCheckNames: passing ? [] : ["options.distinct"],
                passedCheckNames: passing ? ["options.count", "options.distinct"] : ["options.count"], inputTokens: tokens,
                outputTokens: tokens == 0 ? 0 : 100 + index, latencySeconds: tokens == 0 ? 0 : 1)
        }
    }

    @Test func tenCasesBetterAgainstTwoWorseIsBetterAtTheFivePercentLevel() throws {
        // The textbook McNemar example: 10 and 2 discordant pairs, exact two-sided p = 79/2048.
        let base = Self.steps(10, from: 0, passing: false) + Self.steps(2, from: 10, passing: true) + Self.steps(5, from: 12, passing: true)
        let head = Self.steps(10, from: 0, passing: true) + Self.steps(2, from: 10, passing: false) + Self.steps(5, from: 12, passing: true)
        let comparison = RunComparison(base: base, head: head, baseName: "A", headName: "B")
        let verdict = comparison.verdict
        #expect((verdict.pairs, verdict.aPass, verdict.bPass, verdict.aBetter, verdict.bBetter) == (17, 7, 15, 2, 10))
        #expect(abs(verdict.pValue - 79.0 / 2048.0) < 1e-12)
        #expect(verdict.verdict == .better)
        let distinct = try #require(verdict.checks.first { $0.name == "options.distinct" })
        #expect((distinct.pairs, distinct.aPass, distinct.bPass) == (17, 7, 15))
        #expect(RunComparison(base: head, head: base, baseName: "B", headName: "A").verdict.verdict == .worse)
    }

    @Test func aSmallDifferenceIsNoDifference() {
        let base = Self.steps(3, from: 0, passing: false) + Self.steps(1, from: 3, passing: true)
        let head = Self.steps(3, from: 0, passing: true) + Self.steps(1, from: 3, passing: false)
        let verdict = RunComparison(base: base, head: head, baseName: "A", headName: "B").verdict
        #expect(abs(verdict.pValue - 0.625) < 1e-12, "3 against 1: P(X <= 1) * 2 with X ~ Binomial(4, 0.5)")
        #expect(verdict.verdict == .noDifference)
    }

    @Test func tokensGetABootstrapIntervalAndGoldenRowsHaveNone() throws {
        let base = Self.steps(20, from: 0, passing: true, tokens: 1000)
        let head = Self.steps(20, from: 0, passing: true, tokens: 600)
        let tokens = try #require(RunComparison(base: base, head: head, baseName: "A", headName: "B").verdict.tokens)
        #expect(tokens.meanDifference == -400)
        #expect(tokens.interval.lower <= -400 && tokens.interval.upper >= -400)
        let golden = Self.steps(20, from: 0, passing: true)
        #expect(RunComparison(base: golden, head: head, baseName: "golden", headName: "B").verdict.tokens == nil)
    }

    @Test func theJSONHasTheFieldsToolsRead() throws {
        let comparison = RunComparison(
            base: Self.steps(4, from: 0, passing: false), head: Self.steps(4, from: 0, passing: true), baseName: "A", headName: "B")
        let json = ComparisonReport.json(comparison)
        for key in ["a", "b", "pairs", "a_pass", "b_pass", "a_better", "b_better", "p_value", "verdict", "checks", "tokens"] {
            #expect(json[key] != nil, "missing \(key)")
        }
        #expect(json["verdict"]?.stringValue == "no-difference", "4 against 0: p = 0.125")
        #expect(abs((json["p_value"]?.numberValue ?? 0) - 0.125) < 1e-12)
    }
}
