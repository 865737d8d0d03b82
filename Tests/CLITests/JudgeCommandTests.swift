import Foundation
import Testing
import TestSupport

/// `judge`: a model-graded rubric asks a judge about approved outputs through a real
/// provider on loopback, records its verdicts, replays them offline, and is measured
/// against the reviewers' labels as a code check is.
@Suite("Model-graded rubrics", .serialized)
struct JudgeCommandTests {
    static let rubric = """
        ---
        applies_to: program
        max_tokens: 120
        ---
        You are a strict coach. Fail a program that does not do what its feedback asked.
        """

    /// busy-parent with its golden files and reviewers' labels (both programs rejected), and the rubric `strict`.
    static func makeProject() throws -> URL {
        let project = try RunCommandTests.makeProject(withGoldenOf: ["busy-parent"])
        let folder = project.appendingPathComponent("prompts/rubrics")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try rubric.write(to: folder.appendingPathComponent("strict.md"), atomically: true, encoding: .utf8)
        return project
    }

    /// A judge that fails the edit (its request holds the feedback) and passes the draft.
    static func judge() throws -> LoopbackServer {
        try LoopbackServer { request in
            let body = String(decoding: request.body, as: UTF8.self)
            let verdict = body.contains("user_feedback")
                ? #"{"verdict": "fail", "reason": "It swapped exercises nobody asked about."}"#
                : #"{"verdict": "pass", "reason": "Fits the person."}"#
            return .json(RunCommandTests.completion(verdict))
        }
    }

    @Test func aRubricIsRecordedThenReplayedOfflineAndMeasuredAgainstTheLabels() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let server = try Self.judge()
        defer { server.stop() }
        let scope = ["judge", "strict", "--project", project.path]

        let recorded = try CommandRunner.run(scope + ["--provider", "openai-compatible", "--base-url", server.url("/v1").absoluteString, "--record"])
        #expect(recorded.status == 0, "\(recorded.standardOutput)\(recorded.standardError)")
        #expect(server.requestCount == 2, "one call per approved program")
        #expect(recorded.standardOutput.contains("pass  busy-parent/program-draft: Fits the person."), "\(recorded.standardOutput)")
        #expect(recorded.standardOutput.contains("fail  busy-parent/program-edit: It swapped exercises nobody asked about."))
        let recording = project.appendingPathComponent("golden/judges/strict/busy-parent/program-edit.cassette.json")
        #expect(FileManager.default.fileExists(atPath: recording.path))
        // The judge reads the person's answers, the feedback and the program as data, never the scenario's expectations.
        let edit = try #require(server.requests.map { String(decoding: $0.body, as: UTF8.self) }.first { $0.contains("user_feedback") })
        #expect(edit.contains("<intake_data>") && edit.contains("<output>") && edit.contains("Dumbbell"), "\(edit.prefix(400))")
        #expect(!edit.contains("expect") && !edit.contains("must_mention"))

        // Offline, the same verdicts, and the judge as a check: the edit caught, the draft a blind spot.
        let replayed = try CommandRunner.run(scope + ["--format", "json"])
        #expect(replayed.status == 0, "\(replayed.standardOutput)\(replayed.standardError)")
        #expect(server.requestCount == 2, "a replay calls nobody")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(replayed.standardOutput.utf8)) as? [String: Any])
        let verdicts = try #require(object["verdicts"] as? [[String: Any]])
        #expect(verdicts.map { $0["verdict"] as? String } == ["pass", "fail"])
        let matrices = try #require((object["agreement"] as? [String: Any])?["matrices"] as? [[String: Any]])
        let program = try #require(matrices.first { $0["kind"] as? String == "program" })
        #expect(program["caught"] as? Int == 1 && program["blindSpots"] as? Int == 1 && program["falseAlarms"] as? Int == 0, "\(program)")

        let gated = try CommandRunner.run(scope + ["--min-agreement", "0.9"])
        #expect(gated.status == 1)
        #expect(gated.standardError.contains("the judge agrees with the reviewers on less than 90.0%: program 50.0% of 2"), "\(gated.standardError)")

        // The folder of verdicts is no fixture's: the gate and the pruning leave it alone.
        let gate = try CommandRunner.run(["run", "--ci", "--fixture", "busy-parent", "--project", project.path])
        #expect(gate.status == 0, "\(gate.standardOutput)")
        #expect(!gate.standardOutput.contains("judges"), "\(gate.standardOutput)")
        let pruned = try CommandRunner.run(["accept", "--prune", "--project", project.path])
        #expect(!pruned.standardOutput.contains("judges"), "\(pruned.standardOutput)")
        #expect(FileManager.default.fileExists(atPath: recording.path))

        // A changed rubric makes every recorded verdict stale: not judged, and the command fails.
        let file = project.appendingPathComponent("prompts/rubrics/strict.md")
        try (Self.rubric + "\nFail a program with sessions far shorter than the person's time.\n").write(to: file, atomically: true, encoding: .utf8)
        let stale = try CommandRunner.run(scope + ["--fixture", "busy-parent"])
        #expect(stale.status == 1)
        #expect(stale.standardError.contains("not judged: busy-parent/program-draft: the verdict in golden/judges/strict/busy-parent/program-draft.cassette.json was recorded for another request"),
                "\(stale.standardError)")
        #expect(stale.standardError.contains("judge strict --provider local --record-missing --fixture busy-parent`"), "the command that records them, scoped as this one was")
    }

    @Test(arguments: [
        ("strickt", nil, "prompts/rubrics/strickt.md: no rubric named `strickt` (there are coach-options, coach-program, strict). Did you mean `strict`?"),
        ("broken", "---\napplies_to: programs\n---\nJudge.\n", "prompts/rubrics/broken.md:2:1: /applies_to: expected program or options, got \"programs\""),
        ("broken", "---\napplies_to: program\nmodel: big\n---\nJudge.\n", "prompts/rubrics/broken.md:3:1: unknown key `model`"),
        ("broken", "Judge every program.\n", "prompts/rubrics/broken.md:1:1: a rubric opens with a YAML block"),
        ("broken", "---\napplies_to: options\n---\n\n", "prompts/rubrics/broken.md:4:1: the rubric has no instructions"),
    ] as [(String, String?, String)])
    func aMissingOrBrokenRubricIsNamedByFileLineAndField(name: String, text: String?, message: String) throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        if let text {
            try text.write(to: project.appendingPathComponent("prompts/rubrics/\(name).md"), atomically: true, encoding: .utf8)
        }
        let outcome = try CommandRunner.run(["judge", name, "--project", project.path])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
    }
}
