import Foundation
import Intake
import Pipeline

/// How stable a run is when every step runs several times (`run --repeat N`):
/// per step, first-pass validity and pass rates across the repeats with their
/// spread, and the checks that pass in some repeats and fail in others.
public struct RepeatStatistics: Codable, Sendable, Hashable {
    /// One prompt step over all fixtures.
    public struct StepStatistics: Codable, Sendable, Hashable {
        public var step: String
        /// Runs of the step that were not skipped, over all repeats.
        public var runs: Int
        /// Share of runs whose first reply was valid: mean over repeats, and the lowest and highest repeat.
        public var firstPassValidity: Spread
        /// Share of runs with a valid output and every check passing.
        public var passRate: Spread
        /// Share of all checks that passed.
        public var checkPassRate: Spread
        /// The pass rate `--min-pass-rate` asked for, and whether it was met.
        public var requiredPassRate: Double?
        public var meetsRequirement: Bool { requiredPassRate.map { passRate.mean + 1e-9 >= $0 } ?? true }
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

    /// `runs[r]` holds repeat r's results; `requiredPassRates` maps a step name (or `*`) to the pass rate it needs.
    public init(runs: [[FixtureResult]], requiredPassRates: [String: Double] = [:]) {
        repeats = runs.count
        var perStep: [String: (firstPass: [Double], pass: [Double], checks: [Double], runs: Int)] = [:]
        for results in runs {
            var counts: [String: (runs: Int, firstPass: Int, passed: Int, checksPassed: Int, checks: Int)] = [:]
            for result in results.flatMap(\.steps) where result.status != .skipped {
                guard let step = result.step?.rawValue else { continue }
                var count = counts[step] ?? (0, 0, 0, 0, 0)
                count.runs += 1
                if result.firstPassValid { count.firstPass += 1 }
                if result.status == .valid, result.failedChecks.isEmpty { count.passed += 1 }
                count.checks += result.checks.count
                count.checksPassed += result.checks.count - result.failedChecks.count
                counts[step] = count
            }
            for (step, count) in counts {
                var entry = perStep[step] ?? ([], [], [], 0)
                entry.firstPass.append(Double(count.firstPass) / Double(count.runs))
                entry.pass.append(Double(count.passed) / Double(count.runs))
                entry.checks.append(count.checks == 0 ? 1 : Double(count.checksPassed) / Double(count.checks))
                entry.runs += count.runs
                perStep[step] = entry
            }
        }
        steps = PipelineStep.allCases.map(\.rawValue).compactMap { step in
            perStep[step].map {
                StepStatistics(
                    step: step, runs: $0.runs, firstPassValidity: Spread($0.firstPass), passRate: Spread($0.pass),
                    checkPassRate: Spread($0.checks), requiredPassRate: requiredPassRates[step] ?? requiredPassRates["*"])
            }
        }

        var outcomes: [String: (fixture: String, step: String, check: String, passed: Int, runs: Int)] = [:]
        var order: [String] = []
        for results in runs {
            for fixture in results {
                for result in fixture.steps {
                    for check in result.checks {
                        let key = "\(fixture.fixture)\u{0}\(result.id)\u{0}\(check.name)"
                        if outcomes[key] == nil { order.append(key) }
                        var outcome = outcomes[key] ?? (fixture.fixture, result.id.description, check.name, 0, 0)
                        outcome.runs += 1
                        if check.passed { outcome.passed += 1 }
                        outcomes[key] = outcome
                    }
                }
            }
        }
        flakyChecks = order.compactMap { key in
            guard let outcome = outcomes[key], outcome.passed > 0, outcome.passed < outcome.runs else { return nil }
            return FlakyCheck(fixture: outcome.fixture, step: outcome.step, check: outcome.check, passed: outcome.passed, runs: outcome.runs)
        }
    }

    /// Every step meets the pass rate asked of it.
    public var meetsRequirements: Bool { steps.allSatisfy(\.meetsRequirement) }

    /// The steps that fall short, as `program-draft: pass rate 60% < required 80%`.
    public var shortfalls: [String] {
        steps.filter { !$0.meetsRequirement }.map {
            "\($0.step): pass rate \(Self.percent($0.passRate.mean)) < required \(Self.percent($0.requiredPassRate ?? 0))"
        }
    }

    static func percent(_ value: Double) -> String {
        String(format: "%.0f%%", value * 100)
    }
}

extension RepeatStatistics {
    /// The per-step figures as table cells: the same columns in the terminal, markdown and HTML.
    public var tableHeader: [String] { ["step", "runs", "1st-pass valid", "pass rate", "checks passed", "required"] }

    public var tableRows: [[String]] {
        steps.map { step in
            [step.step, "\(step.runs)", Self.describe(step.firstPassValidity), Self.describe(step.passRate), Self.describe(step.checkPassRate),
             step.requiredPassRate.map { Self.percent($0) + (step.meetsRequirement ? " ✓" : " ✗") } ?? "-"]
        }
    }

    /// `83% (67–100%)`: the mean over repeats and the lowest and highest repeat.
    static func describe(_ spread: Spread) -> String {
        spread.min == spread.max ? percent(spread.mean) : "\(percent(spread.mean)) (\(percent(spread.min))–\(percent(spread.max)))"
    }

    /// `busy-parent/program-draft program.days-per-week: passed 2 of 3`.
    public var flakyLines: [String] {
        flakyChecks.map { "\($0.fixture)/\($0.step) \($0.check): passed \($0.passed) of \($0.runs)" }
    }
}
