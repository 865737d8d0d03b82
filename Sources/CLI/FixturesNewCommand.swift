import ArgumentParser
import Console
import Foundation
import Intake

/// `trainer-eval fixtures new NAME`: a starting record and scenario for a new person.
struct FixturesNewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Write a starting record and scenario for a new person: fixtures/NAME.json and NAME.yaml.",
        discussion: """
            Without --from, the record holds every field of the app's form, each saying what the app \
            asks (`TODO: …`): write the person's answers and remove the fields they skipped. With \
            --from FILE, the record is that intake (one exported from the app, say), checked first. \
            The scenario holds the keys every scenario has and each expectation the record calls for \
            (days a week, session length, equipment, movements to avoid, a referral), the answer it \
            comes from quoted above it and TODO where its value goes: the expectations are the oracle \
            the outputs are judged by, so a person writes them. `fixtures check` names every TODO left. \
            Never overwrites a fixture. docs/adding-a-person.md is the whole path, through recording \
            and review.

            Exits 0 when written, 2 for a name that is taken or not kebab-case, or a --from record \
            that is not a valid intake.
            """
    )

    @OptionGroup var projectOptions: ProjectOptions

    @Argument(help: ArgumentHelp("The fixture's name, kebab-case (`new-runner`).", valueName: "name"))
    var name: String

    @Option(help: ArgumentHelp("An intake record (JSON, as the app encodes it) to start from.", valueName: "file"))
    var from: String?

    func run() throws {
        let corpus = try projectOptions.corpus()
        let written = try Failure.exitingOnError {
            try FixtureTemplate.write(name: name, record: from.map { URL(fileURLWithPath: $0) }, corpus: corpus)
        }
        let out = Terminal.standardOutput
        let layout = corpus.layout
        out.writeLine("Wrote \(layout.displayPath(of: written.record)) and \(layout.displayPath(of: written.scenario)).")
        out.writeLine("Next: replace every TODO (`\(Invocation.command) fixtures check \(layout.displayPath(of: written.record))` names those left), "
            + "record it (`\(Invocation.command) run --provider local --record-missing --fixture \(name)`), read and label its outputs "
            + "(`\(Invocation.command) review --fixture \(name)`), then accept them: docs/adding-a-person.md.")
    }
}
