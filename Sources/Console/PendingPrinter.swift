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
        for (label, item) in items {
            let track = label.map { "[\($0)] " } ?? ""
            out.writeLine(track + out.styled(item.kind, .yellow) + " \(item.key): \(item.diff.summary)")
            if withDiffs { out.writeLine(item.diff.rendered(color: out.usesColor, indent: "    ")) }
        }
        out.writeLine("\(items.count) pending.")
        let latest = items.isEmpty ? try? project.history().staleStepsOfLatestRun() : nil
        let count = latest?.steps.filter(includes).count ?? 0
        if let latest, count > 0 {
            out.writeLine(
                "The latest run (\(latest.run)) could not compare \(count) step\(count == 1 ? "" : "s") with golden because \(count == 1 ? "its recording is" : "their recordings are") stale: "
                + "`\(Invocation.command) run` says what changed; re-record with `\(StaleRecordings.rerecordCommand)\(latest.variantArguments)`, then review here.")
        }
    }
}
