import ArgumentParser
import Console
import Golden

/// `trainer-eval reject`: discard pending outputs.
struct RejectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reject",
        abstract: "Discard pending outputs, keeping golden as it is."
    )

    @OptionGroup var projectOptions: ProjectOptions
    @OptionGroup var selection: GoldenSelection

    func run() async throws {
        try selection.checkNames(in: projectOptions)
        let review = GoldenReview(store: try selection.store(in: projectOptions))
        let rejected = review.reject(where: selection.includes)
        let out = Terminal.standardOutput
        for key in rejected { out.writeLine(out.styled("rejected", .red) + " \(key)") }
        out.writeLine("\(rejected.count) rejected.")
    }
}
