import ArgumentParser
import Console
import Evaluation
import Foundation

/// `trainer-eval agreement`: the checks measured against reviewers' labels.
struct AgreementCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agreement",
        abstract: "Measure the checks against reviewers' labels: the matrix, Cohen's κ, each check's precision, blind spots and false alarms.",
        discussion: """
            Replays every fixture offline, as the gate does (nothing is written to golden/, \
            Reports/ or the history), and sets each fresh label (`trainer-eval label`) against \
            whether every check passed on the output it labels. A stale label (its output changed \
            since) is listed and not counted. With --min-agreement the command is a gate: it exits 1 \
            when the checks agree with the reviewers on fewer outputs than that share, overall or for \
            either kind of output.
            """
    )

    enum Format: String, ExpressibleByArgument {
        case text, json
    }

    @OptionGroup var projectOptions: ProjectOptions
    @OptionGroup var variantOptions: VariantOptions

    @Option(help: ArgumentHelp("text, or json (the object results.json holds under `agreement`).", valueName: "format"))
    var format: Format = .text

    @OptionGroup var gateOptions: AgreementGateOptions

    func run() async throws {
        let project = try projectOptions.openProject()
        let measure = try await Failure.exitingOnError { try await project.measureAgreement(variants: variantOptions.variant) }
        let printer = AgreementPrinter(terminal: .standardOutput)
        switch format {
        case .json: try printer.printJSON(measure.agreement)
        case .text: printer.printText(measure.agreement, labels: measure.labels)
        }
        printer.printProblems(measure, to: .standardError)
        if let minAgreement = gateOptions.minAgreement, let below = AgreementPrinter.shortfall(of: measure.agreement, minimum: minAgreement) {
            Terminal.standardError.writeLine("error: \(below)")
            throw ExitCode.failure
        }
    }
}
