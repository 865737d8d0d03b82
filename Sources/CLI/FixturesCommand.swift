import ArgumentParser

/// `trainer-eval fixtures`: the intake records and scenarios the pipeline runs on.
struct FixturesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixtures",
        abstract: "List and check the fixture records and their scenarios.",
        subcommands: [FixturesCheckCommand.self, FixturesListCommand.self],
        defaultSubcommand: FixturesListCommand.self
    )
}
