import ArgumentParser
import Console
import Evaluation
import Foundation

/// `trainer-eval judge RUBRIC`: a model-graded check, measured against reviewers' labels.
struct JudgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "judge",
        abstract: "Judge approved outputs with a model-graded rubric (prompts/rubrics/NAME.md) and measure it against reviewers' labels.",
        discussion: """
            Sends each approved output of the rubric's kind (programs or option sets), with the \
            person's answers and the feedback it applied, to a judge model, which answers pass or \
            fail with a reason. By default the verdicts are replayed from golden/judges/RUBRIC/, \
            offline; --provider local --record-missing records the ones missing. The judge is then \
            set against the fresh labels exactly as `agreement` sets a code check: the matrix, \
            Cohen's κ, blind spots and false alarms. Exits 1 when an output could not be judged \
            (a missing recording, an unreadable reply) or, with --min-agreement, when the judge \
            agrees with the reviewers on less than that share.
            """
    )

    enum Format: String, ExpressibleByArgument {
        case text, json
    }

    @OptionGroup var projectOptions: ProjectOptions
    @OptionGroup var variantOptions: VariantOptions
    @OptionGroup var providerOptions: ProviderOptions

    @Argument(help: ArgumentHelp("The rubric: prompts/rubrics/NAME.md.", valueName: "rubric"))
    var rubric: String

    @Option(name: .customLong("fixture"), help: ArgumentHelp("Only this fixture (repeatable).", valueName: "name"))
    var fixtures: [String] = []

    @Option(help: ArgumentHelp("text, or json.", valueName: "format"))
    var format: Format = .text

    @OptionGroup var gateOptions: AgreementGateOptions

    func run() async throws {
        let project = try projectOptions.openProject()
        let judgement = try await Failure.exitingOnError {
            try await project.judge(
                rubric: rubric, settings: try providerOptions.settings(), variants: variantOptions.variant, fixtures: fixtures)
        }
        let printer = JudgementPrinter(terminal: .standardOutput)
        switch format {
        case .json: try printer.printJSON(judgement)
        case .text: printer.printText(judgement)
        }
        let scope = variantOptions.variant.flatMap { ["--variant", $0] } + fixtures.flatMap { ["--fixture", $0] }
        printer.printProblems(judgement, scope: scope, to: .standardError)
        var fails = !judgement.notJudged.isEmpty
        if let minAgreement = gateOptions.minAgreement, let below = AgreementPrinter.shortfall(of: judgement.agreement, minimum: minAgreement, judge: "the judge agrees") {
            Terminal.standardError.writeLine("error: \(below)")
            fails = true
        }
        if fails { throw ExitCode.failure }
    }
}
