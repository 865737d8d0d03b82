import ArgumentParser
import Console
import Evaluation
import Foundation
import Intake

/// The options every command that reads the project shares.
struct ProjectOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The project folder (the one holding prompts/ and fixtures/).",
            discussion: "Defaults to the nearest such folder at or above the current directory.",
            valueName: "dir"))
    var project: String?

    /// The project layout, or exit code 2 with a message saying how to fix it.
    func layout() throws -> ProjectLayout {
        do {
            if let project {
                let layout = ProjectLayout(root: URL(fileURLWithPath: project, isDirectory: true))
                guard FileManager.default.fileExists(atPath: layout.intakeSchema.path) else {
                    throw ProjectError.notFound(searchedFrom: project)
                }
                return layout
            }
            return try ProjectLayout.locate(from: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        } catch {
            Terminal.standardError.writeLine("error: \(error)")
            throw ExitCode.badInput
        }
    }

    /// The project assembled from its folder, or exit code 2.
    func openProject() throws -> Project {
        Project(layout: try layout())
    }

    /// The fixture corpus of the project, or exit code 2.
    func corpus() throws -> FixtureCorpus {
        let project = try openProject()
        do {
            return try project.corpus()
        } catch {
            Terminal.standardError.writeLine("error: \(error)")
            throw ExitCode.badInput
        }
    }
}
