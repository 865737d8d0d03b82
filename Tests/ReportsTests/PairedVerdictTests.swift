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

    @Test func fourDiscordantPairsAreTooFewToDecide() throws {
        let base = Self.steps(3, from: 0, passing: false) + Self.steps(1, from: 3, passing: true)
        let head = Self.steps(3, from: 0, passing: true) + Self.steps(1, from: 3, passing: false)
        let comparison = RunComparison(base: base, head: head, baseName: "A", headName: "B")
        let verdict = comparison.verdict
        #expect(abs(verdict.pValue - 0.625) < 1e-12, "3 against 1: P(X <= 1) * 2 with X ~ Binomial(4, 0.5)")
        #expect(verdict.verdict == .tooFewPairs)
        let shortfall = try #require(verdict.shortfall)
        #expect(shortfall.discordantNeeded == 6)
        #expect(shortfall.pairsNeeded == 6 && shortfall.morePairs == 2 && shortfall.repeatsNeeded == 2, "4 of 4 pairs differ: 6 pairs hold 6")
        let line = try #require(ComparisonReport.shortfallLine(comparison))
        #expect(line.contains("at least 6 discordant pairs"))
        #expect(line.contains("about 6 paired cases, 2 more"))
    }

    @Test func sixDiscordantPairsOneWayDecideAndFiveCannot() {
        let five = RunComparison(
            base: Self.steps(5, from: 0, passing: false) + Self.steps(20, from: 5, passing: true),
            head: Self.steps(5, from: 0, passing: true) + Self.steps(20, from: 5, passing: true), baseName: "A", headName: "B")
        #expect(five.verdict.verdict == .tooFewPairs, "p = 2 * 0.5^5 = 0.0625 at best")
        #expect(five.verdict.shortfall?.pairsNeeded == 30, "5 of 25 pairs differ: 6 take 30 pairs")
        let six = RunComparison(
            base: Self.steps(6, from: 0, passing: false), head: Self.steps(6, from: 0, passing: true), baseName: "A", headName: "B")
        #expect(six.verdict.verdict == .better)
        #expect(abs(six.verdict.pValue - 0.03125) < 1e-12)
        #expect(six.verdict.shortfall == nil)
        // Six discordant pairs split 4 to 2 could have decided, and did not: that is no difference.
        let split = RunComparison(
            base: Self.steps(4, from: 0, passing: false) + Self.steps(2, from: 4, passing: true),
            head: Self.steps(4, from: 0, passing: true) + Self.steps(2, from: 4, passing: false), baseName: "A", headName: "B")
        #expect(split.verdict.verdict == .noDifference)
    }

    @Test func noDiscordantPairIsTooFewAndGivesNoEstimate() throws {
        let steps = Self.steps(30, from: 0, passing: true)
        let comparison = RunComparison(base: steps, head: steps, baseName: "A", headName: "B")
        #expect(comparison.verdict.verdict == .tooFewPairs)
        #expect(comparison.verdict.shortfall?.pairsNeeded == nil)
        #expect(try #require(ComparisonReport.shortfallLine(comparison)).contains("no pair differs"))
    }

    /// A variant recorded for 3 of 28 fixtures: the 25 it has no recording for are no pairs and no regressions.
    @Test func casesOnlyOneRunProducedAreNeitherPairsNorRegressions() throws {
        let base = Self.steps(28, from: 0, passing: true)
        let recorded = Self.steps(3, from: 0, passing: false)
        let unrecorded = (3..<28).map { index in
            Step(key: "fixture-\(index)/goal-options", outcome: "error", failure: "missing-recording: no recording",
                 passedCheckNames: [], outputFingerprint: nil)
        }
        let skipped = [Step(key: "fixture-0/program-draft", outcome: "skipped", passedCheckNames: [], outputFingerprint: nil)]
        let comparison = RunComparison(base: base, head: recorded + unrecorded + skipped, baseName: "base", headName: "goal-options=three-short")
        #expect(comparison.verdict.pairs == 3)
        #expect(comparison.count(.regressed) == 3)
        #expect(comparison.onlyInBase == 25 && comparison.onlyInHead == 0)
        #expect(comparison.verdict.verdict == .tooFewPairs)
        #expect(ComparisonReport.summaryLine(comparison) == "regressed 3")
        #expect(ComparisonReport.unpairedLine(comparison)
            == "only in base: 25 cases; only in goal-options=three-short: 0 (not paired, not part of the verdict)")
        let json = ComparisonReport.json(comparison)
        #expect(json["pairs"]?.numberValue == 3 && json["only_in_a"]?.numberValue == 25)
        // An invalid output was produced and judged: it pairs, and loses to a valid one.
        let invalid = [Step(key: "fixture-0/goal-options", outcome: "invalid", failure: "invalid-output: cut off", passedCheckNames: [], outputFingerprint: nil)]
        let againstInvalid = RunComparison(base: Array(base.prefix(1)), head: invalid, baseName: "base", headName: "v")
        #expect(againstInvalid.verdict.pairs == 1 && againstInvalid.count(.regressed) == 1)
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
        #expect(json["verdict"]?.stringValue == "too-few-pairs", "4 against 0: p = 0.125, and no split of 4 could decide")
        #expect(json["discordant_needed"]?.numberValue == 6)
        #expect(abs((json["p_value"]?.numberValue ?? 0) - 0.125) < 1e-12)
    }
}
