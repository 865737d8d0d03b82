import ArgumentParser
import Console
import Evaluation
import Golden

/// `trainer-eval unsafe`: the approved outputs that fail a safety check, and allowing them for a reason.
struct UnsafeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unsafe",
        abstract: "List the approved outputs that fail a safety check, each with the reason it was allowed, if any.",
        discussion: """
            Safety checks are the ones prompts/coaching/check-severity.yaml names. An approved output \
            that fails one should be fixed (change the prompt in a variant, record, accept) or allowed \
            for a reason a reviewer stands by: --allow REASON keeps that reason beside each selected \
            output no allowance covers yet. Exits 1 when an approved output fails a safety check and \
            nothing allows it, 0 otherwise.
            """
    )

    @OptionGroup var projectOptions: ProjectOptions
    @OptionGroup var selection: GoldenSelection

    @Option(help: ArgumentHelp("Allow the selected outputs no allowance covers yet, for this reason.", valueName: "reason"))
    var allow: String?

    @Option(help: ArgumentHelp("Who gives --allow's reason. Default: git's user.name.", valueName: "name"))
    var reviewer: String?

    func run() async throws {
        try selection.checkNames(in: projectOptions)
        let project = try projectOptions.openProject()
        var review = GoldenReview(store: try selection.store(in: projectOptions))
        review.safety = try Failure.exitingOnError { try SafetyPolicy.load(layout: project.layout) }
        let printer = UnsafePrinter(terminal: .standardOutput)
        if let allow {
            let approval = GoldenReview.UnsafeApproval(
                reason: allow, reviewer: project.reviewer(reviewer) ?? "unknown", date: ReviewLabels.today())
            printer.printAllowed(try Failure.exitingOnError { try review.allowApprovedUnsafe(where: selection.includes, for: approval) })
        }
        let found = try Failure.exitingOnError { try review.approvedUnsafe(where: selection.includes) }
        printer.print(found, policy: review.safety, scope: selection.arguments)
        if found.contains(where: { $0.allowance == nil }) { throw ExitCode.failure }
    }
}
