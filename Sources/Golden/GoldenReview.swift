import Foundation
import Diff
import Intake
import JSONSchema
import Pipeline
import Storage

/// The insta-style review of pending outputs: what waits for approval and how each
/// differs from golden, accepting or rejecting a selection of them, the answers of an
/// interactive review, and pruning the golden files of steps no fixture produces.
///
/// `pending`, `diff`, `review`, `accept` and `reject` are views of this; the command
/// line only reads keys and prints.
public struct GoldenReview: Sendable {
    /// One pending output and how it differs from its approved one.
    public struct Item: Sendable {
        public var key: StepKey
        public var approved: GoldenEntry?
        public var pending: GoldenEntry
        public var diff: GoldenDiff

        /// `new` when nothing is approved yet, else `changed`.
        public var kind: String { approved == nil ? "new" : "changed" }

        /// Checks that passed in golden and fail now: accepting makes them known
        /// failures, so a reviewer is asked first.
        public var acceptsRegression: Bool { !diff.newlyFailing.isEmpty }
    }

    /// A reviewer's reason to approve outputs that fail safety checks (`--allow-unsafe`).
    public struct UnsafeApproval: Sendable, Hashable {
        public var reason: String
        public var reviewer: String
        /// `YYYY-MM-DD`.
        public var date: String

        public init(reason: String, reviewer: String, date: String) {
            (self.reason, self.reviewer, self.date) = (reason, reviewer, date)
        }
    }

    /// A reviewer's answer for one pending output.
    public enum Decision: Sendable, Hashable {
        case accept, reject, skip, quit
    }

    /// What applying a decision did.
    public enum Outcome: Sendable, Hashable {
        case accepted, rejected, skipped
        /// Nothing changed: the output is a regression, and accepting it needs confirming.
        case needsConfirmation
        /// Nothing changed: the output fails safety checks, and only `accept --allow-unsafe` with a reason approves it.
        case refusedUnsafe
        /// The review stops here; this output and the ones after it stay pending.
        case quit
    }

    /// How many outputs a review accepted, rejected and skipped so far.
    public struct Tally: Sendable, Hashable {
        public var accepted = 0
        public var rejected = 0
        public var skipped = 0

        public init() {}

        /// Counts what one decision did.
        public mutating func record(_ outcome: Outcome) {
            switch outcome {
            case .accepted: accepted += 1
            case .rejected: rejected += 1
            case .skipped: skipped += 1
            case .needsConfirmation, .refusedUnsafe, .quit: break
            }
        }
    }

    /// The golden files of an orphaned step that `prune` deleted.
    public struct Pruned: Sendable, Hashable {
        public var orphan: GoldenOrphan
        /// The fixture's folder went too, since the orphan's files were its last.
        public var removedFolder: Bool
    }

    /// What `accept` did, in the order it did it.
    public enum AcceptEvent: Sendable, Hashable {
        /// A pending output became golden.
        case accepted(StepKey)
        /// Every selected pending output is golden (these, possibly none); pruning comes next.
        case acceptedAll([StepKey])
        /// An orphaned step's files were deleted.
        case pruned(Pruned)
        /// A pending output fails these safety checks and was left pending: no reason to approve it was given.
        case refusedUnsafe(StepKey, [String])
        /// A pending output that fails these safety checks was approved for the reason given, kept beside it.
        case acceptedUnsafe(StepKey, [String])
    }

    /// What `accept` did.
    public struct Acceptance: Sendable, Hashable {
        /// The steps whose pending output became golden, in fixture and step order.
        public var accepted: [StepKey]
        /// The orphaned steps deleted, sorted; nil when no pruning was asked for.
        public var pruned: [Pruned]?
        /// Pending outputs left pending because they fail safety checks, with those checks.
        public var refused: [StepKey: [String]] = [:]
    }

    /// A check result `accept --checks` approved, from what golden recorded to what it records now.
    public struct CheckChange: Sendable, Hashable, Comparable {
        public var name: String
        /// The result golden had; nil for a check new to the output.
        public var approved: Bool?
        /// The result golden has now; nil for a check that no longer runs on the output.
        public var accepted: Bool?

        public init(name: String, approved: Bool?, accepted: Bool?) {
            self.name = name
            self.approved = approved
            self.accepted = accepted
        }

        /// `new, fails`, `passed, fails now`, `no longer runs`...
        public var description: String {
            switch (approved, accepted) {
            case (nil, true?): "new, passes"
            case (nil, false?): "new, fails"
            case (true?, false?): "passed, fails now"
            case (false?, true?): "failed, passes now"
            case (_, nil): "no longer runs"
            case (true?, true?), (false?, false?): "unchanged"
            }
        }

        public static func < (lhs: CheckChange, rhs: CheckChange) -> Bool {
            (lhs.name, lhs.description) < (rhs.name, rhs.description)
        }
    }

    /// What `accept --checks` did.
    public struct CheckAcceptance: Sendable, Hashable {
        /// A pending output left pending, and why.
        public struct Skipped: Sendable, Hashable {
            public var key: StepKey
            public var reason: String
        }

        /// The steps whose pending check results became golden, in fixture and step order.
        public var accepted: [StepKey] = []
        /// How many accepted steps each check result changed on.
        public var changes: [CheckChange: Int] = [:]
        /// Pending outputs whose output differs from golden (or that have none yet), left pending.
        public var skipped: [Skipped] = []
    }

    public let store: any GoldenStorage
    /// Which checks guard the person's safety: an output failing one is approved only with a reason.
    public var safety: SafetyPolicy = .none
    /// The base's approved outputs, beside a variant's new ones; nil when reviewing the base.
    public var baseStore: (any GoldenStorage)?
    /// The variant label of the track reviewed; nil for the base.
    public var trackLabel: String?
    /// How a step's outputs are diffed, by fixture step id (from each step's `prompt.yaml`).
    public let diffOptions: @Sendable (String) -> JSONDiff.Options

    public init(store: any GoldenStorage, diffOptions: @escaping @Sendable (String) -> JSONDiff.Options = { _ in .init() }) {
        self.store = store
        self.diffOptions = diffOptions
    }

    /// The project's golden folder (through the variants' folder when some are
    /// selected), diffed with each step's declared options.
    public init(layout: ProjectLayout, variants: VariantSelection = .none) throws(PromptLibraryError) {
        let prompts = try PromptLibrary(layout: layout, variants: variants)
        self.init(store: GoldenStore.forRun(golden: layout.golden, track: variants.track)) { prompts.diffOptions(forStep: $0) }
        if let track = variants.track {
            baseStore = GoldenStore(folder: layout.golden)
            trackLabel = track.label
        }
    }

    /// Every track's review, the base first, then each variant folder under
    /// `golden/variants/` by label: what `pending` and `diff` list without `--variant`.
    /// A variant's review holds only its own folder's outputs (the steps before its
    /// first variant are the base's), with the base's approved outputs beside its new ones.
    public static func everyTrack(layout: ProjectLayout) throws(PromptLibraryError) -> [GoldenReview] {
        let baseReview = try GoldenReview(layout: layout)
        let variantsFolder = layout.golden.appendingPathComponent(VariantTrack.folderName, isDirectory: true)
        let labels = ((try? FileManager.default.contentsOfDirectory(atPath: variantsFolder.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        return [baseReview] + labels.map { label in
            var review = GoldenReview(
                store: GoldenStore(folder: variantsFolder.appendingPathComponent(label, isDirectory: true)), diffOptions: baseReview.diffOptions)
            review.baseStore = baseReview.store
            review.trackLabel = label
            return review
        }
    }

    // MARK: Pending

    /// The pending outputs the selection includes, with their diffs, in fixture and step order.
    public func pending(where includes: (StepKey) -> Bool = { _ in true }) throws(GoldenError) -> [Item] {
        var items: [Item] = []
        for key in store.entries(pending: true) where includes(key) {
            if let item = try item(key) { items.append(item) }
        }
        return items
    }

    /// One step's pending output with its diff; nil when nothing is pending for it.
    public func item(_ key: StepKey) throws(GoldenError) -> Item? {
        guard let pending = try store.pending(key) else { return nil }
        let approved = try store.approved(key)
        let baseApproved = approved == nil ? try baseStore?.approved(key) : nil
        let diff = GoldenDiff(approved: approved, pending: pending, options: diffOptions(key.step), baseApproved: baseApproved)
        return Item(key: key, approved: approved, pending: pending, diff: diff)
    }

    // MARK: Accept and reject

    /// Makes the selected pending outputs golden. With `pruning`, also deletes the golden
    /// files of the selected steps none of those fixtures produces (see `orphans`).
    ///
    /// The orphans are found before anything is accepted, and their pending outputs are
    /// not accepted: a pending output of a step that is going away is deleted with it,
    /// never promoted first. `onEvent` hears of each step as it is done, so a failure
    /// half-way still tells what went before it.
    ///
    /// A pending output that fails a safety check (`safety`) is left pending and
    /// reported, unless `approval` gives a reason to approve it: the reason is then kept
    /// beside its golden files, tied to the output.
    @discardableResult
    public func accept(
        where includes: (StepKey) -> Bool = { _ in true }, pruning fixtures: [Fixture]? = nil, allowingUnsafe approval: UnsafeApproval? = nil,
        onEvent: (AcceptEvent) -> Void = { _ in }
    ) throws -> Acceptance {
        let orphans = fixtures.map { self.orphans(producedBy: $0, where: includes) } ?? []
        let orphanedSteps = Set(orphans.map(\.key))
        var accepted: [StepKey] = []
        var refused: [StepKey: [String]] = [:]
        for key in store.entries(pending: true) where includes(key) && !orphanedSteps.contains(key) {
            let failures = try store.pending(key).map(safety.failures) ?? []
            if !failures.isEmpty {
                guard let approval else {
                    refused[key] = failures
                    onEvent(.refusedUnsafe(key, failures))
                    continue
                }
                try allow(key, failing: failures, for: approval)
                onEvent(.acceptedUnsafe(key, failures))
            }
            try store.accept(key)
            accepted.append(key)
            onEvent(.accepted(key))
        }
        onEvent(.acceptedAll(accepted))
        guard fixtures != nil else { return Acceptance(accepted: accepted, pruned: nil, refused: refused) }
        let pruned = try prune(orphans) { onEvent(.pruned($0)) }
        return Acceptance(accepted: accepted, pruned: pruned, refused: refused)
    }

    /// Keeps the reason to approve the step's pending output though it fails `failures`.
    private func allow(_ key: StepKey, failing failures: [String], for approval: UnsafeApproval) throws {
        guard let pending = try store.pending(key) else { return }
        try store.writeAllowance(
            UnsafeAllowance(
                checks: failures, reason: approval.reason, reviewer: approval.reviewer, date: approval.date, outputDigest: pending.outputDigest),
            for: key)
    }

    /// An approved output that fails safety checks, and the reason it was allowed, if one covers it.
    public struct ApprovedUnsafe: Sendable, Hashable {
        public var key: StepKey
        public var checks: [String]
        /// Nil when no allowance covers the output as it is (none was given, or the output changed since).
        public var allowance: UnsafeAllowance?
    }

    /// Every approved output the selection includes that fails a safety check, in fixture and step order.
    public func approvedUnsafe(where includes: (StepKey) -> Bool = { _ in true }) throws(GoldenError) -> [ApprovedUnsafe] {
        var found: [ApprovedUnsafe] = []
        for key in store.entries(pending: false) where includes(key) {
            guard let entry = try store.approved(key) else { continue }
            let failures = safety.failures(of: entry)
            guard !failures.isEmpty else { continue }
            let allowance = try store.allowance(key).flatMap { $0.covers(entry, failing: failures) ? $0 : nil }
            found.append(ApprovedUnsafe(key: key, checks: failures, allowance: allowance))
        }
        return found
    }

    /// Allows approved outputs that fail safety checks, for a reason: each selected one
    /// no allowance covers yet gets one. Returns what it allowed.
    public func allowApprovedUnsafe(where includes: (StepKey) -> Bool = { _ in true }, for approval: UnsafeApproval) throws -> [ApprovedUnsafe] {
        var allowed: [ApprovedUnsafe] = []
        for item in try approvedUnsafe(where: includes) where item.allowance == nil {
            guard let entry = try store.approved(item.key) else { continue }
            let allowance = UnsafeAllowance(
                checks: item.checks, reason: approval.reason, reviewer: approval.reviewer, date: approval.date, outputDigest: entry.outputDigest)
            try store.writeAllowance(allowance, for: item.key)
            allowed.append(ApprovedUnsafe(key: item.key, checks: item.checks, allowance: allowance))
        }
        return allowed
    }

    /// Makes golden the check results of the selected pending outputs whose output is
    /// the approved one (as the gate compares them, with each step's diff options),
    /// leaving approved outputs as they are: how the golden set is judged again after
    /// checks were added or changed. A pending output that differs, or that has
    /// nothing approved yet, stays pending and is listed as skipped.
    public func acceptChecks(where includes: (StepKey) -> Bool = { _ in true }) throws -> CheckAcceptance {
        var acceptance = CheckAcceptance()
        for item in try pending(where: includes) {
            guard let approved = item.approved else {
                acceptance.skipped.append(.init(key: item.key, reason: "no golden output yet; review it with `diff`"))
                continue
            }
            guard item.diff.json == nil, item.diff.markdown == nil else {
                acceptance.skipped.append(.init(key: item.key, reason: "output differs; review it with `diff`"))
                continue
            }
            try store.acceptChecks(item.key)
            acceptance.accepted.append(item.key)
            for name in Set(approved.checks.keys).union(item.pending.checks.keys) {
                let change = CheckChange(name: name, approved: approved.checks[name], accepted: item.pending.checks[name])
                if change.approved != change.accepted { acceptance.changes[change, default: 0] += 1 }
            }
        }
        return acceptance
    }

    /// Discards the selected pending outputs; golden stays as it is. Returns the steps
    /// whose pending output went, in fixture and step order.
    @discardableResult
    public func reject(where includes: (StepKey) -> Bool = { _ in true }) -> [StepKey] {
        let keys = store.entries(pending: true).filter(includes)
        for key in keys { store.reject(key) }
        return keys
    }

    // MARK: Interactive review

    /// Applies a reviewer's decision to one pending output. Accepting a regression
    /// (`Item.acceptsRegression`) changes nothing and answers `needsConfirmation`
    /// until it is `confirmed`.
    public func apply(_ decision: Decision, to item: Item, confirmed: Bool = false) throws -> Outcome {
        switch decision {
        case .accept:
            guard safety.failures(of: item.pending).isEmpty else { return .refusedUnsafe }
            guard !item.acceptsRegression || confirmed else { return .needsConfirmation }
            try store.accept(item.key)
            return .accepted
        case .reject:
            store.reject(item.key)
            return .rejected
        case .skip:
            return .skipped
        case .quit:
            return .quit
        }
    }

    // MARK: Prune

    /// Every model step the fixtures produce, as `run` over the whole suite would.
    public static func expectedSteps(of fixtures: [Fixture]) -> Set<StepKey> {
        var expected = Set<StepKey>()
        for fixture in fixtures {
            for id in FixturePlan(fixture).modelStepIDs { expected.insert(StepKey(fixture: fixture.name, id: id)) }
        }
        return expected
    }

    /// The golden files of the selected steps that none of `fixtures` produces, one
    /// orphan per step, sorted.
    public func orphans(producedBy fixtures: [Fixture], where includes: (StepKey) -> Bool = { _ in true }) -> [GoldenOrphan] {
        store.orphans(excluding: Self.expectedSteps(of: fixtures)).filter { includes($0.key) }
    }

    /// Deletes each orphan's files, and a fixture folder that leaves empty, in order.
    /// `onPruned` hears of each orphan as it goes.
    @discardableResult
    public func prune(_ orphans: [GoldenOrphan], onPruned: (Pruned) -> Void = { _ in }) throws(GoldenError) -> [Pruned] {
        var pruned: [Pruned] = []
        for orphan in orphans {
            let done = Pruned(orphan: orphan, removedFolder: try store.remove(orphan))
            pruned.append(done)
            onPruned(done)
        }
        return pruned
    }
}
