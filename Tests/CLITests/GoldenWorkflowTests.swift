import Foundation
import TestSupport
import Testing

@Suite("Golden workflow", .serialized)
struct GoldenWorkflowTests {
    /// The committed recordings of a real fixture replay through the gate; its approved
    /// failures come back as one counted line, not a paragraph per step.
    /// A recorded reply that was invalid when approved is a known failure: a passing
    /// gate prints no red failure line for it while the run goes.
    @Test func aReplayedInvalidReplyApprovedSoPrintsNoFailureLine() throws {
        let fixture = "eating-disorder-risk"
        let project = try RunCommandTests.makeProject(withGoldenOf: [fixture])
        defer { try? FileManager.default.removeItem(at: project) }
        for ext in ["json", "yaml"] {
            try FileManager.default.copyItem(
                at: CommandRunner.repositoryRoot.appendingPathComponent("fixtures/\(fixture).\(ext)"),
                to: project.appendingPathComponent("fixtures/\(fixture).\(ext)"))
        }
        let gate = try CommandRunner.run(["run", "--ci", "--project", project.path, "--fixture", fixture])
        #expect(gate.status == 0, "\(gate.standardOutput)\(gate.standardError)")
        let results = try RepeatTests.results(in: project)
        let steps = try #require(results["fixtures"] as? [[String: Any]]).flatMap { $0["steps"] as? [[String: Any]] ?? [] }
        try #require(steps.contains { $0["status"] as? String == "known-failure" && $0["outcome"] as? String == "invalid" },
                     "the approved outputs hold an invalid reply")
        #expect(!gate.standardError.contains("✗"), "\(gate.standardError)")
        let verbose = try CommandRunner.run(["run", "--ci", "--verbose", "--project", project.path, "--fixture", fixture])
        #expect(verbose.standardError.contains("✗ invalid \(fixture) "), "--verbose still shows it")
    }

    @Test func knownFailuresAreSummedUpByCheck() throws {
        let project = try RunCommandTests.makeProject(withGoldenOf: ["busy-parent"])
        defer { try? FileManager.default.removeItem(at: project) }
        let gate = try CommandRunner.run(["run", "--ci", "--project", project.path, "--fixture", "busy-parent"])
        #expect(gate.status == 0, "\(gate.standardOutput)\(gate.standardError)")
        let lines = gate.standardOutput.split(separator: "\n").map(String.init)
        let known = try #require(lines.first { $0.hasPrefix("known-failure ") })
        #expect(known.contains("fail only checks that failed in golden too: options.distinct ×2"), "\(gate.standardOutput)")
        #expect(lines.filter { $0.contains("known-failure") || $0.contains("×") }.count == 1, "one line, not a wall")
        // The terminal counts what the report counts, under the report's labels.
        let status = try #require(lines.last { $0.hasPrefix("gate ") })
        let report = try String(contentsOf: project.appendingPathComponent("Reports/latest/report.md"), encoding: .utf8)
        // The status table opens the report; the sections after it (reviewers' agreement, say) have tables of their own.
        let statusTable = report.components(separatedBy: "\n### ").first ?? report
        for line in statusTable.split(separator: "\n") where line.hasPrefix("| ") && !line.hasPrefix("| status") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(status.contains("\(cells[0]) \(cells[1])"), "\(status) against the report's \(line)")
        }
        #expect(!gate.standardOutput.contains("    known failure "), "no per-step reasons for approved failures")
        #expect(!gate.standardError.contains("✓ busy-parent"), "replay prints no line for a valid step")

        // Named twice (as a long CI command line easily does), the fixture still runs once.
        let verbose = try CommandRunner.run(
            ["run", "--ci", "--verbose", "--project", project.path, "--fixture", "busy-parent", "--fixture", "busy-parent"])
        #expect(verbose.status == 0)
        #expect(verbose.standardError.components(separatedBy: "✓ busy-parent goal-options ").count == 2)
        #expect(verbose.standardError.contains("check failed options.distinct"))
        #expect(!verbose.standardError.contains("cannot record run"), "\(verbose.standardError)")

        // Old report folders go; the history keeps every run.
        let reports = project.appendingPathComponent("Reports")
        func runFolders() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: reports.path).filter { $0.hasSuffix("-replay") || $0.contains("-replay-") }
        }
        #expect(try runFolders().count == 2)
        let pruning = try CommandRunner.run(["run", "--ci", "--keep-reports", "1", "--project", project.path, "--fixture", "busy-parent"])
        #expect(pruning.status == 0)
        let kept = try runFolders()
        #expect(kept.count == 1)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: reports.appendingPathComponent("latest").path) == kept.first)
        let history = try CommandRunner.run(["history", "--project", project.path])
        #expect(history.standardOutput.components(separatedBy: "-replay").count - 1 >= 3, "\(history.standardOutput)")
    }

    @Test func recordApproveGateAndCatchAPromptChangeAndACorruptRecording() throws {
        let project = try RunCommandTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let server = try LoopbackServer(answering: .json(RunCommandTests.completion(RunCommandTests.options)))
        defer { server.stop() }
        let scope = ["--project", project.path, "--fixture", "minimal-record", "--until", "goal-options"]

        // 1. A live run records the response and leaves the new output pending.
        let live = try CommandRunner.run(
            ["run"] + scope + ["--provider", "openai-compatible", "--base-url", server.url("/v1").absoluteString, "--record"])
        #expect(live.status == 0, "\(live.standardOutput)\(live.standardError)")
        #expect(live.standardOutput.contains("new minimal-record/goal-options"))
        #expect(live.standardOutput.contains("1 pending output to review"))
        let pending = try CommandRunner.run(["pending", "--project", project.path])
        #expect(pending.standardOutput.contains("new minimal-record/goal-options: no golden output yet"))

        // 2. Until it is approved, the gate fails; after `accept` it passes offline.
        #expect(try CommandRunner.run(["run", "--ci"] + scope).status == 1)
        let accept = try CommandRunner.run(["accept", "--project", project.path])
        #expect(accept.standardOutput.contains("accepted minimal-record/goal-options"))
        let gate = try CommandRunner.run(["run", "--ci"] + scope)
        #expect(gate.status == 0, "\(gate.standardOutput)\(gate.standardError)")
        #expect(gate.standardOutput.contains("gate passes · "), "\(gate.standardOutput)")
        #expect(server.requestCount == 1)

        // 3. One word of the template changes: the recording is stale, and the gate says where.
        let template = project.appendingPathComponent("prompts/goal-options/user.mustache")
        let original = try String(contentsOf: template, encoding: .utf8)
        try original.replacingOccurrences(of: "Write 3 or 4 goal options", with: "Write three or four goal options")
            .write(to: template, atomically: true, encoding: .utf8)
        let stale = try CommandRunner.run(["run", "--ci"] + scope)
        #expect(stale.status == 1)
        #expect(stale.standardOutput.contains("stale 1 recording is stale because the prompt template (prompts/goal-options/user.mustache) changed"))
        #expect(stale.standardOutput.contains("    minimal-record/goal-options\n"))
        #expect(stale.standardOutput.contains("--record-missing"), "names the next command")
        #expect(stale.standardOutput.contains("+Write three or four goal options"))
        try original.write(to: template, atomically: true, encoding: .utf8)

        // 4. A corrupted recording (an option removed) fails the gate with the check and the diff.
        let cassette = project.appendingPathComponent("golden/minimal-record/goal-options.cassette.json")
        let recorded = try String(contentsOf: cassette, encoding: .utf8)
        let corrupted = recorded.replacingOccurrences(
            of: #", {\"id\": \"first-push-up\", \"summary\": \"Do 5 full push-ups in 10 weeks\", \"detail\": \"Start on the knees, then full push-ups.\"}"#, with: "")
        #expect(corrupted != recorded)
        try corrupted.write(to: cassette, atomically: true, encoding: .utf8)
        let broken = try CommandRunner.run(["run", "--ci"] + scope)
        #expect(broken.status == 1)
        #expect(broken.standardOutput.contains("regression minimal-record/goal-options"))
        #expect(broken.standardOutput.contains("options"))
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent("golden/minimal-record/goal-options.json.new").path),
                "--ci writes nothing")
        let junit = try String(contentsOf: project.appendingPathComponent("Reports/latest/junit.xml"), encoding: .utf8)
        #expect(junit.contains("<failure message=\"no valid output: /options: `options` has 2 items; at least 3 required (golden has a valid output)\" type=\"regression\">"))

        // 5. Every run is in the history; comparing the passing gate run with the broken
        // one names the regression, as does comparing the broken one with golden.
        let history = try CommandRunner.run(["history", "--project", project.path])
        #expect(history.status == 0)
        #expect(history.standardOutput.split(separator: "\n").count == 6, "a header and five runs:\n\(history.standardOutput)")
        #expect(history.standardOutput.contains("openai-compatible"))
        let compare = try CommandRunner.run(["compare", "--project", project.path, "latest~2", "latest", "--report"])
        // One regressed case is one discordant pair, too few for any verdict: the exit
        // status follows the verdict (1 only for `worse`), not single cases.
        #expect(compare.status == 0, "too few pairs to decide exits 0")
        #expect(compare.standardOutput.contains("too-few-pairs"))
        #expect(compare.standardOutput.contains("at least 6 discordant pairs"))
        #expect(compare.standardOutput.contains("regressed 1"))
        #expect(compare.standardOutput.contains("regressed minimal-record/goal-options"))
        #expect(compare.standardOutput.contains("no output now: invalid-output: /options: `options` has 2 items; at least 3 required"))
        let comparisonPage = try FileManager.default.contentsOfDirectory(atPath: project.appendingPathComponent("Reports").path)
            .filter { $0.hasPrefix("compare-") }
        #expect(comparisonPage.count == 1)
        #expect(compare.standardOutput.contains("paired: "), "the paired verdict line")
        let json = try CommandRunner.run(["compare", "--project", project.path, "latest~2", "latest", "--format", "json"])
        #expect(json.status == 0, "the same rule in JSON")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(Set(object.keys).isSuperset(of: ["a", "b", "pairs", "a_pass", "b_pass", "a_better", "b_better", "p_value", "verdict", "checks", "tokens"]))
        let pValue = try #require(object["p_value"] as? Double)
        #expect(pValue >= 0.05)
        #expect(object["verdict"] as? String == "too-few-pairs")
        #expect(object["a_better"] as? Int == 1, "only the broken options lost their pass")
        let againstGolden = try CommandRunner.run(["compare", "--project", project.path, "latest", "--baseline", "golden"])
        #expect(againstGolden.status == 0, "too few pairs to decide against golden too")
        #expect(againstGolden.standardOutput.contains("against golden: regressed 1"))
        let same = try CommandRunner.run(["compare", "--project", project.path, "latest~4", "latest~4"])
        #expect(same.status == 2)
        #expect(same.standardError.contains("a run compared with itself shows nothing"))
    }
}
