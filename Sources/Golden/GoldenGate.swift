import Diff
import Intake
import Pipeline
import Storage

/// What a run's results look like against golden: a verdict per model step, and
/// golden files no fixture step produces any more.
public struct GoldenReport: Sendable {
    public var verdicts: [StepVerdict]
    public var orphans: [GoldenOrphan]
    /// The approved entries the verdicts were judged against, for side-by-side reports.
    public var approved: [StepKey: GoldenEntry]

    public init(verdicts: [StepVerdict], orphans: [GoldenOrphan], approved: [StepKey: GoldenEntry] = [:]) {
        self.verdicts = verdicts
        self.orphans = orphans
        self.approved = approved
    }

    public func count(_ status: StepVerdict.Status) -> Int {
        verdicts.filter { $0.status == status }.count
    }

    /// The CI gate: every step matches golden (known failures and unapproved new checks
    /// allowed) and nothing is orphaned.
    public var passesGate: Bool {
        Gate.passes(verdicts.map(\.status), orphans: orphans.count, mode: .ci)
    }

    /// Failures that no approval can fix: regressions, stale recordings, errors.
    public var hasFailures: Bool {
        !Gate.passes(verdicts.map(\.status), orphans: orphans.count, mode: .development)
    }

    /// Marks the steps whose recording of a later repeat (`run --repeat N`) is missing
    /// or stale: replaying them would otherwise hand one repeat's answer to every repeat.
    /// `laterRepeats[i]` holds repeat i + 2's results. A step whose first repeat is
    /// already stale, an error or a regression keeps its verdict, with the reason added.
    public mutating func markStaleRepeats(_ laterRepeats: [[FixtureResult]]) {
        let positions = Dictionary(verdicts.indices.map { (verdicts[$0].key, $0) }, uniquingKeysWith: { first, _ in first })
        var marked = Set<StepKey>()
        for (offset, results) in laterRepeats.enumerated() {
            let repeatNumber = offset + 2
            for fixture in results {
                for result in fixture.steps {
                    guard let failure = result.failure, failure.kind.isStaleRecording else { continue }
                    let key = StepKey(fixture: fixture.fixture, id: result.id)
                    guard let position = positions[key], !marked.contains(key) else { continue }
                    marked.insert(key)
                    var verdict = verdicts[position]
                    verdict.reasons.insert("repeat \(repeatNumber): \(failure.kind): \(failure.message)", at: 0)
                    if [.matches, .knownFailure, .unapprovedCheck, .changed, .new, .skipped].contains(verdict.status) {
                        verdict.status = .stale
                        verdict.requestDiff = failure.detail
                        verdict.staleCauses = failure.causes ?? ["no recording of repeat \(repeatNumber)"]
                        verdict.staleRepeat = repeatNumber
                    }
                    verdicts[position] = verdict
                }
            }
        }
    }

    /// One line such as `golden: matches 40 · changed 3 · known-failure 2 · orphans 1`.
    public var summaryLine: String {
        Self.summaryLine(counts: Dictionary(verdicts.map { ($0.status, 1) }, uniquingKeysWith: +), orphans: orphans.count)
    }

    /// The summary line for these counts of model steps by status and of orphans.
    public static func summaryLine(counts: [StepVerdict.Status: Int], orphans: Int) -> String {
        var parts = StepVerdict.Status.allCases.compactMap { status in counts[status].map { "\(status.rawValue) \($0)" } }
        if orphans > 0 { parts.append("orphans \(orphans)") }
        return "golden: " + (parts.isEmpty ? "nothing to compare" : parts.joined(separator: " · "))
    }
}

/// Compares runs with golden and, outside CI, leaves pending outputs for review.
public struct GoldenGate: Sendable {
    public let store: any GoldenStorage
    /// How each step's outputs are diffed (from its `prompt.yaml`); standard when absent.
    public let diffOptions: [PipelineStep: JSONDiff.Options]

    public init(store: any GoldenStorage, diffOptions: [PipelineStep: JSONDiff.Options] = [:]) {
        self.store = store
        self.diffOptions = diffOptions
    }

    /// Compares every model step of `results` with golden. With `writesPending`, a
    /// changed or new output is written as pending and a pending file that no longer
    /// differs is removed. With `findsOrphans` (a run of the whole suite), the golden
    /// files of steps it did not produce (approved, pending or recorded) are reported.
    /// `judged` holds verdicts already reached while the run went on (see `judge`);
    /// the rest are judged now.
    public func evaluate(
        _ results: [FixtureResult], writesPending: Bool, findsOrphans: Bool, judged: [StepKey: Judgement] = [:]
    ) throws -> GoldenReport {
        var verdicts: [StepVerdict] = []
        var produced = Set<StepKey>()
        var approvedEntries: [StepKey: GoldenEntry] = [:]
        for fixture in results {
            for result in fixture.steps where result.step != nil {
                let key = StepKey(fixture: fixture.fixture, id: result.id)
                produced.insert(key)
                let judgement = try judged[key] ?? judge(result, fixture: fixture.fixture, writesPending: writesPending)
                approvedEntries[key] = judgement.approved
                verdicts.append(judgement.verdict)
            }
        }
        let orphans = findsOrphans ? store.orphans(excluding: produced) : []
        return GoldenReport(verdicts: verdicts, orphans: orphans, approved: approvedEntries)
    }

    /// A step's verdict and the golden entry it was judged against.
    public struct Judgement: Sendable {
        public var verdict: StepVerdict
        public var approved: GoldenEntry?

        public init(verdict: StepVerdict, approved: GoldenEntry?) {
            self.verdict = verdict
            self.approved = approved
        }
    }

    /// Judges one finished model step (and writes or clears its pending file), so a
    /// run can compare each step as soon as it finishes instead of all at the end.
    public func judge(_ result: StepResult, fixture: String, writesPending: Bool) throws -> Judgement {
        let key = StepKey(fixture: fixture, id: result.id)
        let judgement = judgement(of: result, fixture: fixture, against: try store.approved(key))
        if writesPending, result.status == .valid || result.status == .invalid {
            if judgement.verdict.needsApproval {
                try store.writePending(GoldenComparison.entry(for: result), for: key)
            } else {
                store.reject(key)
            }
        }
        return judgement
    }

    /// The judgement a gate will reach for the step once its pending output is accepted
    /// (see `GoldenStorage.approvedOnceAccepted`); nothing is written.
    public func judgeOnceAccepted(_ result: StepResult, fixture: String) throws -> Judgement {
        judgement(of: result, fixture: fixture, against: try store.approvedOnceAccepted(StepKey(fixture: fixture, id: result.id)))
    }

    private func judgement(of result: StepResult, fixture: String, against approved: GoldenEntry?) -> Judgement {
        let options = result.step.flatMap { diffOptions[$0] } ?? JSONDiff.Options(GoldenComparisonSettings.standard)
        let verdict = GoldenComparison.verdict(for: result, fixture: fixture, approved: approved, options: options)
        return Judgement(verdict: verdict, approved: Self.sharingOutput(approved, with: result))
    }

    /// `approved` holding the step's own output when the two are equal: a run keeps every
    /// judgement until its report is written, and one copy of an unchanged output is enough.
    static func sharingOutput(_ approved: GoldenEntry?, with result: StepResult) -> GoldenEntry? {
        guard var approved, let output = result.output, approved.output == output else { return approved }
        approved.output = output
        return approved
    }
}
