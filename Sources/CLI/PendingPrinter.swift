import Console
import Evaluation
import Golden
import Intake

/// Prints the selected pending outputs, one line each, optionally with their diffs:
/// without `--variant` every track's (the base's and each variant folder's, labelled),
/// with it the selected track's.
struct PendingPrinter {
    let projectOptions: ProjectOptions
    let selection: GoldenSelection

    func print(withDiffs: Bool) throws {
        try selection.checkNames(in: projectOptions)
        let layout = try projectOptions.layout()
        let reviews = selection.variantOptions.variant.isEmpty
            ? try Failure.exitingOnError { try GoldenReview.everyTrack(layout: layout) }
            : [try selection.review(in: projectOptions)]
        let items = try Failure.exitingOnError {
            try reviews.flatMap { review in try review.pending(where: selection.includes).map { (label: review.trackLabel, item: $0) } }
        }
        let out = Terminal.standardOutput
        for (label, item) in items {
            let track = label.map { "[\($0)] " } ?? ""
            out.writeLine(track + out.styled(item.kind, .yellow) + " \(item.key): \(item.diff.summary)")
            if withDiffs { out.writeLine(item.diff.rendered(color: out.usesColor, indent: "    ")) }
        }
        out.writeLine("\(items.count) pending.")
        // Nothing pending may only mean nothing could be compared: say so when recordings were stale.
        let latest = items.isEmpty ? try? Project(layout: layout).history().staleStepsOfLatestRun() : nil
        let count = latest?.steps.filter(selection.includes).count ?? 0
        if let latest, count > 0 {
            out.writeLine(
                "The latest run (\(latest.run)) could not compare \(count) step\(count == 1 ? "" : "s") with golden because \(count == 1 ? "its recording is" : "their recordings are") stale: "
                + "`\(Invocation.command) run` says what changed; re-record with `\(StaleRecordings.rerecordCommand)\(latest.variantArguments)`, then review here.")
        }
    }
}
