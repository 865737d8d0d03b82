import Foundation
import Testing

/// `--tag`: fixtures chosen by their scenario tags, alone or with `--fixture`.
@Suite("fixture selection by tag")
struct TagSelectionTests {
    /// The first line of a run: how many fixtures it runs.
    private func runningLine(_ arguments: [String], project: URL) throws -> (CommandRunner.Outcome, String) {
        let outcome = try CommandRunner.run(["run", "--project", project.path, "--until", "goal-options"] + arguments)
        let line = outcome.standardError.split(separator: "\n").first { $0.hasPrefix("Running ") }.map(String.init) ?? ""
        return (outcome, line)
    }

    @Test func aTagSelectsTheFixturesThatCarryIt() throws {
        let project = try RunCommandTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        // busy-parent carries `parent`; minimal-record does not.
        let (outcome, line) = try runningLine(["--tag", "parent"], project: project)
        #expect(line.hasPrefix("Running 1 fixture "), "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("busy-parent/goal-options"))
        #expect(!outcome.standardOutput.contains("minimal-record"))
    }

    @Test func tagsAndFixturesCombineAsAUnion() throws {
        let project = try RunCommandTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let (_, both) = try runningLine(["--fixture", "minimal-record", "--tag", "parent"], project: project)
        #expect(both.hasPrefix("Running 2 fixtures "))
        let (_, eitherTag) = try runningLine(["--tag", "parent", "--tag", "sparse"], project: project)
        #expect(eitherTag.hasPrefix("Running 2 fixtures "), "any of the tags selects")
        let (_, overlapping) = try runningLine(["--fixture", "busy-parent", "--tag", "parent"], project: project)
        #expect(overlapping.hasPrefix("Running 1 fixture "), "a fixture named and tagged runs once")
    }

    @Test func anUnknownTagListsTheKnownOnesWithASuggestion() throws {
        let project = try RunCommandTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let (outcome, _) = try runningLine(["--tag", "parnet"], project: project)
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("No fixture has the tag `parnet`. Did you mean `parent`? Tags: beginner, dev, home, minimal, parent, sparse, time-limited."),
                "\(outcome.standardError)")
    }

    @Test func fixturesListShowsAndFiltersByTag() throws {
        let outcome = try CommandRunner.run(["fixtures", "list", "--tag", "dev"])
        #expect(outcome.status == 0)
        let lines = outcome.standardOutput.split(separator: "\n")
        #expect(lines.last == "6 fixtures.")
        #expect(lines.dropLast().allSatisfy { $0.contains("dev") })
        #expect(lines.contains { $0.hasPrefix("spanish-speaker ") && $0.hasSuffix("[spanish, non-english, home, prediabetes, beginner, dev]") })
    }
}
