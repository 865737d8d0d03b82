import ArgumentParser
import Golden
import Intake

/// `trainer-eval accept`: promote pending outputs to golden.
struct AcceptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accept",
        abstract: "Approve pending outputs: each .new file replaces its golden file.",
        discussion: "With --prune, also delete the golden files (approved and pending outputs, recordings) of steps that no fixture produces any more, and a fixture folder that leaves empty."
    )

    @OptionGroup var projectOptions: ProjectOptions
    @OptionGroup var selection: GoldenSelection

    @Flag(help: "Delete the golden files (outputs, pending outputs, recordings) of fixture steps that no longer exist.")
    var prune = false

    func run() async throws {
        try selection.checkNames(in: projectOptions)
        let review = GoldenReview(store: try selection.store(in: projectOptions))
        let fixtures = prune ? try everyFixture() : nil
        let printer = AcceptancePrinter(terminal: Terminal.standardOutput, selection: selection)
        let acceptance = try Failure.exitingOnError {
            try review.accept(where: selection.includes, pruning: fixtures, onEvent: printer.print)
        }
        printer.printSummary(of: acceptance)
    }

    /// Every fixture of the project; pruning judges orphans by all of them, so an
    /// invalid one stops it (exit 2).
    private func everyFixture() throws -> [Fixture] {
        let corpus = try projectOptions.corpus()
        return try corpus.fixtureNames().map { name in
            guard let fixture = try? corpus.load(name) else {
                Terminal.standardError.writeLine("error: fixture \(name) is invalid; fix it before pruning (`trainer-eval fixtures check`).")
                throw ExitCode(2)
            }
            return fixture
        }
    }
}
