import ArgumentParser

/// `trainer-eval diff`: the pending outputs' diffs against golden.
struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show how pending outputs differ from golden: JSON structurally, markdown line by line, checks.",
        discussion: "Without --variant, every track's pending outputs (the base's and each variant folder's, labelled); with --variant, that track's. A new output (no golden yet) is shown itself and, for a variant's, beside how it differs from the base's approved output of the same fixture and step."
    )

    @OptionGroup var projectOptions: ProjectOptions
    @OptionGroup var selection: GoldenSelection

    func run() async throws {
        try selection.printPending(in: projectOptions, withDiffs: true)
    }
}
