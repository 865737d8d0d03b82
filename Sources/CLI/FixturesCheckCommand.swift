import ArgumentParser
import Console
import Foundation
import Evaluation
import Intake

/// `trainer-eval fixtures check [PATH...]`
struct FixturesCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate fixture records against the intake schema and check their scenarios.",
        discussion: """
            Reports every problem at once, one per line, as FILE:LINE:COLUMN: FIELD: MESSAGE. \
            A record written in a language the coaching data does not cover (its referral \
            sentence and catalogue names) gets a warning: its dislikes and injuries would be read \
            with other languages' words and its referral would be the English one, marked \
            untranslated. Exits 0 when everything is valid (warnings or not) and 2 otherwise.
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
        let project = try projectOptions.openProject()
        let checked = try Failure.exitingOnError { try project.checkFixtures(paths: paths.map { URL(fileURLWithPath: $0) }) }
        let report = checked.report
        let out = Terminal.standardOutput
        for problem in report.problems {
            out.writeLine(out.styled("error", .red) + ": " + problem.description)
        }
        for (file, gap) in checked.languageGaps {
            out.writeLine(out.styled("warning", .yellow) + ": \(file): \(gap.consequence). Add \(gap.language) to prompts/coaching/ (advice.yaml's referrals, catalogue.yaml's names) to cover it.")
        }
        let fixtures = "\(report.fixtureNames.count) fixture\(report.fixtureNames.count == 1 ? "" : "s")"
        if report.isValid {
            let warned = checked.languageGaps.isEmpty ? "" : ", \(checked.languageGaps.count) in a language the coaching data does not cover"
            out.writeLine(out.styled("ok", .green) + ": \(fixtures) checked (\(report.fileCount) files), all valid\(warned).")
        } else {
            let count = report.problems.count
            out.writeLine("\(count) problem\(count == 1 ? "" : "s") in \(fixtures) (\(report.fileCount) files).")
            throw ExitCode.badInput
        }
    }
}
