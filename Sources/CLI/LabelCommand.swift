import ArgumentParser
import Console
import Evaluation
import Foundation
import Golden
import Storage

extension ReviewLabel.Verdict: ExpressibleByArgument {}

/// `trainer-eval label`: a reviewer signs or rejects one output.
struct LabelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "label",
        abstract: "Sign or reject an output as a reviewer, with the reasons; `agreement` measures the checks against these labels.",
        discussion: """
            The label is kept beside the step's golden files as <step>.review.json: the verdict, \
            the reasons, the note, the reviewer, the date and the SHA-256 of the output judged. \
            Once the output changes the label is stale and no longer counted. Reasons come from \
            prompts/coaching/review-reasons.yaml; a rejection needs at least one.
            """
    )

    @OptionGroup var projectOptions: ProjectOptions

    @Argument(help: ArgumentHelp("The fixture.", valueName: "fixture"))
    var fixture: String

    @Argument(help: ArgumentHelp("The step: goal-options, goal-options-edit-N, program-draft or program-edit.", valueName: "step"))
    var step: String

    @Argument(help: ArgumentHelp("sign (fit to show the person as it is) or reject.", valueName: "sign|reject"))
    var verdict: ReviewLabel.Verdict

    @Option(help: ArgumentHelp("Why it is rejected: a reason id from prompts/coaching/review-reasons.yaml (repeatable).", valueName: "reason"))
    var reason: [String] = []

    @Option(help: ArgumentHelp("What a colleague should know: the faults, briefly quoted.", valueName: "text"))
    var note: String?

    @Option(help: ArgumentHelp("Who reviews. Default: git's user.name.", valueName: "name"))
    var reviewer: String?

    @Flag(help: "Label the step's pending output (the one `accept` would approve) instead of its approved one.")
    var pending = false

    @OptionGroup var variantOptions: VariantOptions

    func run() async throws {
        let project = try projectOptions.openProject()
        let request = ReviewLabels.Request(
            fixture: fixture, step: step, verdict: verdict, reasons: reason, note: note,
            reviewer: project.reviewer(reviewer) ?? "", date: ReviewLabels.today(), pending: pending)
        let written = try Failure.exitingOnError { try project.reviewLabels(variants: variantOptions.variant).label(request) }
        LabelPrinter(terminal: .standardOutput).print(written)
    }
}
