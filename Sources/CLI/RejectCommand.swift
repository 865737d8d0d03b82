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
        AcceptancePrinter(terminal: .standardOutput, selectsEverything: selection.isEverything)
            .printRejected(rejected, variantArguments: selection.variantOptions.variant.map { " --variant \($0)" }.joined())
    }
}
