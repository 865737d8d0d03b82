import Evaluation
import Golden
import Intake
import Storage

/// `pending` and `diff`: the selected pending outputs of the tracks reviewed (the
/// base's and each variant's, labelled), one line each, with their diffs for `diff`.
public struct PendingPrinter {
    let out: Terminal

    public init(out: Terminal = .standardOutput) {
        self.out = out
    }

    /// When nothing is pending because the latest run could not compare stale steps, says
    /// so, with the command that re-records them: an empty list is not always a clean one.
    public func print(
        _ reviews: [GoldenReview], includes: (StepKey) -> Bool, withDiffs: Bool, project: Project
    ) throws(GoldenError) {
        var items: [(label: String?, item: GoldenReview.Item)] = []
        for review in reviews {
            items += try review.pending(where: includes).map { (review.trackLabel, $0) }
        }
        // The base's lines are labelled too once a variant's are listed beside them.
        let labelsBase = items.contains { $0.label != nil }
        for (label, item) in items {
            let track = label.map { "[\($0)] " } ?? (labelsBase ? "[base] " : "")
            out.writeLine(track + out.styled(item.kind, .yellow) + " \(item.key): \(item.diff.summary)")
            if withDiffs { out.writeLine(item.diff.rendered(color: out.usesColor, indent: "    ")) }
        }
        let tracks = Set(items.map(\.label)).count
        out.writeLine("\(items.count) pending" + (tracks > 1 ? " (\(Self.countsByTrack(items.map(\.label))))." : "."))
        let latest = items.isEmpty ? try? project.history().staleStepsOfLatestRun() : nil
        let count = latest?.steps.filter(includes).count ?? 0
        if let latest, count > 0 {
            out.writeLine(
                "The latest run (\(latest.run)) could not compare \(count) step\(count == 1 ? "" : "s") with golden because \(count == 1 ? "its recording is" : "their recordings are") stale: "
                + "`\(Invocation.command) run` says what changed; re-record with `\(StaleRecordings.rerecordCommand)\(StepKey.runArguments(covering: latest.steps))\(latest.variantArguments)`, then review here.")
        }
    }

    /// "base 1, v3 2": how many pending outputs each track holds, in listing order.
    static func countsByTrack(_ labels: [String?]) -> String {
        var order: [String] = []
        var counts: [String: Int] = [:]
        for label in labels.map({ $0 ?? "base" }) {
            if counts[label] == nil { order.append(label) }
            counts[label, default: 0] += 1
        }
        return order.map { "\($0) \(counts[$0]!)" }.joined(separator: ", ")
    }
}
