import Foundation
import Testing

@Suite("history prune")
struct HistoryCommandTests {
    @Test func pruningKeepsTheNewestRunsAndCompareSaysWhenOneIsGone() throws {
        let project = try RunCommandTests.makeProject(withGoldenOf: ["minimal-record"])
        defer { try? FileManager.default.removeItem(at: project) }
        for _ in 0..<2 {
            let run = try CommandRunner.run(["run", "--ci", "--project", project.path, "--fixture", "minimal-record"])
            #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        }
        let listed = try CommandRunner.run(["history", "--project", project.path])
        #expect(listed.status == 0)
        let prune = try CommandRunner.run(["history", "prune", "--keep", "1", "--project", project.path])
        #expect(prune.status == 0, "\(prune.standardError)")
        #expect(prune.standardOutput.hasSuffix("1 run pruned, 1 kept; the file is compacted.\n"), "\(prune.standardOutput)")
        let compare = try CommandRunner.run(["compare", "latest~1", "latest", "--project", project.path])
        #expect(compare.status == 2)
        #expect(compare.standardError.contains("`latest~1` was pruned from the history: it keeps the newest 1 run"), "\(compare.standardError)")
    }

    @Test(arguments: [
        (["history", "prune"], "Say what to keep: --keep N, --older-than AGE, or both."),
        (["history", "prune", "--older-than", "soon"], "--older-than takes an age such as 90d"),
        (["history", "prune", "--keep", "0"], "--keep must be at least 1"),
    ])
    func badInputSaysWhatToGive(arguments: [String], message: String) throws {
        let outcome = try CommandRunner.run(arguments)
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
    }
}
