import ArgumentParser
import Console
import Intake

/// `trainer-eval fixtures list`
struct FixturesListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the fixtures with their one-line summaries and tags."
    )

    @OptionGroup var projectOptions: ProjectOptions

    @Option(help: ArgumentHelp("List only the fixtures with this tag (repeatable: any of the tags selects a fixture).", valueName: "tag"))
    var tag: [String] = []

    func run() async throws {
        let corpus = try projectOptions.corpus()
        let out = Terminal.standardOutput
        let names = tag.isEmpty ? corpus.fixtureNames() : try Failure.exitingOnError { try corpus.load(names: [], tags: tag).map(\.name) }
        let width = names.map(\.count).max() ?? 0
        var invalid = 0
        for name in names {
            let padded = name.padding(toLength: width, withPad: " ", startingAt: 0)
            do {
                let fixture = try corpus.load(name)
                let tags = fixture.scenario.tags.isEmpty ? "" : "  " + out.styled("[\(fixture.scenario.tags.joined(separator: ", "))]", .dim)
                out.writeLine("\(out.styled(padded, .bold))  \(fixture.scenario.summary)\(tags)")
            } catch {
                invalid += 1
                out.writeLine("\(out.styled(padded, .bold))  \(out.styled("invalid: run `\(Invocation.command) fixtures check`", .red))")
            }
        }
        out.writeLine("\(names.count) fixtures" + (invalid > 0 ? ", \(invalid) invalid" : "") + ".")
        if invalid > 0 { throw ExitCode.badInput }
    }
}
