import Foundation
import Testing

/// `trainer-eval check`: one output file judged as a run judges it, through the binary.
@Suite("trainer-eval check", .serialized)
struct CheckCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("check-\(UUID().uuidString)", isDirectory: true)

    /// Three options for busy-parent (Keisha: 20-minute evenings, energy, monkey bars) that a coach would sign.
    static let options = """
        {"options": [
          {"id": "evening-energy", "summary": "Feel more energetic with 20-minute evening workouts", "detail": "Three short dumbbell and mat sessions a week, at home after the kids are in bed."},
          {"id": "monkey-bars", "summary": "Keep up with your kids at the playground", "detail": "Grip, shoulder and core strength for hanging, climbing and carrying."},
          {"id": "steady-routine", "summary": "Build a steady three-day habit that fits busy weeks", "detail": "Simple full-body routines you can repeat without planning."}
        ]}
        """

    func write(_ text: String, as name: String) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    /// The approved program draft with its markdown, as the model returned it; `track` is
    /// a variant's folder under golden/ (`variants/<label>/`), empty for the base.
    func approvedDraft(_ fixture: String, track: String = "") throws -> String {
        let golden = CommandRunner.repositoryRoot.appendingPathComponent("golden/\(track)\(fixture)")
        var json = try String(contentsOf: golden.appendingPathComponent("program-draft.json"), encoding: .utf8)
        let markdown = try String(contentsOf: golden.appendingPathComponent("program-draft.md"), encoding: .utf8)
        let escaped = try String(decoding: JSONEncoder().encode(markdown), as: UTF8.self)
        json = String(json.trimmingCharacters(in: .whitespacesAndNewlines).dropLast()) + ", \"program_markdown\": \(escaped)}"
        return try write(json, as: "\(fixture)-draft.json")
    }

    @Test func goodOptionsPassEveryCheckAndExitZero() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try CommandRunner.run(["check", "--fixture", "busy-parent", "--step", "goal-options", try write(Self.options, as: "options.json")])
        #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("pass    schema: meets the app's contract (prompts/schemas/contract/goal-options.schema.json)"))
        #expect(!outcome.standardOutput.contains("note"), "the prompt set's schema accepts it too")
        #expect(outcome.standardOutput.contains("pass    options.distinct:"))
        #expect(outcome.standardOutput.hasSuffix("busy-parent goal-options: valid · 17 pass · 0 fail\n"))
    }

    @Test func aFailingCheckExitsOneAndJSONListsEveryCheck() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // Prompt set v3, where the model wrote the whole program.
        let draft = try approvedDraft("total-beginner", track: "variants/goal-options=v5+goal-options-edit=v5+program-draft=v3+program-edit=v3/")
        let outcome = try CommandRunner.run(["check", "--variant", "v3", "--fixture", "total-beginner", "--step", "program-draft", draft, "--format", "json"])
        #expect(outcome.status == 1, "\(outcome.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        #expect(object["fixture"] as? String == "total-beginner")
        #expect(object["step"] as? String == "program-draft")
        #expect(object["valid"] as? Bool == true)
        let checks = try #require(object["checks"] as? [[String: Any]])
        #expect(checks.allSatisfy { Set($0.keys) == ["name", "passed", "message"] })
        // The approved draft's known failures: it lists deadlifts and a bench press for someone without a barbell.
        let equipment = try #require(checks.first { $0["name"] as? String == "program.equipment[barbell]" })
        #expect(equipment["passed"] as? Bool == false)
        #expect((equipment["message"] as? String)?.contains("\"Deadlifts\" (\"deadlift\" implies it)") == true)
    }

    @Test func aSchemaErrorIsAFailure() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try CommandRunner.run(["check", "--fixture", "busy-parent", "--step", "goal-options", try write(#"{"options": []}"#, as: "empty.json")])
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.contains("FAIL    schema: breaks the app's contract (prompts/schemas/contract/goal-options.schema.json): /options: `options` has 0 items; at least 3 required"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("busy-parent goal-options: invalid ·"))
    }

    /// The seed's own option form (`opt_N` ids, an option without a detail) and a program
    /// with a one-week phase: the app takes both, though the base's reply schemas ask a
    /// small model for slugs, a detail and week ranges.
    @Test func theAppsContractJudgesAndTheReplySchemaIsANote() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let seed = try write(#"{"options": [{"id": "opt_1", "summary": "Feel more energetic with 20-minute evening workouts", "detail": "Three short sessions a week, at home after the kids are in bed."}, {"id": "opt_2", "summary": "Keep up with your kids at the playground"}, {"id": "opt_3", "summary": "Build a steady three-day habit that fits busy weeks", "detail": "Simple full-body routines you can repeat without planning."}]}"#, as: "seed.json")
        let options = try CommandRunner.run(["check", "--fixture", "busy-parent", "--step", "goal-options", seed])
        #expect(options.status == 0, "\(options.standardOutput)\(options.standardError)")
        #expect(options.standardOutput.contains("pass    schema: meets the app's contract"))
        #expect(options.standardOutput.contains("note    the app accepts it, but the prompt set's schema (prompts/schemas/goal-options-v6.schema.json) would not: /options/0/id: `id` is \"opt_1\""), "\(options.standardOutput)")
        #expect(options.standardOutput.contains("/options/1: missing required property `detail`"))
        #expect(options.standardOutput.hasSuffix("busy-parent goal-options: valid · 17 pass · 0 fail\n"), "\(options.standardOutput)")

        let json = try CommandRunner.run(["check", "--fixture", "busy-parent", "--step", "goal-options", seed, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["valid"] as? Bool == true)
        let reply = try #require(object["reply_schema"] as? [String: Any])
        #expect(reply["file"] as? String == "prompts/schemas/goal-options-v6.schema.json")
        #expect((reply["problems"] as? [String])?.count == 4, "\(reply)")

        // The approved draft with its last phase one week long, as "12".
        let draftPath = try approvedDraft("busy-parent")
        var draft = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: draftPath))) as? [String: Any])
        var program = try #require(draft["program_json"] as? [String: Any])
        var phases = try #require(program["progression"] as? [[String: Any]])
        let lastWeek = try #require((phases[phases.count - 1]["weeks"] as? String)?.split(separator: "-").last)
        phases[phases.count - 1]["weeks"] = String(lastWeek)
        program["progression"] = phases
        draft["program_json"] = program
        let oneWeek = try write(String(decoding: try JSONSerialization.data(withJSONObject: draft), as: UTF8.self), as: "one-week.json")
        let programCheck = try CommandRunner.run(["check", "--fixture", "busy-parent", "--step", "program-draft", oneWeek, "--format", "json"])
        let programObject = try #require(try JSONSerialization.jsonObject(with: Data(programCheck.standardOutput.utf8)) as? [String: Any])
        #expect(programObject["valid"] as? Bool == true, "\(programCheck.standardOutput)")
        #expect(((programObject["reply_schema"] as? [String: Any])?["problems"] as? [String])?.first?.contains("/progression/\(phases.count - 1)/weeks") == true)
        let checks = try #require(programObject["checks"] as? [[String: Any]])
        #expect(checks.first { $0["name"] as? String == "program.progression-covers-weeks" }?["passed"] as? Bool == true, "a one-week phase covers its week")

        // What the app cannot decode still fails: an option without a summary.
        let broken = try write(#"{"options": [{"id": "opt_1"}, {"id": "opt_2", "summary": "Walk more"}, {"id": "opt_3", "summary": "Lift more"}]}"#, as: "broken.json")
        let refused = try CommandRunner.run(["check", "--fixture", "busy-parent", "--step", "goal-options", broken])
        #expect(refused.status == 1)
        #expect(refused.standardOutput.contains("FAIL    schema: breaks the app's contract (prompts/schemas/contract/goal-options.schema.json): /options/0: missing required property `summary`"), "\(refused.standardOutput)")
    }

    @Test func anEditWithoutItsPreviousOutputReportsTheComparisonAsNotRun() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try write(Self.options, as: "options.json")
        let alone = try CommandRunner.run(["check", "--fixture", "busy-parent", "--step", "goal-options-edit", file])
        #expect(alone.status == 0, "not run is never a failure: \(alone.standardOutput)")
        #expect(alone.standardOutput.contains("not run edit.changed: needs --previous, the output before the edit"))
        #expect(alone.standardOutput.contains("pass    edit.reflects-feedback: the changed options mention \"20-minute\""), "the scenario's first round is the feedback")

        let unchanged = try CommandRunner.run(["check", "--fixture", "busy-parent", "--step", "goal-options-edit", file, "--previous", file, "--format", "json"])
        #expect(unchanged.status == 1)
        #expect(unchanged.standardOutput.contains(#"{"name":"edit.changed","passed":false,"message":"the options are identical"#))

        let ownFeedback = try CommandRunner.run(["check", "--fixture", "busy-parent", "--step", "goal-options-edit", file, "--feedback", "More yoga, please.", "--format", "json"])
        #expect(ownFeedback.status == 0)
        #expect(ownFeedback.standardOutput.contains(#"{"name":"edit.reflects-feedback","passed":null,"message":"the scenario's expected words belong to its own feedback, not to --feedback"}"#))
    }

    @Test func aProgramEditIsComparedWithTheDraftItWasGiven() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let draft = try approvedDraft("knee-injury")
        let outcome = try CommandRunner.run(["check", "--fixture", "knee-injury", "--step", "program-edit", draft, "--previous", draft])
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.contains("FAIL    edit.changed: the edited program is identical to the draft"), "\(outcome.standardOutput)")

        // Asked to take out jumps the draft never held, an unchanged program is right; saying nothing of it is not.
        let quiet = try approvedDraft("busy-parent")
        let never = try CommandRunner.run(["check", "--fixture", "busy-parent", "--step", "program-edit", quiet, "--previous", quiet])
        #expect(never.standardOutput.contains("pass    edit.changed: the program is unchanged: it never held what the feedback asks to take out (jumps, hops and landings)"),
                "\(never.standardOutput)")
        #expect(never.standardOutput.contains("FAIL    edit.says-it-was-not-there: the program never held what the feedback names (jumps, hops and landings)"))
    }

    @Test(arguments: [
        (["--fixture", "busy-parnt", "--step", "goal-options"], "No fixture named `busy-parnt` in fixtures/. Did you mean `busy-parent`?"),
        (["--fixture", "busy-parent", "--step", "confirm"], "`confirm` is not a step whose output can be checked."),
        (["--fixture", "busy-parent", "--step", "program-drafts"], "Did you mean `program-draft`?"),
    ])
    func anUnknownFixtureOrStepIsBadInput(arguments: [String], message: String) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try CommandRunner.run(["check"] + arguments + [try write(Self.options, as: "options.json")])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
    }

    @Test func aFileThatIsNotJSONIsNamedWithItsLineAndColumn() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = try write("{\"options\": [\n  {\"id\": 1,}\n]}", as: "broken.json")
        let outcome = try CommandRunner.run(["check", "--fixture", "busy-parent", "--step", "goal-options", broken])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("broken.json:2:12: not JSON: expected a member name in double quotes"), "\(outcome.standardError)")
        let missing = try CommandRunner.run(["check", "--fixture", "busy-parent", "--step", "goal-options", folder.appendingPathComponent("none.json").path])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("none.json: no such file."))
    }
}
