import Foundation
import Testing

@Suite("trainer-eval fixtures", .serialized)
struct FixturesCommandTests {
    @Test func checkPassesOnTheCorpus() throws {
        let outcome = try CommandRunner.run(["fixtures", "check"])
        #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("all valid"))
    }

    @Test func checkReportsEachProblemAndExitsTwo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = "summary: x\nprogram_edit:\n  feedback: y\n"
        for (name, record) in [("empty", ""), ("nan", "{\"age\": NaN}"), ("typo", "{\"nmae\": \"Sam\"}"), ("young", "{\"age\": 9}")] {
            try Data(record.utf8).write(to: folder.appendingPathComponent("\(name).json"))
            try Data(scenario.utf8).write(to: folder.appendingPathComponent("\(name).yaml"))
        }
        let outcome = try CommandRunner.run(["fixtures", "check", folder.path])
        #expect(outcome.status == 2)
        let errors = outcome.standardOutput.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(errors.count == 4, "\(outcome.standardOutput)")
        #expect(errors.contains { $0.contains("empty.json:1:1: invalid JSON: the file is empty") })
        #expect(errors.contains { $0.contains("nan.json:1:9: age: invalid JSON: NaN is not a JSON number") })
        #expect(errors.contains { $0.contains("typo.json:1:2: unknown field `nmae`; did you mean `name`?") })
        #expect(errors.contains { $0.contains("young.json:1:9: `age` is 9; the minimum is 13") })
        #expect(outcome.standardOutput.contains("4 problems in 4 fixtures"))
    }

    @Test func listShowsEveryFixtureWithItsSummary() throws {
        let outcome = try CommandRunner.run(["fixtures", "list"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains("busy-parent"))
        #expect(outcome.standardOutput.split(separator: "\n").count >= 25)
    }

    @Test func findsTheProjectFromASubfolder() throws {
        let outcome = try CommandRunner.run(["fixtures", "check"], in: CommandRunner.repositoryRoot.appendingPathComponent("prompts/schemas"))
        #expect(outcome.status == 0)
    }

    @Test func outsideAProjectItSaysHowToFixIt() throws {
        let outcome = try CommandRunner.run(["fixtures", "check"], in: FileManager.default.temporaryDirectory)
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("pass --project DIR"))
    }
}

@Suite("trainer-eval basics", .serialized)
struct BasicsTests {
    @Test func printsItsVersion() throws {
        let outcome = try CommandRunner.run(["--version"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
    }

    @Test(arguments: [[], ["fixtures"], ["fixtures", "check"], ["fixtures", "list"], ["validate"]])
    func everyCommandHasHelp(_ command: [String]) throws {
        let outcome = try CommandRunner.run(command + ["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains("USAGE:"))
    }

    @Test func usageErrorsExitTwo() throws {
        let outcome = try CommandRunner.run(["fixtures", "check", "--no-such-flag"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("--no-such-flag"))
    }
}
