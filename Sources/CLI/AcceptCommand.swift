import ArgumentParser
import Console
import Evaluation
import Golden
import Intake

/// `trainer-eval accept`: promote pending outputs to golden.
struct AcceptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accept",
        abstract: "Approve pending outputs: each .new file replaces its golden file.",
        discussion: """
            With --prune, also delete the golden files (approved and pending outputs, recordings) of steps that no fixture produces any more, and a fixture folder that leaves empty.

            With --checks, approve only the check results of pending outputs whose output is the approved one, leaving the outputs as they are: after checks were added or changed, `run` then `accept --checks` judges the golden set again. A pending output that differs stays pending.
            """
    )

    @OptionGroup var projectOptions: ProjectOptions
    @OptionGroup var selection: GoldenSelection

    @Flag(help: "Delete the golden files (outputs, pending outputs, recordings) of fixture steps that no longer exist.")
    var prune = false

    @Flag(help: "Approve only the check results of pending outputs whose output is unchanged; other pending outputs stay pending.")
    var checks = false

    @Option(
        name: .customLong("allow-unsafe"),
        help: ArgumentHelp(
            "Approve outputs that fail a safety check (prompts/coaching/check-severity.yaml) for this reason, kept beside each; without it they stay pending.",
            valueName: "reason"))
    var allowUnsafe: String?

    @Option(help: ArgumentHelp("Who gives --allow-unsafe's reason. Default: git's user.name.", valueName: "name"))
    var reviewer: String?

    func validate() throws {
        if checks, prune { throw ValidationError("--checks and --prune are separate steps: run them one after the other.") }
        if let allowUnsafe, allowUnsafe.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--allow-unsafe needs the reason a reviewer stands by, such as \"kept to show the guardrail catches it\".")
        }
    }

    func run() async throws {
        try selection.checkNames(in: projectOptions)
        let project = try projectOptions.openProject()
        var review = GoldenReview(store: try selection.store(in: projectOptions))
        review.safety = try Failure.exitingOnError { try SafetyPolicy.load(layout: project.layout) }
        let approval = allowUnsafe.map {
            GoldenReview.UnsafeApproval(reason: $0, reviewer: project.reviewer(reviewer) ?? "unknown", date: ReviewLabels.today())
        }
        if checks {
            let acceptance = try Failure.exitingOnError { try review.acceptChecks(where: selection.includes) }
            AcceptancePrinter(terminal: Terminal.standardOutput, selectsEverything: selection.isEverything).print(acceptance)
            // Check results that now fail a safety check are approved only with a reason, as outputs are.
            let accepted = Set(acceptance.accepted)
            let printer = UnsafePrinter(terminal: .standardOutput)
            if let approval {
                printer.printAllowed(try Failure.exitingOnError { try review.allowApprovedUnsafe(where: accepted.contains, for: approval) })
            }
            let unsafe = try Failure.exitingOnError { try review.approvedUnsafe(where: accepted.contains) }.filter { $0.allowance == nil }
            guard unsafe.isEmpty else {
                printer.print(unsafe, policy: review.safety, scope: selection.arguments)
                throw ExitCode.failure
            }
            return
        }
        let fixtures = prune ? try everyFixture() : nil
        let printer = AcceptancePrinter(terminal: Terminal.standardOutput, selectsEverything: selection.isEverything)
        let acceptance = try Failure.exitingOnError {
            try review.accept(where: selection.includes, pruning: fixtures, allowingUnsafe: approval, onEvent: printer.print)
        }
        printer.printSummary(of: acceptance)
        printer.printRefusals(of: acceptance, scope: selection.arguments)
        if !acceptance.refused.isEmpty { throw ExitCode.failure }
    }

    /// Every fixture of the project; pruning judges orphans by all of them, so an
    /// invalid one stops it (exit 2).
    private func everyFixture() throws -> [Fixture] {
        let corpus = try projectOptions.corpus()
        return try corpus.fixtureNames().map { name in
            guard let fixture = try? corpus.load(name) else {
                Terminal.standardError.writeLine("error: fixture \(name) is invalid; fix it before pruning (`\(Invocation.command) fixtures check`).")
                throw ExitCode.badInput
            }
            return fixture
        }
    }
}
