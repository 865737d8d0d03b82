import ArgumentParser

/// `trainer-eval diff`: the pending outputs' diffs against golden.
struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show how pending outputs differ from golden: JSON structurally, markdown line by line, checks."
    )

    @OptionGroup var projectOptions: ProjectOptions
    @OptionGroup var selection: GoldenSelection

    func run() async throws {
        try PendingPrinter(projectOptions: projectOptions, selection: selection).print(withDiffs: true)
    }
}
