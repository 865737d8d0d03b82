import Foundation
import TestSupport
import Testing

@Suite("trainer-eval run --repeat", .serialized)
struct RepeatTests {
    /// The same options with two ids made equal: `options.unique-ids` fails.
    static let repeatedID = RunCommandTests.options.replacingOccurrences(of: "walk-8k-steps", with: "move-3x-week")

    @Test func reportsPassRatesWithSpreadAndFlakyChecksAndGatesOnARequiredRate() throws {
        let project = try RunCommandTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        // Repeats 1 and 3 answer well; repeat 2 repeats an id.
        let server = try LoopbackServer(sequence: ResponseSequence(
            [.json(RunCommandTests.completion(RunCommandTests.options)), .json(RunCommandTests.completion(Self.repeatedID))],
            afterwards: .json(RunCommandTests.completion(RunCommandTests.options))))
        defer { server.stop() }
        let outcome = try CommandRunner.run(
            ["run", "--project", project.path, "--provider", "openai-compatible", "--base-url", server.url("/v1").absoluteString,
             "--fixture", "minimal-record", "--until", "goal-options", "--repeat", "3", "--min-pass-rate", "goal-options=90%"],
            environment: ["OPENAI_API_KEY": "test"])
        #expect(server.requestCount == 3)
        #expect(outcome.status == 1, "a pass rate under the requirement fails the run")
        #expect(outcome.standardError.contains("Repeat 2 of 3"))
        #expect(outcome.standardOutput.contains("Stability over 3 repeats:"))
        #expect(outcome.standardOutput.contains("flaky minimal-record/goal-options options.unique-ids: passed 2 of 3"))
        #expect(outcome.standardOutput.contains("below the required pass rate: goal-options: pass rate 67% < required 90%"))

        let results = try JSONSerialization.jsonObject(
            with: Data(contentsOf: project.appendingPathComponent("Reports/latest/results.json"))) as? [String: Any]
        let repeats = results?["repeats"] as? [String: Any]
        #expect(repeats?["repeats"] as? Int == 3)
        let step = (repeats?["steps"] as? [[String: Any]])?.first
        let passRate = step?["passRate"] as? [String: Double]
        #expect(step?["step"] as? String == "goal-options")
        #expect(passRate?["min"] == 0 && passRate?["max"] == 1)
        #expect(abs((passRate?["mean"] ?? 0) - 2.0 / 3.0) < 1e-9)
        #expect(step?["requiredPassRate"] as? Double == 0.9)
        #expect((results?["totals"] as? [String: Any])?["passesGate"] as? Bool == false)
        let schema = CommandRunner.repositoryRoot.appendingPathComponent("Reports/schema/results.schema.json").path
        let validation = try CommandRunner.run(
            ["validate", "--assert-format", "--schema", schema, project.appendingPathComponent("Reports/latest/results.json").path])
        #expect(validation.status == 0, "\(validation.standardOutput)\(validation.standardError)")
        let html = try String(contentsOf: project.appendingPathComponent("Reports/latest/index.html"), encoding: .utf8)
        #expect(html.contains("Stability over 3 repeats"))
        #expect(html.contains("minimal-record/goal-options options.unique-ids: passed 2 of 3"))

        // The same repeats pass a requirement they meet.
        let lenient = try CommandRunner.run(
            ["run", "--project", project.path, "--provider", "openai-compatible", "--base-url", server.url("/v1").absoluteString,
             "--fixture", "minimal-record", "--until", "goal-options", "--repeat", "2", "--min-pass-rate", "0.5"],
            environment: ["OPENAI_API_KEY": "test"])
        #expect(lenient.status == 0, "\(lenient.standardOutput)\(lenient.standardError)")
    }

    @Test func badRepeatOptionsAreUsageErrors() throws {
        let project = try RunCommandTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        for (arguments, message) in [
            (["--repeat", "0"], "--repeat must be 1 to 100."),
            (["--min-pass-rate", "0.8"], "--min-pass-rate needs --repeat 2 or more."),
            (["--repeat", "2", "--min-pass-rate", "draft=0.8"], "`draft` is not a step"),
            (["--repeat", "2", "--min-pass-rate", "1.5"], "the rate must be between 0 and 1"),
            (["--repeat", "2", "--provider", "local", "--record"], "--repeat cannot record"),
        ] {
            let outcome = try CommandRunner.run(["run", "--project", project.path] + arguments)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.standardError.contains(message), "\(arguments): \(outcome.standardError)")
        }
    }
}
