import Foundation
import Golden
import JSONSchema

/// Two runs (or a run and golden) compared case by case: what improved,
/// regressed or changed between them.
public struct RunComparison: Sendable {
    public enum Change: String, Sendable, CaseIterable, Comparable {
        /// Checks fail now that passed before, or the step lost its output.
        case regressed
        /// Checks pass now that failed before, or the step gained an output.
        case improved
        /// Same checks passing, different output.
        case changed
        /// Only in the second run.
        case added
        /// Only in the first run.
        case removed
        case unchanged

        public static func < (lhs: Change, rhs: Change) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    public struct Case: Sendable, Hashable {
        /// `fixture/step`.
        public var key: String
        public var change: Change
        /// One line each: which checks moved, what failed.
        public var details: [String]
    }

    public let baseName: String
    public let headName: String
    public let cases: [Case]

    /// Compares `head` against `base`; steps that were skipped count as absent.
    public init(base: [StepRow], head: [StepRow], baseName: String, headName: String) {
        self.baseName = baseName
        self.headName = headName
        let before = Dictionary(base.filter { $0.outcome != "skipped" }.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(head.filter { $0.outcome != "skipped" }.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        var order: [String] = []
        for row in base + head where !order.contains(row.key) && (before[row.key] != nil || after[row.key] != nil) { order.append(row.key) }
        cases = order.map { key in Self.compare(key: key, before: before[key], after: after[key]) }
    }

    static func compare(key: String, before: StepRow?, after: StepRow?) -> Case {
        guard let before else { return Case(key: key, change: .added, details: []) }
        guard let after else { return Case(key: key, change: .removed, details: []) }
        if before.producedOutput, !after.producedOutput {
            return Case(key: key, change: .regressed, details: ["no output now" + (after.failure.map { ": \($0)" } ?? " (\(after.outcome))")])
        }
        if !before.producedOutput, after.producedOutput {
            return Case(key: key, change: .improved, details: ["has an output now" + (before.failure.map { " (before: \($0))" } ?? "")])
        }
        let nowFailing = after.failedCheckNames.intersection(before.passedCheckNames).sorted()
        let nowPassing = after.passedCheckNames.intersection(before.failedCheckNames).sorted()
        var details: [String] = []
        if !nowFailing.isEmpty { details.append("now failing: " + nowFailing.joined(separator: ", ")) }
        if !nowPassing.isEmpty { details.append("now passing: " + nowPassing.joined(separator: ", ")) }
        // Two unusable replies (an approved known failure and its replay) have no output to compare.
        let outputChanged = before.producedOutput && before.outputFingerprint != after.outputFingerprint
        if outputChanged { details.append("the output differs") }
        let change: Change = !nowFailing.isEmpty ? .regressed : !nowPassing.isEmpty ? .improved : outputChanged ? .changed : .unchanged
        return Case(key: key, change: change, details: details)
    }

    public func count(_ change: Change) -> Int {
        cases.filter { $0.change == change }.count
    }

    /// The approved golden outputs as rows, so a run can be compared with golden.
    public static func goldenRows(store: any GoldenStorage) throws -> [StepRow] {
        try store.entries(pending: false).compactMap { key in
            guard let entry = try store.approved(fixture: key.fixture, step: key.step) else { return nil }
            // An approved unusable reply is a known failure: golden has no output there either.
            let usable = entry.checks[GoldenComparison.usableOutputCheck] != false
            return StepRow(
                runId: "golden", fixture: key.fixture, stepId: key.step, status: usable ? "matches" : "known-failure",
                outcome: usable ? "valid" : "invalid",
                failedChecks: entry.checks.filter { !$0.value }.map(\.key), passedChecks: entry.checks.filter(\.value).map(\.key),
                output: entry.output)
        }
    }
}
