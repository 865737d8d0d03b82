import Foundation
import TestSupport
import Testing

@Suite("trainer-eval run", .serialized)
struct RunCommandTests {
    static let secret = "sk-test-SECRET-7f3a9c1e5b"

    /// A throwaway project with the real prompts and two fixtures.
    /// A project in a new temporary folder with copies of the real prompts and two
    /// fixtures. The goal steps' base prompts are those of prompt set v5, where the
    /// model writes the whole options, which these tests script.
    static func makeProject() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString)")
        let fixtures = root.appendingPathComponent("fixtures")
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CommandRunner.repositoryRoot.appendingPathComponent("prompts"), to: root.appendingPathComponent("prompts"))
        try pinGoalPromptsToV5(in: root)
        for name in ["minimal-record", "busy-parent"] {
            for ext in ["json", "yaml"] {
                try FileManager.default.copyItem(
                    at: CommandRunner.repositoryRoot.appendingPathComponent("fixtures/\(name).\(ext)"),
                    to: fixtures.appendingPathComponent("\(name).\(ext)"))
            }
        }
        return root
    }

    /// `makeProject()` with the committed golden files of `fixtures` (recordings, approved
    /// outputs) and golden/README.md, so the gate passes for them offline. The golden
    /// files are those recorded with the goal steps' prompts of set v5, which the
    /// project's base runs: the harness's tests assert what those outputs hold.
    static func makeProject(withGoldenOf fixtures: [String]) throws -> URL {
        let root = try makeProject()
        let golden = root.appendingPathComponent("golden")
        try FileManager.default.createDirectory(at: golden, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: CommandRunner.repositoryRoot.appendingPathComponent("golden/README.md"), to: golden.appendingPathComponent("README.md"))
        for name in fixtures {
            try FileManager.default.copyItem(
                at: CommandRunner.repositoryRoot.appendingPathComponent("golden/\(goalPromptsV5Golden)/\(name)"), to: golden.appendingPathComponent(name))
        }
        return root
    }

    /// Makes the goal steps' prompts of set v5 the base prompts of the project at `root`.
    static func pinGoalPromptsToV5(in root: URL) throws {
        for step in ["goal-options", "goal-options-edit"] {
            let folder = root.appendingPathComponent("prompts/\(step)")
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("variants/v5").path) {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(file))
                try FileManager.default.copyItem(at: folder.appendingPathComponent("variants/v5/\(file)"), to: folder.appendingPathComponent(file))
            }
        }
    }

    /// Where the golden files recorded with the goal steps' prompts of set v5 live.
    static let goalPromptsV5Golden = "variants/goal-options=v5+goal-options-edit=v5"

    /// Copies the program steps' golden files of a program-only prompt set, recorded
    /// on the goal steps' prompts of set v5, into `project` as its folder `label`
    /// (which `makeProject()`, whose base runs those goal prompts, names by the
    /// program variants alone).
    static func copyProgramTrack(_ track: String, as label: String? = nil, into project: URL, fixtures: [String]) throws {
        let folder = project.appendingPathComponent("golden/variants/\(label ?? track)")
        for fixture in fixtures {
            let source = CommandRunner.repositoryRoot.appendingPathComponent("golden/\(goalPromptsV5Golden)+\(track)/\(fixture)")
            let target = folder.appendingPathComponent(fixture)
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            for name in try FileManager.default.contentsOfDirectory(atPath: source.path) where name.hasPrefix("program-") {
                try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: target.appendingPathComponent(name))
            }
        }
    }

    static let options = #"{"options": [{"id": "move-3x-week", "summary": "Move 3 times a week for 8 weeks", "detail": "Short sessions at home, three times a week."}, {"id": "walk-8k-steps", "summary": "Walk 8,000 steps a day by June", "detail": "Add 500 steps to each day every week."}, {"id": "first-push-up", "summary": "Do 5 full push-ups in 10 weeks", "detail": "Start on the knees, then full push-ups."}]}"#

    static func completion(_ content: String) -> String {
        let escaped = String(decoding: try! JSONEncoder().encode(content), as: UTF8.self)
        return #"{"id": "chatcmpl-1", "object": "chat.completion", "model": "test", "choices": [{"index": 0, "message": {"role": "assistant", "content": "# + escaped + #"}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 900, "completion_tokens": 120, "total_tokens": 1020}}"#
    }

    @Test func runsAStepLiveWithRetriesAndLeaksNoSecret() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let server = try LoopbackServer(sequence: ResponseSequence(
            [.json(#"{"error": {"message": "Rate limit reached for key sk-test-SECRET-7f3a9c1e5b", "type": "requests"}}"#, status: 429)
                .adding(header: "Retry-After", "0")],
            afterwards: .json(Self.completion(Self.options))))
        defer { server.stop() }
        let outcome = try CommandRunner.run(
            ["run", "--project", project.path, "--provider", "openai-compatible", "--base-url", server.url("/v1").absoluteString,
             "--fixture", "minimal-record", "--until", "goal-options", "--record"],
            environment: ["OPENAI_API_KEY": Self.secret])
        #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(outcome.standardError.contains("✓ minimal-record goal-options"))
        #expect(outcome.standardError.contains("(1 retry)"))
        #expect(server.requestCount == 2)
        #expect(server.lastRequest?.header("Authorization") == "Bearer \(Self.secret)")

        // Every file the run wrote (results, cassettes) is free of the key.
        let written = FileManager.default.enumerator(at: project, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath } ?? []
        let reports = written.filter { ["results.json", "report.md", "junit.xml", "index.html"].contains($0.lastPathComponent) }
        let cassettes = written.filter { $0.lastPathComponent.hasSuffix(".cassette.json") }
        #expect(reports.count == 4 && cassettes.count == 1)
        for file in written {
            let text = String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self)
            #expect(!text.contains(Self.secret), "\(file.lastPathComponent) contains the API key")
        }
        #expect(!outcome.standardOutput.contains(Self.secret) && !outcome.standardError.contains(Self.secret))

        // The recording replays offline: same result, no request reaches the server.
        let replay = try CommandRunner.run(["run", "--project", project.path, "--fixture", "minimal-record", "--until", "goal-options"])
        #expect(replay.status == 0, "\(replay.standardOutput)\(replay.standardError)")
        #expect(server.requestCount == 2)
    }

    @Test func theBudgetStopsCallsAndTheRunStillFinishes() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let server = try LoopbackServer(answering: .json(Self.completion(Self.options)))
        defer { server.stop() }
        let outcome = try CommandRunner.run(
            ["run", "--project", project.path, "--provider", "openai-compatible", "--base-url", server.url("/v1").absoluteString,
             "--until", "goal-options", "--max-calls", "1"])
        #expect(outcome.status == 0, "what finished passed: \(outcome.standardError)")
        #expect(server.requestCount == 1)
        #expect(outcome.standardError.contains("stopped: the run's budget of 1 call (--max-calls) is spent."))
        #expect(outcome.standardOutput.contains("Report: Reports/"))
        // The run finished and wrote its whole report, naming the budget on the step it stopped.
        let folder = project.appendingPathComponent("Reports/latest")
        for name in ["results.json", "report.md", "junit.xml", "index.html"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name) missing")
        }
        let junit = try String(contentsOf: folder.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(!junit.contains("<error") && !junit.contains("budget-exhausted"))
        #expect(junit.contains("<skipped message=\"not run: the run") && junit.contains("budget of 1 call (--max-calls) is spent\"/>"))
        let html = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(html.contains("not run: the run&#39;s budget of 1 call (--max-calls) is spent"))
    }

    @Test func helpNamesLlamaServerAsTheLocalEngine() throws {
        let help = try CommandRunner.run(["run", "--help"])
        #expect(help.status == 0)
        let text = help.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("local is llama.cpp's llama-server on 127.0.0.1:8080"))
        #expect(text.contains("json-object-schema for local, which llama-server (and llama-cpp-python) turn into a grammar"))
    }

    @Test func aMissingKeyFailsBeforeAnyCall() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let outcome = try CommandRunner.run(
            ["run", "--project", project.path, "--provider", "anthropic", "--fixture", "minimal-record"],
            environment: ["ANTHROPIC_API_KEY": ""])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("set ANTHROPIC_API_KEY in the environment"))
    }

    @Test func replayWithoutRecordingsSaysHowToRecord() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let outcome = try CommandRunner.run(["run", "--project", project.path, "--fixture", "busy-parent"])
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.contains("stale 1 step has no recording\n    busy-parent/goal-options\n"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("`\(CommandRunner.spelled) run --provider local --record-missing --fixture busy-parent`"))
        let programDraft = try #require(outcome.standardOutput.split(separator: "\n").first { $0.hasPrefix("program-draft ") })
        #expect(programDraft.split(separator: " ").map(String.init) == ["program-draft", "1", "0", "0", "0", "0", "1", "0", "0", "0", "0", "0.0", "-"],
                "the later steps are counted as skipped")
    }

    @Test func anUnreadableRecordingIsBadInputThatNamesTheFileAndLine() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let recording = try Data(contentsOf: CommandRunner.repositoryRoot.appendingPathComponent("golden/busy-parent/goal-options.cassette.json"))
        let folder = project.appendingPathComponent("golden/busy-parent")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try recording.prefix(400).write(to: folder.appendingPathComponent("goal-options.cassette.json"))

        let outcome = try CommandRunner.run(["run", "--project", project.path, "--ci"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("unreadable-recording: The cassette golden/busy-parent/goal-options.cassette.json cannot be read (line "))
        #expect(outcome.standardError.contains("git checkout -- golden/busy-parent/goal-options.cassette.json"))
        #expect(outcome.standardError.contains("1 recording cannot be read: busy-parent/goal-options (exit 2: bad input)"))
        // The other fixture still ran to the end: nothing is lost to one broken file.
        #expect(outcome.standardOutput.contains("stale 1 step has no recording\n    minimal-record/goal-options\n"))
    }

    @Test func renderShowsTheExactMessages() throws {
        let outcome = try CommandRunner.run(["render", "--fixture", "hostile-fake-closing-tag", "--step", "program-edit"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains("## system"))
        let shown = outcome.standardOutput.components(separatedBy: "<current_program>\n").last ?? ""
        #expect(shown.contains(" weeks, ") && shown.contains("\nDay 1, "), "the approved draft, as lines")
        #expect(outcome.standardOutput.components(separatedBy: "</user_feedback>").count == 2)
        let draft = try CommandRunner.run(["render", "--fixture", "hostile-fake-closing-tag", "--step", "program-draft"])
        #expect(draft.standardOutput.components(separatedBy: "</intake_data>").count == 2)
        let unknown = try CommandRunner.run(["render", "--fixture", "hostile-fake-closing-tag", "--step", "nope"])
        #expect(unknown.status == 2)
    }

    /// With approved upstream outputs, `render` prints what a replay sends: the very
    /// messages stored in each step's recording.
    @Test(arguments: ["busy-parent", "verbose-everything"])
    func renderUsesApprovedUpstreamOutputs(fixture: String) throws {
        let steps = [("goal-options", ["--step", "goal-options"])]
            + (1...3).map { ("goal-options-edit-\($0)", ["--step", "goal-options-edit-\($0)"]) }
            + [("program-draft", ["--step", "program-draft"]), ("program-edit", ["--step", "program-edit"])]
        let golden = CommandRunner.repositoryRoot.appendingPathComponent("golden/\(fixture)")
        var compared = 0
        for (id, arguments) in steps {
            let cassette = golden.appendingPathComponent("\(id).cassette.json")
            guard FileManager.default.fileExists(atPath: cassette.path) else { continue }
            let recorded = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: cassette)) as? [String: Any])
            let interactions = try #require(recorded["interactions"] as? [[String: Any]])
            let request = try #require(interactions.first?["request"] as? [String: Any])
            let user = try #require((request["messages"] as? [[String: Any]])?.first?["content"] as? String)
            let system = try #require(request["system"] as? String)

            let outcome = try CommandRunner.run(["render", "--fixture", fixture] + arguments)
            #expect(outcome.status == 0)
            #expect(!outcome.standardOutput.contains("placeholder"), "\(id) used a placeholder")
            // A schema fitted to the person follows the messages.
            let messages = outcome.standardOutput.components(separatedBy: "\n\n## reply schema (fitted to this person").first ?? ""
            #expect(messages.hasSuffix("## system\n\(system)\n\n## user\n\(user)") || messages.hasSuffix("## system\n\(system)\n\n## user\n\(user)\n"), "\(fixture) \(id)")
            compared += 1
        }
        #expect(compared >= 4)
    }

    @Test func renderSaysWhenAnUpstreamOutputIsAPlaceholder() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let outcome = try CommandRunner.run(["render", "--project", project.path, "--fixture", "busy-parent", "--step", "program-edit"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains("# confirmed goal: placeholder (no usable output of goal-options-edit-1)"))
        #expect(outcome.standardOutput.contains("# current program: placeholder (no usable output of program-draft)"))
    }

    /// A re-run with nothing changed reads every replayed step back and says so; its
    /// report is the same as the run that worked them out, and `--no-cache` works them out again.
    @Test func aReplayReadsUnchangedStepsBackAndSaysSo() throws {
        let project = try Self.makeProject(withGoldenOf: ["busy-parent"])
        defer { try? FileManager.default.removeItem(at: project) }
        let arguments = ["run", "--ci", "--project", project.path, "--fixture", "busy-parent"]
        let first = try CommandRunner.run(arguments)
        #expect(first.status == 0, "\(first.standardOutput)\(first.standardError)")
        #expect(!first.standardOutput.contains("read back"))
        let firstResults = try Self.latestResults(in: project)

        let second = try CommandRunner.run(arguments)
        #expect(second.status == 0, "\(second.standardOutput)\(second.standardError)")
        #expect(second.standardOutput.contains("; 4 of 4 replayed steps read back from .step-cache/ (--no-cache works them out)."))
        let secondResults = try Self.latestResults(in: project)
        #expect(secondResults["fixtures"] == firstResults["fixtures"], "the same steps, outputs, checks and verdicts")
        #expect(secondResults["totals"] == firstResults["totals"])

        let fresh = try CommandRunner.run(arguments + ["--no-cache"])
        #expect(fresh.status == 0)
        #expect(!fresh.standardOutput.contains("read back"))
        #expect(try Self.latestResults(in: project)["fixtures"] == firstResults["fixtures"])
    }

    /// The newest run's results.json, parsed.
    static func latestResults(in project: URL) throws -> [String: AnyHashableJSON] {
        let data = try Data(contentsOf: project.appendingPathComponent("Reports/latest/results.json"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        return object.mapValues(AnyHashableJSON.init)
    }
}

/// A parsed JSON value that compares by content.
struct AnyHashableJSON: Equatable {
    let text: String

    init(_ value: Any) {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])) ?? Data()
        text = String(decoding: data, as: UTF8.self)
    }
}
