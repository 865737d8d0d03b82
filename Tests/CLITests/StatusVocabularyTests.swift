import Foundation
import TestSupport
import Testing

/// One vocabulary of statuses: the words `run`, `pending`, the report files and the
/// opening line use for the same run agree.
@Suite("One status vocabulary", .serialized)
struct StatusVocabularyTests {
    /// A reply with no options at all: invalid against the schema, before and after its repair.
    static let noOptions = #"{"options": []}"#

    @Test func aNewStepWithoutAValidOutputIsNewEverywhereAndTheSkippedCountIsOneNumber() throws {
        let project = try RunCommandTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let server = try LoopbackServer(answering: .json(RunCommandTests.completion(Self.noOptions)))
        defer { server.stop() }
        let base = server.url("/v1").absoluteString

        let run = try CommandRunner.run(
            ["run", "--project", project.path, "--provider", "local", "--base-url", base, "--record", "--fixture", "busy-parent"])
        #expect(run.status == 0, "a new output waits for review; nothing regressed: \(run.standardOutput)\(run.standardError)")
        #expect(run.standardError.hasPrefix("Running 1 fixture on local (served by openai-compatible at \(base)) "), "the provider as typed: \(run.standardError)")
        #expect(run.standardOutput.contains("new busy-parent/goal-options\n"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("    no golden output yet\n"))
        #expect(run.standardOutput.contains("`accept --allow-unsafe REASON` records it as a known failure"))
        #expect(!run.standardOutput.contains("regression"), "\(run.standardOutput)")

        let summary = try #require(run.standardOutput.split(separator: "\n").first { $0.contains(" steps: ") })
        let skipped = try #require(summary.components(separatedBy: "skipped ").last.flatMap { Int($0.prefix { $0.isNumber }) })
        #expect(skipped > 0)
        #expect(summary.contains("new 1"), "\(summary)")
        #expect(run.standardOutput.contains("skipped \(skipped) steps did not run: \(skipped) after a step that produced no output."), "\(run.standardOutput)")

        // The report files say the same.
        let reports = project.appendingPathComponent("Reports/latest")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: reports.appendingPathComponent("results.json"))) as? [String: Any])
        let fixture = try #require((results["fixtures"] as? [[String: Any]])?.first { $0["name"] as? String == "busy-parent" })
        let steps = try #require(fixture["steps"] as? [[String: Any]])
        #expect(steps.first { $0["id"] as? String == "goal-options" }?["status"] as? String == "new", "\(steps.first ?? [:])")
        #expect(steps.filter { $0["status"] as? String == "skipped" }.count == skipped)
        let markdown = try String(contentsOf: reports.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("| new | 1 |"), "the report's counts use the same words: \(markdown.prefix(600))")
        #expect(markdown.contains("| skipped | \(skipped) |"))
        #expect(!markdown.contains("| regression |"))
        #expect(markdown.contains(" · local (openai-compatible) `"), "the provider as typed")
        let html = try String(contentsOf: reports.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(html.contains("local (openai-compatible) · "))
        #expect((results["run"] as? [String: Any])?["providerOption"] as? String == "local")

        // `pending` names it as `run` did.
        let pending = try CommandRunner.run(["pending", "--project", project.path])
        #expect(pending.standardOutput.contains("new busy-parent/goal-options"), "\(pending.standardOutput)")
        #expect(!pending.standardOutput.contains("regression"))

        // `review` says the same, on a terminal.
        let review = try CommandRunner.run(
            ["review", "--project", project.path], input: Data("q".utf8), inputIsTerminal: true, unsetting: ["CI"], timeout: Patience.seconds)
        #expect(review.standardOutput.contains("[1/1] busy-parent/goal-options: no golden output yet"), "\(review.standardOutput)")

        // Approving it is refused without a reason: an unusable output fails a safety check.
        let accept = try CommandRunner.run(["accept", "--project", project.path])
        #expect(accept.status == 1, "\(accept.standardOutput)\(accept.standardError)")
        #expect((accept.standardOutput + accept.standardError).contains("output.usable"))
    }

    /// `review` shows what the backend did to a pending output: here the reply its prompt
    /// set's schema refused twice, used because the app's contract accepts it.
    @Test func reviewShowsTheInterventionsBehindAPendingOutput() throws {
        let project = try RunCommandTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let seed = #"{"options": [{"id": "opt_1", "summary": "Feel more energetic with 20-minute evening workouts"}, {"id": "opt_2", "summary": "Keep up with your kids at the playground"}, {"id": "opt_3", "summary": "Build a steady three-day habit that fits busy weeks"}]}"#
        let server = try LoopbackServer(answering: .json(RunCommandTests.completion(seed)))
        defer { server.stop() }
        let run = try CommandRunner.run(
            ["run", "--project", project.path, "--provider", "openai-compatible", "--base-url", server.url("/v1").absoluteString,
             "--fixture", "busy-parent", "--until", "goal-options"])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        #expect(server.requestCount == 2, "the reply and its repair")

        let review = try CommandRunner.run(
            ["review", "--project", project.path], input: Data("q".utf8), inputIsTerminal: true, unsetting: ["CI"], timeout: Patience.seconds)
        #expect(!review.timedOut)
        #expect(review.standardOutput.contains("[1/1] busy-parent/goal-options: no golden output yet"), "\(review.standardOutput)")
        #expect(review.standardOutput.contains("  interventions:\n  ↺ reply-schema: the reply breaks prompts/schemas/goal-options-v3.schema.json"), "\(review.standardOutput)")
        #expect(review.standardOutput.contains("the app's contract accepts it, so it is used as it came"))
    }
}
