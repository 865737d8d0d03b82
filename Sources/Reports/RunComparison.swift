import Foundation
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
    /// The cases both runs produced, paired: is the head better than the base?
    public let verdict: PairedVerdict
    /// With repeats in both runs: each case's share of passing repeats, paired by
    /// fixture, step and repeat; nil when either run has no repeats.
    public let repeats: RepeatComparison?

    /// Compares `head` against `base`; steps that were skipped count as absent.
    public init<Step: ComparedStep>(base: [Step], head: [Step], baseName: String, headName: String) {
        self.baseName = baseName
        self.headName = headName
        let before = Dictionary(base.filter { $0.outcome != "skipped" }.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(head.filter { $0.outcome != "skipped" }.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        var order: [String] = []
        for row in base + head where !order.contains(row.key) && (before[row.key] != nil || after[row.key] != nil) { order.append(row.key) }
        cases = order.map { key in Self.compare(key: key, before: before[key], after: after[key]) }
        let pairs = order.compactMap { key in before[key].flatMap { a in after[key].map { (a: a, b: $0) } } }
        verdict = PairedVerdict(pairs: pairs)
        repeats = RepeatComparison(pairs: pairs)
    }

    static func compare<Step: ComparedStep>(key: String, before: Step?, after: Step?) -> Case {
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
}

/// One fixture step of a run as a comparison reads it: whether it produced an
/// output, which checks passed and failed, and a fingerprint of the output.
public protocol ComparedStep {
    /// `fixture/step`.
    var key: String { get }
    /// `valid`, `invalid`, `error` or `skipped`.
    var outcome: String { get }
    /// `kind: message` when the step failed.
    var failure: String? { get }
    var failedCheckNames: Set<String> { get }
    var passedCheckNames: Set<String> { get }
    /// Fingerprint of the output's canonical JSON; nil without an output.
    var outputFingerprint: String? { get }
    /// The call's figures; zero where there was no call (a golden row).
    var inputTokens: Int { get }
    var outputTokens: Int { get }
    var latencySeconds: Double { get }
    /// Every repeat of the step under `run --repeat N`; nil for a run without repeats (and golden).
    var repeats: [RepeatRecord]? { get }
}

extension ComparedStep {
    /// A valid output came out of the step.
    public var producedOutput: Bool { outcome == "valid" }

    public var repeats: [RepeatRecord]? { nil }
}
