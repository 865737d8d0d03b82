import ArgumentParser

/// `trainer-eval fixtures`: the intake records and scenarios the pipeline runs on.
struct FixturesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixtures",
        abstract: "List, check and start the fixture records and their scenarios.",
        subcommands: [FixturesCheckCommand.self, FixturesListCommand.self, FixturesNewCommand.self],
        defaultSubcommand: FixturesListCommand.self
    )
}
