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
            (["--repeat", "2", "--gate-on", "lower-bound"], "--gate-on lower-bound judges --min-pass-rate; add one"),
            (["--repeat", "2", "--gate-on", "median", "--min-pass-rate", "0.8"], "The value 'median' is invalid for '--gate-on"),
            (["--repeat", "2", "--gate-on", "lower-bound", "--min-pass-rate", "program-draft=1"],
             "--min-pass-rate program-draft=1.0 with --gate-on lower-bound can never pass"),
        ] {
            let outcome = try CommandRunner.run(["run", "--project", project.path] + arguments)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.standardError.contains(message), "\(arguments): \(outcome.standardError)")
        }
    }

    /// The cassette of minimal-record's goal options in `project`.
    static func cassette(in project: URL) -> URL {
        project.appendingPathComponent("golden/minimal-record/goal-options.cassette.json")
    }

    static func results(in project: URL) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: project.appendingPathComponent("Reports/latest/results.json"))) as? [String: Any] ?? [:]
    }

    @Test func eachRepeatIsRecordedLiveThenReplayedFromItsOwnRecording() throws {
        let project = try RunCommandTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        // Repeat 1 answers well; repeat 2 repeats an id.
        let server = try LoopbackServer(sequence: ResponseSequence(
            [.json(RunCommandTests.completion(RunCommandTests.options)), .json(RunCommandTests.completion(Self.repeatedID))]))
        defer { server.stop() }
        let recording = try CommandRunner.run(
            ["run", "--project", project.path, "--provider", "openai-compatible", "--base-url", server.url("/v1").absoluteString,
             "--fixture", "minimal-record", "--until", "goal-options", "--repeat", "2", "--record"],
            environment: ["OPENAI_API_KEY": "test"])
        #expect(recording.status == 0, "\(recording.standardOutput)\(recording.standardError)")
        #expect(server.requestCount == 2, "each repeat is its own call")
        let recorded = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.cassette(in: project))) as? [String: Any]
        let interactions = recorded?["interactions"] as? [[String: Any]] ?? []
        #expect(interactions.map { $0["repeat"] as? Int ?? 1 } == [1, 2])

        // Offline, each repeat gets its own answer: the second one's repeated id shows as a flaky check.
        let replay = try CommandRunner.run(
            ["run", "--project", project.path, "--fixture", "minimal-record", "--until", "goal-options", "--repeat", "2"])
        #expect(replay.status == 0, "\(replay.standardOutput)\(replay.standardError)")
        #expect(server.requestCount == 2, "replay never reaches the network")
        #expect(replay.standardOutput.contains("flaky minimal-record/goal-options options.unique-ids: passed 1 of 2 (50%)"), "\(replay.standardOutput)")
        let step = ((try Self.results(in: project)["fixtures"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]])?.first
        let repeats = step?["repeats"] as? [[String: Any]] ?? []
        #expect(repeats.map { $0["repeat"] as? Int } == [1, 2])
        #expect(repeats.map { $0["failedChecks"] as? [String] } == [[], ["options.unique-ids"]])

        // Without its recording, repeat 2 is stale, never answered with repeat 1's reply.
        var edited = recorded ?? [:]
        edited["interactions"] = interactions.filter { $0["repeat"] == nil }
        try JSONSerialization.data(withJSONObject: edited, options: [.prettyPrinted, .sortedKeys]).write(to: Self.cassette(in: project))
        let stale = try CommandRunner.run(
            ["run", "--project", project.path, "--fixture", "minimal-record", "--until", "goal-options", "--repeat", "2"])
        #expect(stale.status == 1, "\(stale.standardOutput)\(stale.standardError)")
        #expect(stale.standardOutput.contains("stale 1 step has no recording of repeat 2\n    minimal-record/goal-options\n"), "\(stale.standardOutput)")
        #expect(stale.standardOutput.contains("`\(CommandRunner.spelled) run --provider local --record-missing --repeat 2 --fixture minimal-record --until goal-options`"))
        let staleStep = ((try Self.results(in: project)["fixtures"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]])?.first
        #expect(staleStep?["status"] as? String == "stale")
        #expect((staleStep?["reasons"] as? [String])?.first?.hasPrefix(
            "repeat 2: missing-recording: golden/minimal-record/goal-options.cassette.json has no recording of repeat 2") == true)
        #expect(server.requestCount == 2)
    }

    @Test func theLowerBoundGateFailsARateTheMeanPasses() throws {
        let project = try RunCommandTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let server = try LoopbackServer(answering: .json(RunCommandTests.completion(RunCommandTests.options)))
        defer { server.stop() }
        let arguments = ["run", "--project", project.path, "--provider", "openai-compatible", "--base-url", server.url("/v1").absoluteString,
                         "--fixture", "minimal-record", "--until", "goal-options", "--repeat", "3", "--min-pass-rate", "goal-options=0.5"]
        // Three passes in three: the mean is 100%, the Wilson lower bound 3 / (3 + 1.96²) = 43.85%.
        let mean = try CommandRunner.run(arguments, environment: ["OPENAI_API_KEY": "test"])
        #expect(mean.status == 0, "\(mean.standardOutput)\(mean.standardError)")

        let lower = try CommandRunner.run(arguments + ["--gate-on", "lower-bound"], environment: ["OPENAI_API_KEY": "test"])
        #expect(lower.status == 1, "\(lower.standardOutput)\(lower.standardError)")
        #expect(server.requestCount == 6)
        #expect(lower.standardOutput.contains(
            "below the required pass rate: goal-options: pass rate lower bound 44% (Wilson 95%, 3 of 3 runs passed) < required 50%; "
                + "even with every run passing, it takes at least 4 runs to reach 50%"), "\(lower.standardOutput)")
        let statistics = ((try Self.results(in: project)["repeats"] as? [String: Any])?["steps"] as? [[String: Any]])?.first
        #expect(statistics?["gateOn"] as? String == "lower-bound")
        let interval = statistics?["passRateInterval"] as? [String: Double]
        #expect(abs((interval?["lower"] ?? 0) - 0.4385029682449546) < 1e-12)
        #expect(interval?["upper"] == 1)
        #expect((statistics?["caseRates"] as? [String: Any])?["k"] as? Int == 3)
        let markdown = try String(contentsOf: project.appendingPathComponent("Reports/latest/report.md"), encoding: .utf8)
        #expect(markdown.contains("❌ Below the required pass rate: goal-options: pass rate lower bound 44%"))
        let html = try String(contentsOf: project.appendingPathComponent("Reports/latest/index.html"), encoding: .utf8)
        #expect(html.contains("pass rate lower bound 44% (Wilson 95%, 3 of 3 runs passed) &lt; required 50%"))
    }
}
