import Testing

@testable import Statistics

@Suite("Paired outcomes and McNemar")
struct McNemarTests {
    @Test func countsEachKindOfPair() {
        let pairs = [(true, true), (true, false), (false, true), (false, true), (false, false), (true, true)]
        let outcome = PairedOutcome(pairs)
        #expect(outcome == PairedOutcome(bothPassed: 2, bothFailed: 1, onlyAPassed: 1, onlyBPassed: 2))
        #expect(outcome.total == 6)
        #expect(outcome.discordant == 3)
        #expect(PairedOutcome([]) == PairedOutcome())
    }

    @Test func sixDiscordantPairsAreTheFewestThatCanDecideAtFivePercent() {
        #expect(McNemarTest.smallestDecisiveDiscordantCount(significance: 0.05) == 6)
        #expect(McNemarTest.pValue(onlyAPassed: 0, onlyBPassed: 5) >= 0.05)
        #expect(McNemarTest.pValue(onlyAPassed: 0, onlyBPassed: 6) < 0.05)
        #expect(McNemarTest.smallestDecisiveDiscordantCount(significance: 0.01) == 8, "2 * 0.5^8 = 0.0078")
    }

    @Test(arguments: Reference.shared.mcnemar)
    func matchesSciPyBinomialTest(_ case: Reference.McNemar) {
        let p = McNemarTest.pValue(onlyAPassed: `case`.onlyA, onlyBPassed: `case`.onlyB)
        #expect(close(p, `case`.p, relative: exact), "b=\(`case`.onlyA) c=\(`case`.onlyB): \(p) vs \(`case`.p)")
    }

    /// The worked example with 10 and 2 discordant pairs: exact two-sided p = 0.0386 (79/2048).
    @Test func publishedExample() {
        let outcome = PairedOutcome(bothPassed: 30, bothFailed: 8, onlyAPassed: 10, onlyBPassed: 2)
        #expect(close(outcome.mcNemarPValue, 79.0 / 2048, relative: exact))
        #expect((outcome.mcNemarPValue * 10_000).rounded() / 10_000 == 0.0386)
    }

    @Test func noDiscordantPairsGiveNoEvidence() {
        #expect(McNemarTest.pValue(onlyAPassed: 0, onlyBPassed: 0) == 1)
        #expect(PairedOutcome(bothPassed: 40, bothFailed: 3).mcNemarPValue == 1)
        #expect(McNemarTest.pValue(onlyAPassed: 6, onlyBPassed: 6) == 1)
    }

    @Test func staysFiniteForThousandsOfPairs() {
        let p = McNemarTest.pValue(onlyAPassed: 5000, onlyBPassed: 4000)
        #expect(p > 0 && p < 1e-20)
    }
}

@Suite("Wilson interval")
struct WilsonTests {
    @Test(arguments: Reference.shared.wilson)
    func matchesSciPy(_ case: Reference.Wilson) throws {
        let interval = try Interval.wilson(passes: `case`.passes, runs: `case`.runs, confidence: `case`.confidence)
        #expect(close(interval.lower, `case`.lower, relative: exact), "\(interval) vs \(`case`)")
        #expect(close(interval.upper, `case`.upper, relative: exact), "\(interval) vs \(`case`)")
    }

    @Test func noRunsSayNothing() throws {
        #expect(try Interval.wilson(passes: 0, runs: 0) == Interval(lower: 0, upper: 1))
    }

    @Test func rejectsImpossibleArguments() {
        #expect(throws: StatisticsError.passesExceedRuns(passes: 4, runs: 3)) { try Interval.wilson(passes: 4, runs: 3) }
        #expect(throws: StatisticsError.negativeCount(-1)) { try Interval.wilson(passes: -1, runs: 3) }
        #expect(throws: StatisticsError.confidenceOutOfRange(1)) { try Interval.wilson(passes: 1, runs: 3, confidence: 1) }
    }

    @Test(arguments: Reference.shared.normalQuantile)
    func normalQuantileMatchesSciPy(_ case: Reference.NormalQuantile) {
        #expect(close(NormalDistribution.quantile(`case`.p), `case`.x, relative: exact), "p=\(`case`.p)")
    }

    @Test func defaultCriticalValueIsTheUsualOne() throws {
        #expect(try NormalDistribution.twoSidedCriticalValue(confidence: 0.95) == 1.959963984540054)
        #expect(close(NormalDistribution.quantile(0.975), 1.959963984540054, relative: 1e-15))
    }
}

@Suite("pass@k and pass^k")
struct PassAtKTests {
    @Test(arguments: Reference.shared.passAtK)
    func matchesExactRationals(_ case: Reference.PassAtK) throws {
        let any = try PassAtK.anyPass(passes: `case`.passes, runs: `case`.runs, k: `case`.k)
        let all = try PassAtK.allPass(passes: `case`.passes, runs: `case`.runs, k: `case`.k)
        #expect(close(any, `case`.anyPass, relative: exact), "pass@k \(`case`): \(any)")
        #expect(close(all, `case`.allPass, relative: exact), "pass^k \(`case`): \(all)")
    }

    @Test func kOfOneIsThePassRate() throws {
        #expect(close(try PassAtK.anyPass(passes: 3, runs: 8, k: 1), 3.0 / 8, relative: exact))
        #expect(try PassAtK.allPass(passes: 3, runs: 8, k: 1) == 3.0 / 8)
    }

    @Test func sampleMustFitInTheRuns() {
        #expect(throws: StatisticsError.sampleSizeOutOfRange(k: 4, runs: 3)) { try PassAtK.anyPass(passes: 1, runs: 3, k: 4) }
        #expect(throws: StatisticsError.sampleSizeOutOfRange(k: 4, runs: 3)) { try PassAtK.allPass(passes: 3, runs: 3, k: 4) }
        #expect(throws: StatisticsError.sampleSizeOutOfRange(k: 1, runs: 0)) { try PassAtK.anyPass(passes: 0, runs: 0, k: 1) }
        #expect(throws: StatisticsError.sampleSizeOutOfRange(k: 0, runs: 5)) { try PassAtK.allPass(passes: 2, runs: 5, k: 0) }
        #expect(throws: StatisticsError.passesExceedRuns(passes: 6, runs: 5)) { try PassAtK.anyPass(passes: 6, runs: 5, k: 2) }
    }
}

@Suite("Wilcoxon signed-rank test")
struct WilcoxonTests {
    @Test(arguments: Reference.shared.wilcoxon)
    func matchesSciPy(_ case: Reference.Wilcoxon) throws {
        let test = try WilcoxonSignedRankTest(differences: `case`.differences)
        let tolerance = test.method == .normalApproximation ? approximate : exact
        #expect(test.statistic == `case`.statistic, "\(`case`.name)")
        #expect(close(test.pValue, `case`.p, relative: tolerance), "\(`case`.name): \(test.pValue) vs \(`case`.p)")
    }

    @Test func choosesTheMethodSciPyChooses() throws {
        let reference = Dictionary(uniqueKeysWithValues: Reference.shared.wilcoxon.map { ($0.name, $0.differences) })
        func method(_ name: String) throws -> WilcoxonSignedRankTest.Method {
            try WilcoxonSignedRankTest(differences: #require(reference[name])).method
        }
        #expect(try method("exact n=50") == .exact)
        #expect(try method("sign flips, ties, n=8") == .signFlips)
        #expect(try method("sign flips, zeros and ties, n=13") == .signFlips)
        #expect(try method("normal, ties, n=30") == .normalApproximation)
        #expect(try method("normal, zeros, n=17") == .normalApproximation)
        #expect(try method("normal, no ties, n=51") == .normalApproximation)
    }

    @Test func pairsAreTakenAsBMinusA() throws {
        let a = [1.0, 2, 3, 4, 5]
        let b = [2.5, 1.75, 5, 7.125, 5.75]
        let paired = try WilcoxonSignedRankTest(a: a, b: b)
        #expect(paired == (try WilcoxonSignedRankTest(differences: [1.5, -0.25, 2.0, 3.125, 0.75])))
        #expect(paired.rankedCount == 5)
    }

    @Test func allTiesGiveNoEvidence() throws {
        let short = try WilcoxonSignedRankTest(differences: [0, 0, 0])
        #expect(short.pValue == 1 && short.statistic == 0 && short.rankedCount == 0)
        #expect(try WilcoxonSignedRankTest(a: Array(repeating: 0.5, count: 20), b: Array(repeating: 0.5, count: 20)).pValue == 1)
    }

    @Test func rejectsEmptyAndUnpairedSamples() {
        #expect(throws: StatisticsError.emptySample) { try WilcoxonSignedRankTest(differences: []) }
        #expect(throws: StatisticsError.lengthMismatch(2, 3)) { try WilcoxonSignedRankTest(a: [1, 2], b: [1, 2, 3]) }
    }
}

@Suite("Paired bootstrap")
struct PairedBootstrapTests {
    /// Scores of B a little above A's, with noise, from a fixed generator.
    static func scores(count: Int, seed: UInt64) -> (a: [Double], b: [Double]) {
        var generator = SplitMix64(seed: seed)
        func uniform() -> Double { Double(generator.next() >> 11) / Double(1 << 53) }
        let a = (0..<count).map { _ in uniform() }
        let b = a.map { $0 + 0.1 + 0.4 * (uniform() - 0.5) }
        return (a, b)
    }

    @Test func splitMix64MatchesItsReferenceOutputs() {
        var generator = SplitMix64(seed: Reference.shared.splitMix64.seed)
        let outputs = (0..<5).map { _ in String(generator.next()) }
        #expect(outputs == Reference.shared.splitMix64.outputs)
    }

    @Test func indicesStayInRangeAndCoverIt() {
        var generator = SplitMix64(seed: 7)
        var seen = Set<Int>()
        for _ in 0..<1000 {
            let index = generator.nextIndex(below: 6)
            #expect((0..<6).contains(index))
            seen.insert(index)
        }
        #expect(seen.count == 6)
    }

    @Test func sameInputsAndSeedGiveTheSameInterval() throws {
        let (a, b) = Self.scores(count: 40, seed: 1)
        let first = try PairedBootstrap(a: a, b: b, resamples: 2000, seed: 42)
        let second = try PairedBootstrap(a: a, b: b, resamples: 2000, seed: 42)
        let otherSeed = try PairedBootstrap(a: a, b: b, resamples: 2000, seed: 43)
        #expect(first == second)
        #expect(first.interval != otherSeed.interval)
    }

    @Test func intervalHoldsTheObservedMeanAndNarrowsWithMoreData() throws {
        let (fewA, fewB) = Self.scores(count: 20, seed: 2)
        let (manyA, manyB) = Self.scores(count: 500, seed: 2)
        let few = try PairedBootstrap(a: fewA, b: fewB, resamples: 2000, seed: 9)
        let many = try PairedBootstrap(a: manyA, b: manyB, resamples: 2000, seed: 9)
        let observed = zip(fewA, fewB).map { $1 - $0 }.reduce(0, +) / 20
        #expect(close(few.meanDifference, observed, relative: 1e-12))
        #expect(few.interval.contains(few.meanDifference))
        #expect(many.interval.contains(many.meanDifference))
        #expect(many.interval.width < few.interval.width / 2)
        #expect(many.interval.lower > 0, "B's advantage of 0.1 is clear with 500 pairs")
    }

    @Test func identicalScoresGiveAPointAtZero() throws {
        let bootstrap = try PairedBootstrap(a: [0.2, 0.5, 0.9], b: [0.2, 0.5, 0.9], resamples: 100)
        #expect(bootstrap.interval == Interval(lower: 0, upper: 0))
    }

    @Test func rejectsEmptyAndUnpairedSamples() {
        #expect(throws: StatisticsError.emptySample) { try PairedBootstrap(differences: []) }
        #expect(throws: StatisticsError.lengthMismatch(1, 2)) { try PairedBootstrap(a: [1], b: [1, 2]) }
        #expect(throws: StatisticsError.confidenceOutOfRange(0)) { try PairedBootstrap(differences: [1], confidence: 0) }
    }

    @Test func quantileInterpolatesLikeNumPy() {
        // numpy.quantile([1, 2, 3, 4], [0.025, 0.5, 0.975]) == [1.075, 2.5, 3.925]
        let sorted = [1.0, 2, 3, 4]
        #expect(close(PairedBootstrap.quantile(sorted, 0.025), 1.075, relative: exact))
        #expect(PairedBootstrap.quantile(sorted, 0.5) == 2.5)
        #expect(close(PairedBootstrap.quantile(sorted, 0.975), 3.925, relative: exact))
    }
}
