import ArgumentParser
import Console
import Foundation
import Intake

/// `trainer-eval fixtures check [PATH...]`
struct FixturesCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate fixture records against the intake schema and check their scenarios.",
        discussion: """
            Reports every problem at once, one per line, as FILE:LINE:COLUMN: FIELD: MESSAGE. \
            Exits 0 when everything is valid and 2 otherwise.
            """
    )

    @OptionGroup var projectOptions: ProjectOptions

    @Argument(
        help: ArgumentHelp(
            "Fixture files (.json records or .yaml scenarios) or folders to check.",
            discussion: "With none, the whole fixture corpus is checked.",
            valueName: "path"))
    var paths: [String] = []

    func run() async throws {
        let corpus = try projectOptions.corpus()
        let urls = paths.map { URL(fileURLWithPath: $0) }
        let report = corpus.check(paths: urls)
        let out = Terminal.standardOutput
        for problem in report.problems {
            out.writeLine(out.styled("error", .red) + ": " + problem.description)
        }
        let fixtures = "\(report.fixtureNames.count) fixture\(report.fixtureNames.count == 1 ? "" : "s")"
        if report.isValid {
            out.writeLine(out.styled("ok", .green) + ": \(fixtures) checked (\(report.fileCount) files), all valid.")
        } else {
            let count = report.problems.count
            out.writeLine("\(count) problem\(count == 1 ? "" : "s") in \(fixtures) (\(report.fileCount) files).")
            throw ExitCode.badInput
        }
    }
}
