import Pipeline

/// What a run's results look like against golden: a verdict per model step, and
/// golden entries no fixture produces any more.
public struct GoldenReport: Sendable {
    public var verdicts: [StepVerdict]
    public var orphans: [StepKey]
    /// The approved entries the verdicts were judged against, for side-by-side reports.
    public var approved: [StepKey: GoldenEntry]

    public init(verdicts: [StepVerdict], orphans: [StepKey], approved: [StepKey: GoldenEntry] = [:]) {
        self.verdicts = verdicts
        self.orphans = orphans
        self.approved = approved
    }

    public func count(_ status: StepVerdict.Status) -> Int {
        verdicts.filter { $0.status == status }.count
    }

    /// The CI gate: every step matches golden (known failures allowed) and nothing is orphaned.
    public var passesGate: Bool {
        verdicts.allSatisfy(\.passesGate) && orphans.isEmpty
    }

    /// Failures that no approval can fix: regressions, stale recordings, errors.
    public var hasFailures: Bool {
        verdicts.contains { [.regression, .stale, .error].contains($0.status) }
    }

    /// One line such as `golden: matches 40 · changed 3 · known-failure 2 · orphans 1`.
    public var summaryLine: String {
        var parts = StepVerdict.Status.allCases.compactMap { status in
            count(status) == 0 ? nil : "\(status.rawValue) \(count(status))"
        }
        if !orphans.isEmpty { parts.append("orphans \(orphans.count)") }
        return "golden: " + (parts.isEmpty ? "nothing to compare" : parts.joined(separator: " · "))
    }
}

/// Compares runs with golden and, outside CI, leaves pending outputs for review.
public struct GoldenGate: Sendable {
    public let store: GoldenStore

    public init(store: GoldenStore) {
        self.store = store
    }

    /// Compares every model step of `results` with golden. With `writesPending`, a
    /// changed or new output is written as pending and a pending file that no longer
    /// differs is removed. With `findsOrphans` (a run of the whole suite), golden
    /// entries no step produced are reported.
    public func evaluate(_ results: [FixtureResult], writesPending: Bool, findsOrphans: Bool) throws -> GoldenReport {
        var verdicts: [StepVerdict] = []
        var produced = Set<StepKey>()
        var approvedEntries: [StepKey: GoldenEntry] = [:]
        for fixture in results {
            for result in fixture.steps where result.step != nil {
                let key = StepKey(fixture: fixture.fixture, step: result.id)
                produced.insert(key)
                let approved = try store.approved(fixture: key.fixture, step: key.step)
                approvedEntries[key] = approved
                let verdict = GoldenComparison.verdict(for: result, fixture: fixture.fixture, approved: approved)
                if writesPending, result.status == .valid {
                    if verdict.needsApproval {
                        try store.writePending(GoldenComparison.entry(for: result), fixture: key.fixture, step: key.step)
                    } else {
                        store.reject(fixture: key.fixture, step: key.step)
                    }
                }
                verdicts.append(verdict)
            }
        }
        let orphans = findsOrphans ? store.entries(pending: false).filter { !produced.contains($0) } : []
        return GoldenReport(verdicts: verdicts, orphans: orphans, approved: approvedEntries)
    }
}
