import Foundation
import Intake
import Statistics
import Storage

/// How well the checks agree with reviewers: each labelled output's verdict (sign or
/// reject) against the checks' (all pass, or one fails), over the fresh labels of the
/// outputs a run judged.
///
/// A reviewer's reject is the positive class on one side, a failing check on the other.
/// Where they disagree, the reviewer is taken as right: a rejected output that passes
/// every check is a blind spot of the checks, a signed one that fails a check is a false alarm.
public struct Agreement: Codable, Sendable, Hashable {
    /// What the checks made of one labelled output.
    public struct Judged: Sendable, Hashable {
        public var key: StepKey
        /// `options` or `program`.
        public var kind: String
        /// The checks that failed on it (`output.usable` for a reply that could not be used); empty when all passed.
        public var failedChecks: [String]
        /// The run's output is the approved one (its verdict says the output is unchanged);
        /// false when it differed, failed or was not run.
        public var isApprovedOutput: Bool

        public init(key: StepKey, kind: String, failedChecks: [String], isApprovedOutput: Bool) {
            (self.key, self.kind, self.failedChecks, self.isApprovedOutput) = (key, kind, failedChecks, isApprovedOutput)
        }
    }

    /// The 2×2 table of one kind of output, with its agreement and κ.
    public struct Matrix: Codable, Sendable, Hashable {
        /// `options`, `program`, or `all`.
        public var kind: String
        /// Reviewer rejects, a check fails.
        public var caught: Int
        /// Reviewer rejects, every check passes.
        public var blindSpots: Int
        /// Reviewer signs, a check fails.
        public var falseAlarms: Int
        /// Reviewer signs, every check passes.
        public var passed: Int
        /// The share of outputs where the checks and the reviewer agree; nil with none.
        public var agreement: Double?
        /// Cohen's κ; nil where it is undefined (every output on one side of both).
        public var kappa: Double?
        public var kappaLower: Double?
        public var kappaUpper: Double?

        public var count: Int { caught + blindSpots + falseAlarms + passed }

        init(kind: String, caught: Int, blindSpots: Int, falseAlarms: Int, passed: Int) {
            (self.kind, self.caught, self.blindSpots, self.falseAlarms, self.passed) = (kind, caught, blindSpots, falseAlarms, passed)
            let table = CohenKappa(both: caught, onlyFirst: blindSpots, onlySecond: falseAlarms, neither: passed)
            agreement = table.observedAgreement
            kappa = table.kappa
            kappaLower = table.interval95?.lower
            kappaUpper = table.interval95?.upper
        }

        /// False alarms as a share of the outputs; nil with none.
        public var falseAlarmShare: Double? { count == 0 ? nil : Double(falseAlarms) / Double(count) }
    }

    /// One check's record against the reviewers.
    public struct CheckRecord: Codable, Sendable, Hashable {
        public var check: String
        /// Labelled outputs it failed.
        public var failed: Int
        /// Of those, the ones the reviewer rejected.
        public var rejected: Int
        /// `rejected / failed`: how often its failure is a reviewer's reject too.
        public var precision: Double? { failed == 0 ? nil : Double(rejected) / Double(failed) }
    }

    /// Outputs grouped under one name (a reason, or a check).
    public struct Group: Codable, Sendable, Hashable {
        public var name: String
        /// `fixture/step`, sorted.
        public var outputs: [String]

        public init(name: String, outputs: [String]) {
            self.name = name
            self.outputs = outputs
        }
    }

    /// `options`, `program` and `all`, in that order; kinds without labelled outputs left out (`all` is always there).
    public var matrices: [Matrix]
    /// Every check that failed on a counted output, by name.
    public var checks: [CheckRecord]
    /// Outputs a reviewer rejected and every check passed, by the reviewer's reasons.
    public var blindSpots: [Group]
    /// Outputs a reviewer signed and a check failed, by check.
    public var falseAlarms: [Group]
    /// Labels whose output has changed since they were given: never counted.
    public var stale: [String]
    /// Fresh labels of outputs this run did not judge as approved (not run, or different now).
    public var notJudged: [String]

    /// The figures over every kind of output.
    public var overall: Matrix { matrices.first { $0.kind == "all" } ?? Matrix(kind: "all", caught: 0, blindSpots: 0, falseAlarms: 0, passed: 0) }

    /// The agreement of `labelled` outputs with the checks' verdicts in `judged`, the
    /// run's model steps by key: a label counts when it is fresh and the run judged the
    /// very output it labels. Labels of steps outside the run are left out.
    public init(labelled: [Labelled], judged: [StepKey: Judged]) {
        var counted: [(label: ReviewLabel, judged: Judged)] = []
        var stale: [String] = []
        var notJudged: [String] = []
        for entry in labelled.sorted(by: { $0.key < $1.key }) {
            guard let output = judged[entry.key] else { continue }
            guard entry.isFresh else {
                stale.append(entry.key.description)
                continue
            }
            guard output.isApprovedOutput else {
                notJudged.append(entry.key.description)
                continue
            }
            counted.append((entry.label, output))
        }
        self.stale = stale
        self.notJudged = notJudged

        func matrix(_ kind: String, _ cases: [(label: ReviewLabel, judged: Judged)]) -> Matrix {
            var cells = (caught: 0, blind: 0, alarm: 0, passed: 0)
            for (label, output) in cases {
                switch (label.verdict, output.failedChecks.isEmpty) {
                case (.reject, false): cells.caught += 1
                case (.reject, true): cells.blind += 1
                case (.sign, false): cells.alarm += 1
                case (.sign, true): cells.passed += 1
                }
            }
            return Matrix(kind: kind, caught: cells.caught, blindSpots: cells.blind, falseAlarms: cells.alarm, passed: cells.passed)
        }
        matrices = ["options", "program"].compactMap { kind in
            let cases = counted.filter { $0.judged.kind == kind }
            return cases.isEmpty ? nil : matrix(kind, cases)
        } + [matrix("all", counted)]

        var records: [String: CheckRecord] = [:]
        var blind: [String: [String]] = [:]
        var alarms: [String: [String]] = [:]
        for (label, output) in counted {
            for check in Set(output.failedChecks) {
                records[check, default: CheckRecord(check: check, failed: 0, rejected: 0)].failed += 1
                if label.verdict == .reject { records[check]?.rejected += 1 }
                if label.verdict == .sign { alarms[check, default: []].append(output.key.description) }
            }
            if label.verdict == .reject, output.failedChecks.isEmpty {
                for reason in label.reasons { blind[reason, default: []].append(output.key.description) }
            }
        }
        checks = records.values.sorted { ($0.check) < ($1.check) }
        func groups(_ byName: [String: [String]]) -> [Group] {
            byName.map { Group(name: $0.key, outputs: $0.value.sorted()) }
                .sorted { ($1.outputs.count, $0.name) < ($0.outputs.count, $1.name) }
        }
        blindSpots = groups(blind)
        falseAlarms = groups(alarms)
    }

    /// Nothing was labelled, or nothing labelled could be counted.
    public var isEmpty: Bool { overall.count == 0 && stale.isEmpty && notJudged.isEmpty }
}

extension GoldenStorage {
    /// Every label the store holds, each with the digest of its step's approved output now.
    public func labelled() throws(GoldenError) -> [Labelled] {
        var labelled: [Labelled] = []
        for key in labelledEntries() {
            guard let label = try label(key) else { continue }
            labelled.append(Labelled(key: key, label: label, approvedDigest: try approved(key)?.outputDigest))
        }
        return labelled
    }
}
