import Foundation
import TestSupport
import Testing

/// `run --max-minutes` and `--max-cost`: a spent budget stops new calls, finishes the
/// run with what finished, and prints the command that resumes it.
@Suite("trainer-eval run budgets")
struct BudgetTests {
    /// A run of `arguments` against `server` in a fresh project, with the server's requests.
    private func run(_ arguments: [String], server: LoopbackServer, project: URL) throws -> CommandRunner.Outcome {
        try CommandRunner.run(
            ["run", "--project", project.path, "--provider", "openai-compatible", "--base-url", server.url("/v1").absoluteString] + arguments)
    }

    private func results(in project: URL) throws -> [[String: Any]] {
        let data = try Data(contentsOf: project.appendingPathComponent("Reports/latest/results.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let fixtures = try #require(root["fixtures"] as? [[String: Any]])
        return fixtures.flatMap { ($0["steps"] as? [[String: Any]]) ?? [] }
    }

    @Test func maxMinutesStopsStartingCallsAndPrintsTheResumeCommand() throws {
        let project = try RunCommandTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        // Each answer takes 3 s, longer than the whole budget of 1.2 s: with one call
        // in flight at a time, no second call may start however loaded the machine is.
        var slow = ScriptedResponse.json(RunCommandTests.completion(RunCommandTests.options))
        slow.delay = 3
        let server = try LoopbackServer(answering: slow)
        defer { server.stop() }
        let arguments = ["--jobs", "1", "--max-minutes", "0.02", "--fixture", "busy-parent", "--tag", "minimal"]
        let outcome = try run(arguments, server: server, project: project)

        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(server.requestCount <= 1)
        #expect(outcome.standardError.contains("stopped: the run's time budget of 0.02 minutes (--max-minutes) is spent."), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("model steps were left undone"))
        let resume = try #require(outcome.standardError.split(separator: "\n").first { $0.hasPrefix("Resume with: ") })
        #expect(resume == "Resume with: \(CommandRunner.spelled) run --project \(project.path) --provider openai-compatible --base-url \(server.url("/v1").absoluteString) "
            + arguments.joined(separator: " ") + " --record-missing")

        // Both fixtures' steps are in the report; none the budget stopped is a failure.
        let steps = try results(in: project)
        #expect(!steps.isEmpty)
        #expect(!steps.contains { ($0["status"] as? String) == "error" })
        let skipped = steps.filter { ($0["note"] as? String)?.contains("(--max-minutes)") == true }
        #expect(skipped.count >= steps.count - 2, "at most one model step and its confirm ran")
        #expect(skipped.allSatisfy { ($0["status"] as? String) == "skipped" })
    }

    @Test func maxCostStopsOnThePriceTable() throws {
        let project = try RunCommandTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let server = try LoopbackServer(answering: .json(RunCommandTests.completion(RunCommandTests.options)))
        defer { server.stop() }
        // gpt-4.1-mini: 900 input tokens at $0.40 and 120 output at $1.60 a million is $0.000552 a call.
        let outcome = try run(
            ["--model", "gpt-4.1-mini", "--jobs", "1", "--until", "goal-options", "--max-cost", "0.0005", "--record"],
            server: server, project: project)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(server.requestCount == 1)
        #expect(outcome.standardError.contains("stopped: the run's cost budget of $0.0005 (--max-cost) is spent ($0.000552 so far)."), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("1 model step was left undone"))
        #expect(outcome.standardError.contains("--max-cost 0.0005 --record-missing\n"), "--record becomes --record-missing")
        #expect(!outcome.standardError.contains("--record "))
    }

    @Test func underCIAStoppedRunFailsAndItsResumeCommandRecordsWithoutTheGate() throws {
        let project = try RunCommandTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let server = try LoopbackServer(answering: .json(RunCommandTests.completion(RunCommandTests.options)))
        defer { server.stop() }
        let outcome = try run(["--ci", "--jobs", "1", "--until", "goal-options", "--max-calls", "1"], server: server, project: project)
        #expect(outcome.status == 1, "\(outcome.standardError)")
        let resume = try #require(outcome.standardError.split(separator: "\n").first { $0.hasPrefix("Resume with: ") })
        #expect(!resume.contains("--ci"))
        #expect(resume.hasSuffix("--jobs 1 --until goal-options --max-calls 1 --record-missing"))
    }

    @Test func maxCostIsRefusedForAModelWithNoPrice() throws {
        let project = try RunCommandTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let server = try LoopbackServer(answering: .json(RunCommandTests.completion(RunCommandTests.options)))
        defer { server.stop() }
        let outcome = try run(["--model", "house-model", "--max-cost", "1"], server: server, project: project)
        #expect(outcome.status == 2)
        #expect(server.requestCount == 0)
        #expect(outcome.standardError.contains("prompts/prices.yaml has no price for the model `house-model`"), "\(outcome.standardError)")
    }

    @Test func budgetsAreRefusedOnReplay() throws {
        for budget in [["--max-minutes", "5"], ["--max-cost", "1"], ["--max-calls", "3"]] {
            let outcome = try CommandRunner.run(["run", "--fixture", "busy-parent"] + budget)
            #expect(outcome.status == 2)
            #expect(outcome.standardError.contains("limit live model calls, and replay makes none"), "\(outcome.standardError)")
        }
        let negative = try CommandRunner.run(["run", "--provider", "local", "--max-minutes", "0"])
        #expect(negative.status == 2)
        #expect(negative.standardError.contains("--max-minutes must be a positive number"))
    }
}
