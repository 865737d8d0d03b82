import Foundation
import JSONSchema

/// Two runs (or a run and golden) compared case by case: what improved,
/// regressed or changed between them.
public struct RunComparison: Sendable {
    public enum Change: String, Sendable, CaseIterable, Comparable {
        /// Checks fail now that passed before, or the output became invalid.
        case regressed
        /// Checks pass now that failed before, or the output became valid.
        case improved
        /// Same checks passing, different output.
        case changed
        /// Produced by the head run only: the base has no row for it, or its step
        /// errored or was skipped. Not a pair, so never a regression or an improvement.
        case onlyInHead = "only-in-head"
        /// Produced by the base run only.
        case onlyInBase = "only-in-base"
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

    /// What each side ran, as the comparison names it: `base`, a variant's label
    /// (`goal-options=three-short`), or `golden`.
    public let baseName: String
    public let headName: String
    /// The run ids behind the names; nil for golden.
    public let baseRunID: String?
    public let headRunID: String?
    public let cases: [Case]
    /// The cases both runs produced, paired: is the head better than the base?
    public let verdict: PairedVerdict
    /// With repeats in both runs: each case's share of passing repeats, paired by
    /// fixture, step and repeat; nil when either run has no repeats.
    public let repeats: RepeatComparison?

    /// Compares `head` against `base`. Only the cases both runs produced (`wasProduced`)
    /// are paired; a case one run did not produce is only in the other, and a case
    /// neither produced is left out.
    public init<Step: ComparedStep>(
        base: [Step], head: [Step], baseName: String, headName: String, baseRunID: String? = nil, headRunID: String? = nil
    ) {
        self.baseName = baseName
        self.headName = headName
        self.baseRunID = baseRunID
        self.headRunID = headRunID
        let before = Dictionary(base.filter(\.wasProduced).map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(head.filter(\.wasProduced).map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let headRows = Dictionary(head.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let baseRows = Dictionary(base.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        var order: [String] = []
        var seen = Set<String>()
        for row in base + head where (before[row.key] != nil || after[row.key] != nil) && seen.insert(row.key).inserted { order.append(row.key) }
        cases = order.map { key in
            Self.compare(key: key, before: before[key], after: after[key], missingBase: baseRows[key], missingHead: headRows[key])
        }
        let pairs = order.compactMap { key in before[key].flatMap { a in after[key].map { (a: a, b: $0) } } }
        verdict = PairedVerdict(pairs: pairs)
        // Repeats are paired one by one, so a case one run did not produce as a whole
        // may still have repeats both runs produced.
        let rowPairs = order.compactMap { key in baseRows[key].flatMap { a in headRows[key].map { (a: a, b: $0) } } }
        repeats = RepeatComparison(pairs: rowPairs)
    }

    /// The cases only one run produced: `only-in-base` and `only-in-head`.
    public var onlyInBase: Int { count(.onlyInBase) }
    public var onlyInHead: Int { count(.onlyInHead) }

    static func compare<Step: ComparedStep>(key: String, before: Step?, after: Step?, missingBase: Step? = nil, missingHead: Step? = nil) -> Case {
        guard let before else { return Case(key: key, change: .onlyInHead, details: [Self.notProduced(missingBase)]) }
        guard let after else { return Case(key: key, change: .onlyInBase, details: [Self.notProduced(missingHead)]) }
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

    /// Why the other run has nothing to pair with: `no row`, `skipped`, `missing-recording: …`.
    private static func notProduced<Step: ComparedStep>(_ step: Step?) -> String {
        guard let step else { return "not run there" }
        return "not produced there: " + (step.failure ?? step.outcome)
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

    /// The model answered and the answer was judged: a valid or an invalid output. A
    /// step that errored (a failed call, a missing or stale recording) or was skipped
    /// produced nothing to judge, so it says nothing about the prompt.
    public var wasProduced: Bool { outcome == "valid" || outcome == "invalid" }

    public var repeats: [RepeatRecord]? { nil }
}
