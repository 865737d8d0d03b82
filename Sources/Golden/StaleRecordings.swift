import Diff
import Intake
/// The stale recordings of a run, grouped by what made them stale: one edited
/// template makes every fixture's recording of that step stale at once, and the
/// reader needs the cause and its diff once, not once per fixture.
public struct StaleRecordings: Sendable {
    /// The steps one set of changes made stale.
    public struct Group: Sendable {
        /// What changed, each naming its file: `prompt template (prompts/goal-options/user.mustache)`.
        public var causes: [String]
        public var steps: [StepKey]
        /// The distinct request diffs, most common first, with the steps that share each.
        /// Diffs that change the same lines count as one, whatever their context.
        public var diffs: [(diff: String, steps: [StepKey])]
    }

    /// What re-records only the stale and missing recordings, for every message that says what to do.
    public static var rerecordCommand: String { "\(Invocation.command) run --provider local --record-missing" }

    public var groups: [Group]
    /// Steps that did not run because a step before them had no output to hand on.
    public var skippedAfter: Int
    /// The highest repeat whose recording is missing or stale: the `--repeat` a
    /// re-recording needs to reach it (1 without repeats).
    public var repeatsToRecord: Int

    /// The command that re-records what is stale, with `--repeat` when a later repeat needs it.
    public var rerecord: String {
        repeatsToRecord > 1 ? Self.rerecordCommand + " --repeat \(repeatsToRecord)" : Self.rerecordCommand
    }

    public init(_ report: GoldenReport) {
        let stale = report.verdicts.filter { $0.status == .stale }
        var order: [[String]] = []
        var byCauses: [[String]: [StepVerdict]] = [:]
        for verdict in stale {
            let causes = verdict.staleCauses.isEmpty ? ["the request"] : verdict.staleCauses
            if byCauses[causes] == nil { order.append(causes) }
            byCauses[causes, default: []].append(verdict)
        }
        groups = order.map { causes in
            let verdicts = byCauses[causes]!
            return Group(causes: causes, steps: verdicts.map(\.key), diffs: Self.distinctDiffs(verdicts))
        }
        let staleFixtures = Set(stale.map(\.key.fixture))
        skippedAfter = report.verdicts.filter { $0.status == .skipped && staleFixtures.contains($0.key.fixture) }.count
        repeatsToRecord = stale.compactMap(\.staleRepeat).max() ?? 1
    }

    public var isEmpty: Bool { groups.isEmpty }
    public var count: Int { groups.reduce(0) { $0 + $1.steps.count } }

    private static func distinctDiffs(_ verdicts: [StepVerdict]) -> [(diff: String, steps: [StepKey])] {
        var order: [String] = []
        var shared: [String: (diff: String, steps: [StepKey])] = [:]
        for verdict in verdicts {
            guard let diff = verdict.requestDiff else { continue }
            let changedLines = diff.split(separator: "\n")
                .filter { ($0.hasPrefix("+") || $0.hasPrefix("-")) && !$0.hasPrefix("+++") && !$0.hasPrefix("---") }
                .joined(separator: "\n")
            if shared[changedLines] == nil {
                order.append(changedLines)
                shared[changedLines] = (diff, [])
            }
            shared[changedLines]!.steps.append(verdict.key)
        }
        return order.map { shared[$0]! }.sorted { $0.steps.count > $1.steps.count }
    }
}
