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
        #expect(outcome.standardOutput.contains("pass    schema: valid against prompts/schemas/goal-options-v3.schema.json"))
        #expect(outcome.standardOutput.contains("pass    options.distinct:"))
        #expect(outcome.standardOutput.hasSuffix("busy-parent goal-options: valid · 17 pass · 0 fail\n"))
    }

    @Test func aFailingCheckExitsOneAndJSONListsEveryCheck() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // Prompt set v3, where the model wrote the whole program.
        let draft = try approvedDraft("total-beginner", track: "variants/program-draft=v3+program-edit=v3/")
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
        #expect(outcome.standardOutput.contains("FAIL    schema: /options: `options` has 0 items; at least 3 required"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("busy-parent goal-options: invalid ·"))
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
        let draft = try approvedDraft("busy-parent")
        let outcome = try CommandRunner.run(["check", "--fixture", "busy-parent", "--step", "program-edit", draft, "--previous", draft])
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.contains("FAIL    edit.changed: the edited program is identical to the draft"))
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
