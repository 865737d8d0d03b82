import ArgumentParser

/// `trainer-eval pending`: what is waiting for approval.
struct PendingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pending",
        abstract: "List pending outputs with a one-line summary of how each differs from golden.",
        discussion: "Without --variant, every track's: the base's and each variant folder's under golden/variants/, each labelled [LABEL]; with --variant, that track's."
    )

    @OptionGroup var projectOptions: ProjectOptions
    @OptionGroup var selection: GoldenSelection

    func run() async throws {
        try selection.printPending(in: projectOptions, withDiffs: false)
    }
}
