import ArgumentParser
import Console
import Foundation
import Golden
import Intake
import Evaluation

/// `trainer-eval review`: walk the pending outputs one by one, a key press each.
struct ReviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "Review pending outputs one at a time: accept, reject or skip each with one key.",
        discussion: """
            Keys: a accept, r reject, s skip, q quit, ? help. Accepting an output whose checks passed \
            in golden and fail now asks first, since it records those failures as known. As a \
            reviewer, + signs the output and - rejects it, then asks for the reasons by number: \
            the label `trainer-eval label --pending` gives, kept beside the golden files. Needs an \
            interactive terminal; elsewhere use `trainer-eval diff`, `accept`, `reject` and `label`.
            """
    )

    @OptionGroup var projectOptions: ProjectOptions
    @OptionGroup var selection: GoldenSelection

    @Option(help: ArgumentHelp("Who labels outputs with + and -. Default: git's user.name.", valueName: "name"))
    var reviewer: String?

    func run() async throws {
        try selection.checkNames(in: projectOptions)
        guard isatty(0) == 1, !Terminal.isContinuousIntegration else {
            Terminal.standardError.writeLine(
                "error: review needs an interactive terminal. Use `\(Invocation.command) diff` to read the changes, then `\(Invocation.command) accept` or `\(Invocation.command) reject` with --fixture and --step.")
            throw ExitCode.badInput
        }
        var review = try selection.review(in: projectOptions)
        review.safety = try Failure.exitingOnError { try SafetyPolicy.load(layout: try projectOptions.layout()) }
        let items = try Failure.exitingOnError { try review.pending(where: selection.includes) }
        let keys = KeyReader()
        defer { keys.restore() }
        let project = try projectOptions.openProject()
        let labelling = (try? project.reviewLabels(variants: selection.variantOptions.variant)).map { labels in
            ReviewSession.Labelling(
                labels: labels, reviewer: project.reviewer(reviewer) ?? "", date: ReviewLabels.today())
        }
        let recorded = RecordedInterventions(layout: project.layout)
        try Failure.exitingOnError {
            try ReviewSession(review: review, keys: keys, out: .standardOutput, labelling: labelling, interventions: recorded.lines).walk(items)
        }
    }
}
