import Foundation
import Intake
import Pipeline
import Statistics

/// How stable a run is when every step runs several times (`run --repeat N`): per
/// step and per check, pass rates with their spread over repeats and a Wilson 95%
/// interval, pass@k and pass^k over cases (a case is one fixture step), and the
/// checks that pass in some repeats and fail in others.
///
/// Computed from the repeat records of a report's steps alone, so a tool holding
/// only `results.json` files (shards of one run, or two runs to compare) can
/// recompute it.
public struct RepeatStatistics: Codable, Sendable, Hashable {
    /// What `--min-pass-rate` compares with the rate it asks for.
    public enum GateBasis: String, Codable, Sendable, Hashable, CaseIterable {
        /// The mean pass rate over repeats.
        case mean
        /// The lower end of the Wilson 95% interval: few repeats cannot pass by luck.
        case lowerBound = "lower-bound"
    }

    /// The pass rates steps must reach, and how they are judged.
    public struct PassRateGate: Sendable, Hashable {
        /// By step name, or `*` for every step.
        public var requiredRates: [String: Double]
        public var basis: GateBasis

        public init(requiredRates: [String: Double] = [:], basis: GateBasis = .mean) {
            self.requiredRates = requiredRates
            self.basis = basis
        }

        func requiredRate(for step: String) -> Double? {
            requiredRates[step] ?? requiredRates["*"]
        }
    }

    /// The Wilson score interval of a pass rate, at 95%.
    public struct RateInterval: Codable, Sendable, Hashable {
        public var lower: Double
        public var upper: Double
    }

    /// Over the cases: the chance that at least one (pass@k) or all (pass^k) of k
    /// repeats of a case pass, estimated without bias from each case's repeats and
    /// averaged over cases. `k` is the fewest repeats any case counted (N normally).
    public struct CaseRates: Codable, Sendable, Hashable {
        public var k: Int
        public var passAtK: Double
        public var passAllK: Double
    }

    /// One prompt step over all fixtures.
    public struct StepStatistics: Codable, Sendable, Hashable {
        public var step: String
        /// Runs of the step that count (not skipped, recording not stale), over all repeats.
        public var runs: Int
        /// Runs with a valid output and every check passing.
        public var passes: Int
        /// Share of runs whose first reply was valid: mean over repeats, and the lowest and highest repeat.
        public var firstPassValidity: Spread
        /// Share of runs with a valid output and every check passing.
        public var passRate: Spread
        /// The Wilson 95% interval of `passes` out of `runs`.
        public var passRateInterval: RateInterval
        /// Fixture steps of this step with at least one counted run.
        public var cases: Int
        public var caseRates: CaseRates?
        /// Share of all checks that passed.
        public var checkPassRate: Spread
        /// The pass rate `--min-pass-rate` asked for, and whether it was met.
        public var requiredPassRate: Double?
        /// What the required rate is compared with; present with `requiredPassRate`.
        public var gateOn: GateBasis?
        /// Each check that ran on the step.
        public var checks: [CheckStatistics]

        /// The rate the requirement is judged on: the mean, or the Wilson lower bound.
        public var gatedRate: Double {
            gateOn == .lowerBound ? passRateInterval.lower : passRate.mean
        }

        public var meetsRequirement: Bool { requiredPassRate.map { gatedRate + 1e-9 >= $0 } ?? true }
    }

    /// One check on one prompt step, over every fixture and repeat it ran in.
    public struct CheckStatistics: Codable, Sendable, Hashable {
        public var check: String
        public var runs: Int
        public var passes: Int
        public var passRate: Double
        public var passRateInterval: RateInterval
        public var cases: Int
        /// Cases where the check passed in some repeats and failed in others.
        public var flakyCases: Int
        public var caseRates: CaseRates?
    }

    public struct Spread: Codable, Sendable, Hashable {
        public var mean: Double
        public var min: Double
        public var max: Double

        init(_ values: [Double]) {
            mean = values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
            min = values.min() ?? 0
            max = values.max() ?? 0
        }
    }

    /// A check that passed in some repeats and failed in others, for one fixture step.
    public struct FlakyCheck: Codable, Sendable, Hashable {
        public var fixture: String
        public var step: String
        public var check: String
        public var passed: Int
        public var runs: Int
    }

    public var repeats: Int
    public var steps: [StepStatistics]
    public var flakyChecks: [FlakyCheck]

    /// The statistics of a report's steps from their repeat records (`StepReport.repeats`).
    public init(fixtures: [FixtureReport], gate: PassRateGate = PassRateGate()) {
        let cases = fixtures.flatMap { fixture in
            fixture.steps.compactMap { step in
                step.step.flatMap { kind in step.repeats.map { Case(fixture: fixture.name, id: step.id, step: kind.rawValue, records: $0) } }
            }
        }
        repeats = cases.flatMap(\.records).map(\.repeatNumber).max() ?? 0
        steps = PipelineStep.allCases.map(\.rawValue).compactMap { step in
            Self.statistics(of: step, cases: cases.filter { $0.step == step }, gate: gate)
        }
        flakyChecks = cases.flatMap { item in
            item.checkNames.compactMap { check in
                let results = item.counted.compactMap { $0.passed(check: check) }
                let passed = results.filter { $0 }.count
                guard passed > 0, passed < results.count else { return nil }
                return FlakyCheck(fixture: item.fixture, step: item.id, check: check, passed: passed, runs: results.count)
            }
        }
    }

    /// One fixture step and its repeats.
    private struct Case {
        var fixture: String
        var id: String
        var step: String
        var records: [RepeatRecord]

        var counted: [RepeatRecord] { records.filter(\.counts) }

        /// Every check that ran in a counted repeat, in the order they first ran.
        var checkNames: [String] {
            var seen = Set<String>()
            return counted.flatMap(\.checks).filter { seen.insert($0).inserted }
        }
    }

    private static func statistics(of step: String, cases: [Case], gate: PassRateGate) -> StepStatistics? {
        let counted = cases.flatMap(\.counted)
        guard !counted.isEmpty else { return nil }
        var firstPass: [Double] = [], pass: [Double] = [], checks: [Double] = []
        for repeatNumber in Set(counted.map(\.repeatNumber)).sorted() {
            let records = counted.filter { $0.repeatNumber == repeatNumber }
            let total = Double(records.count)
            firstPass.append(Double(records.filter(\.firstPassValid).count) / total)
            pass.append(Double(records.filter(\.passed).count) / total)
            let ran = records.reduce(0) { $0 + $1.checks.count }
            let failed = records.reduce(0) { $0 + $1.failedChecks.count }
            checks.append(ran == 0 ? 1 : Double(ran - failed) / Double(ran))
        }
        let passes = counted.filter(\.passed).count
        let required = gate.requiredRate(for: step)
        var names: [String] = []
        var seen = Set<String>()
        for item in cases { for name in item.checkNames where seen.insert(name).inserted { names.append(name) } }
        return StepStatistics(
            step: step, runs: counted.count, passes: passes, firstPassValidity: Spread(firstPass), passRate: Spread(pass),
            passRateInterval: interval(passes: passes, runs: counted.count),
            cases: cases.filter { !$0.counted.isEmpty }.count,
            caseRates: caseRates(cases.map { item in item.counted.map(\.passed) }),
            checkPassRate: Spread(checks), requiredPassRate: required, gateOn: required == nil ? nil : gate.basis,
            checks: names.map { name in checkStatistics(name, cases: cases) })
    }

    private static func checkStatistics(_ check: String, cases: [Case]) -> CheckStatistics {
        let outcomes = cases.map { item in item.counted.compactMap { $0.passed(check: check) } }.filter { !$0.isEmpty }
        let runs = outcomes.reduce(0) { $0 + $1.count }
        let passes = outcomes.reduce(0) { $0 + $1.filter { $0 }.count }
        return CheckStatistics(
            check: check, runs: runs, passes: passes, passRate: runs == 0 ? 0 : Double(passes) / Double(runs),
            passRateInterval: interval(passes: passes, runs: runs), cases: outcomes.count,
            flakyCases: outcomes.filter { $0.contains(true) && $0.contains(false) }.count,
            caseRates: caseRates(outcomes))
    }

    private static func interval(passes: Int, runs: Int) -> RateInterval {
        // Counts come from the records themselves, so they are never out of range.
        let wilson = (try? Interval.wilson(passes: passes, runs: runs)) ?? Interval(lower: 0, upper: 1)
        return RateInterval(lower: wilson.lower, upper: wilson.upper)
    }

    /// pass@k and pass^k averaged over cases, each case given as its repeats' pass or fail.
    private static func caseRates(_ cases: [[Bool]]) -> CaseRates? {
        let cases = cases.filter { !$0.isEmpty }
        guard let k = cases.map(\.count).min() else { return nil }
        var any = 0.0, all = 0.0
        for outcomes in cases {
            let passes = outcomes.filter { $0 }.count
            any += (try? PassAtK.anyPass(passes: passes, runs: outcomes.count, k: k)) ?? 0
            all += (try? PassAtK.allPass(passes: passes, runs: outcomes.count, k: k)) ?? 0
        }
        return CaseRates(k: k, passAtK: any / Double(cases.count), passAllK: all / Double(cases.count))
    }

    /// Every step meets the pass rate asked of it.
    public var meetsRequirements: Bool { steps.allSatisfy(\.meetsRequirement) }

    /// The steps that fall short, as `program-draft: pass rate 60% < required 80%`, or
    /// on the lower bound `program-draft: pass rate lower bound 52% (Wilson 95%, 9 of 10
    /// runs passed) < required 80%`, saying when the runs were too few to reach it at all.
    public var shortfalls: [String] {
        steps.filter { !$0.meetsRequirement }.map { step in
            let required = step.requiredPassRate ?? 0
            guard step.gateOn == .lowerBound else {
                return "\(step.step): pass rate \(Self.percent(step.passRate.mean)) < required \(Self.percent(required))"
            }
            var line = "\(step.step): pass rate lower bound \(Self.percent(step.passRateInterval.lower)) "
                + "(Wilson 95%, \(step.passes) of \(step.runs) runs passed) < required \(Self.percent(required))"
            let needed = Self.runsNeeded(toReach: required)
            if step.runs < needed {
                line += "; even with every run passing, it takes at least \(needed) runs to reach \(Self.percent(required))"
            }
            return line
        }
    }

    /// The fewest runs, all passing, whose Wilson 95% lower bound n / (n + z²) reaches `rate`.
    static func runsNeeded(toReach rate: Double) -> Int {
        guard rate < 1 else { return .max }
        let zz = NormalDistribution.z95 * NormalDistribution.z95
        return max(1, Int((rate * zz / (1 - rate) - 1e-9).rounded(.up)))
    }

    static func percent(_ value: Double) -> String {
        String(format: "%.0f%%", value * 100)
    }
}

extension RepeatStatistics {
    /// The k every step's pass@k and pass^k share, nil when they differ or there are none.
    private var sharedK: Int? {
        let ks = Set(steps.compactMap(\.caseRates?.k))
        return ks.count == 1 ? ks.first : nil
    }

    /// The per-step figures as table cells: the same columns in the terminal, markdown and HTML.
    public var tableHeader: [String] {
        let k = sharedK.map(String.init) ?? "k"
        return ["step", "runs", "1st-pass valid", "pass rate", "95% interval", "pass@\(k)", "pass^\(k)", "checks passed", "required"]
    }

    public var tableRows: [[String]] {
        let shared = sharedK
        return steps.map { step in
            let k = step.caseRates.map { shared == nil ? " (k=\($0.k))" : "" } ?? ""
            return [
                step.step, "\(step.runs)", Self.describe(step.firstPassValidity), Self.describe(step.passRate),
                Self.describe(step.passRateInterval),
                step.caseRates.map { Self.percent($0.passAtK) + k } ?? "-", step.caseRates.map { Self.percent($0.passAllK) + k } ?? "-",
                Self.describe(step.checkPassRate),
                step.requiredPassRate.map {
                    Self.percent($0) + (step.gateOn == .lowerBound ? " (lower bound)" : "") + (step.meetsRequirement ? " ✓" : " ✗")
                } ?? "-",
            ]
        }
    }

    /// Checks that did not pass every time, least stable first, as table cells.
    public var checkTableHeader: [String] {
        ["step", "check", "runs", "pass rate", "95% interval", "pass@k", "pass^k", "flaky cases"]
    }

    public var unstableCheckRows: [[String]] {
        steps.flatMap { step in step.checks.filter { $0.passes < $0.runs }.map { (step.step, $0) } }
            .sorted { ($0.1.passRate, $0.0, $0.1.check) < ($1.1.passRate, $1.0, $1.1.check) }
            .map { step, check in
                [step, check.check, "\(check.runs)", Self.percent(check.passRate), Self.describe(check.passRateInterval),
                 check.caseRates.map { "\(Self.percent($0.passAtK)) (k=\($0.k))" } ?? "-",
                 check.caseRates.map { "\(Self.percent($0.passAllK)) (k=\($0.k))" } ?? "-",
                 "\(check.flakyCases) of \(check.cases)"]
            }
    }

    /// `83% (67–100%)`: the mean over repeats and the lowest and highest repeat.
    static func describe(_ spread: Spread) -> String {
        spread.min == spread.max ? percent(spread.mean) : "\(percent(spread.mean)) (\(percent(spread.min))–\(percent(spread.max)))"
    }

    /// `[21%, 94%]`.
    static func describe(_ interval: RateInterval) -> String {
        "[\(percent(interval.lower)), \(percent(interval.upper))]"
    }

    /// `busy-parent/program-draft program.days-per-week: passed 2 of 3 (67%)`.
    public var flakyLines: [String] {
        flakyChecks.map {
            "\($0.fixture)/\($0.step) \($0.check): passed \($0.passed) of \($0.runs) (\(Self.percent(Double($0.passed) / Double($0.runs))))"
        }
    }
}
