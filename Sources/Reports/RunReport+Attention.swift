import Golden
import Intake
import Pipeline

/// A step of a fixture, as the report lists it.
public struct ListedStep: Sendable {
    public var fixture: FixtureReport
    public var step: StepReport

    /// `fixture/step`: the name a reviewer reads, and the step's anchor in `index.html`.
    public var name: String { Self.name(fixture: fixture.name, step: step.id) }

    public static func name(fixture: String, step: String) -> String { "\(fixture)/\(step)" }
}

/// Steps with the same status for the same reason, listed as one entry: a prompt
/// change that makes every fixture's recording stale is one line, not thirty.
public struct AttentionGroup: Sendable {
    public var status: StepVerdict.Status
    public var steps: [ListedStep]
    /// The reason the steps share, with `*` for the fixture in file paths.
    var sharedSummary: String

    /// Why these steps need attention, in one line.
    public var summary: String { steps.count == 1 ? steps[0].step.summary : sharedSummary }
}

extension RunReport {
    /// The statuses that fail the gate, in the order a reviewer takes them.
    public static let attentionOrder: [StepVerdict.Status] = [.regression, .error, .stale, .changed, .new]

    /// The steps that fail the gate: regressions first, then errors, stale
    /// recordings, changed and new outputs, each in fixture order.
    public var needsAttention: [ListedStep] {
        Self.attentionOrder.flatMap(listed)
    }

    /// `needsAttention` in the same order, with the steps that share a reason together.
    public var attentionGroups: [AttentionGroup] {
        var groups: [AttentionGroup] = []
        var positions: [String: Int] = [:]
        for listed in needsAttention {
            let shared = ReportText.headline(listed.step.fullSummary.replacingOccurrences(of: "/\(listed.fixture.name)/", with: "/*/"))
            let key = listed.step.status.rawValue + "\n" + shared
            if let position = positions[key] {
                groups[position].steps.append(listed)
            } else {
                positions[key] = groups.count
                groups.append(AttentionGroup(status: listed.step.status, steps: [listed], sharedSummary: shared))
            }
        }
        return groups
    }

    /// What to do about the steps that need attention, one sentence per kind of problem,
    /// each naming the command (with backticks around it).
    public var nextSteps: [String] {
        let statuses = Set(needsAttention.map(\.step.status))
        var steps: [String] = []
        let variants = run.variantArguments
        if statuses.contains(.stale) {
            // Every repeat has its own recording: re-recording them needs the same --repeat.
            let repeating = (repeats?.repeats ?? 1) > 1 ? " --repeat \(repeats?.repeats ?? 1)" : ""
            let stale = keys(of: [.stale])
            let scope = StepKey.runArguments(covering: stale, through: lastSelectedStep(ofFixturesOf: stale))
            steps.append("Stale recordings: re-record them with `\(StaleRecordings.rerecordCommand)\(scope)\(repeating)\(variants)` (or a hosted provider), then review the new outputs.")
        }
        if !statuses.isDisjoint(with: [.regression, .changed, .new]) {
            let selection = StepKey.fixtureArguments(covering: keys(of: [.regression, .changed, .new])) + variants
            steps.append(
                "Changed outputs: review them with `\(Invocation.command) review\(selection)`, or read `\(Invocation.command) diff\(selection)` "
                + "and then `\(Invocation.command) accept\(selection)` or `\(Invocation.command) reject\(selection)`.")
        }
        if statuses.contains(.error) {
            steps.append("Errors: each step's message says what failed; a provider that cannot be reached needs its server running.")
        }
        if !orphans.isEmpty {
            steps.append("Orphaned golden files: `\(Invocation.command) accept --prune` deletes them.")
        }
        return steps
    }

    /// The steps needing attention with one of `statuses`, as golden keys.
    private func keys(of statuses: Set<StepVerdict.Status>) -> [StepKey] {
        needsAttention.filter { statuses.contains($0.step.status) }.map { StepKey(fixture: $0.fixture.name, step: $0.step.id) }
    }

    /// The latest model step the run took these steps' fixtures to: a re-recording goes
    /// as far as the run went (steps that waited on a stale one included), and no further.
    private func lastSelectedStep(ofFixturesOf keys: [StepKey]) -> PipelineStep? {
        let names = Set(keys.map(\.fixture))
        return fixtures.filter { names.contains($0.name) }
            .flatMap(\.steps)
            .filter { !Pipeline.wasNotSelected($0.outcome, note: $0.note) }
            .compactMap { StepID($0.id) }.filter(\.callsModel).max()?.step
    }

    /// Steps that fail only what already failed in golden.
    public var knownFailures: [ListedStep] {
        listed(.knownFailure)
    }

    /// Steps whose output is golden's but that fail checks golden has no result for.
    public var unapprovedChecks: [ListedStep] {
        listed(.unapprovedCheck)
    }

    /// How checks not approved yet become golden, said once under the lists.
    public static let unapprovedChecksNote =
        "New checks pass the gate until they are approved: `\(Invocation.command) run` leaves them pending and `\(Invocation.command) accept --checks` approves them where the output is unchanged."

    private func listed(_ status: StepVerdict.Status) -> [ListedStep] {
        steps(withStatus: status).map { ListedStep(fixture: $0.fixture, step: $0.step) }
    }
}
