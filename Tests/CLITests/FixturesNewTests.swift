import Foundation
import Testing

/// `fixtures new NAME`: a starting pair that `fixtures check` holds to account until
/// every placeholder is filled, and then passes.
@Suite("trainer-eval fixtures new", .serialized)
struct FixturesNewTests {
    static func makeProject() throws -> URL {
        let project = FileManager.default.temporaryDirectory.appendingPathComponent("new-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: project.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CommandRunner.repositoryRoot.appendingPathComponent("prompts"), to: project.appendingPathComponent("prompts"))
        return project
    }

    static func read(_ path: String, in project: URL) throws -> String {
        try String(contentsOf: project.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func aBlankPairNamesEveryFieldAndEveryExpectationUntilFilled() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let created = try CommandRunner.run(["fixtures", "new", "hill-walker", "--project", project.path])
        #expect(created.status == 0, "\(created.standardOutput)\(created.standardError)")
        #expect(created.standardOutput.hasPrefix("Wrote fixtures/hill-walker.json and fixtures/hill-walker.yaml."))
        #expect(created.standardOutput.contains("docs/adding-a-person.md"))

        let record = try #require(try JSONSerialization.jsonObject(with: Data(Self.read("fixtures/hill-walker.json", in: project).utf8)) as? [String: Any])
        #expect(record.count == 25, "every field of the app's form")
        #expect((record["frequency"] as? String)?.hasPrefix("TODO: the days a week they can train") == true)
        let scenario = try Self.read("fixtures/hill-walker.yaml", in: project)
        for key in ["max_days_per_week", "max_session_minutes", "equipment", "avoid", "professional_referral"] {
            #expect(scenario.contains("  \(key): "), "\(key) in\n\(scenario)")
        }

        let check = try CommandRunner.run(["fixtures", "check", "--project", project.path])
        #expect(check.status == 2)
        #expect(check.standardOutput.contains("error: fixtures/hill-walker.json:3:10: age: still the template's placeholder"), "\(check.standardOutput)")
        #expect(check.standardOutput.contains("error: fixtures/hill-walker.yaml:13:22: expect.max_days_per_week: still the template's TODO"), "\(check.standardOutput)")
        #expect(!check.standardOutput.contains("expected integer"), "a placeholder is one problem, not two")
        #expect(check.standardOutput.contains("32 problems in 1 fixture"), "\(check.standardOutput)")
    }

    @Test func aPairFromARecordQuotesTheAnswersEachExpectationComesFromAndPassesOnceFilled() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let source = CommandRunner.repositoryRoot.appendingPathComponent("fixtures/busy-parent.json")
        let created = try CommandRunner.run(["fixtures", "new", "keisha-again", "--from", source.path, "--project", project.path])
        #expect(created.status == 0, "\(created.standardOutput)\(created.standardError)")
        #expect(try Data(contentsOf: project.appendingPathComponent("fixtures/keisha-again.json")) == Data(contentsOf: source), "the record as the app encodes it")

        var scenario = try Self.read("fixtures/keisha-again.yaml", in: project)
        #expect(scenario.contains("  # frequency: \"3 days max\"\n  max_days_per_week: TODO"), "\(scenario)")
        #expect(scenario.contains("  # environment: \"Home. Living room floor. I have a yoga mat and a pair of 15 lb dumbbells.\"\n  equipment: [TODO]"))
        #expect(scenario.contains("  mention: [\"Keisha\"]"))
        let unfilled = try CommandRunner.run(["fixtures", "check", "--project", project.path])
        #expect(unfilled.status == 2)
        #expect(unfilled.standardOutput.contains("7 problems in 1 fixture"), "\(unfilled.standardOutput)")

        // The author reads the answers and writes the oracle.
        for (placeholder, value) in [
            ("\"TODO: who this person is and what the fixture tests, in one line\"", "\"Keisha again: 20 minutes at home with dumbbells.\""),
            ("\"TODO: what they say about the drafted program, in their words\"", "\"Can you take out anything jumpy?\""),
            ("max_days_per_week: TODO", "max_days_per_week: 3"), ("max_session_minutes: TODO", "max_session_minutes: 25"),
            ("equipment: [TODO]", "equipment: [bodyweight, mat, dumbbell]"), ("avoid: [TODO]", "avoid: [burpee]"),
            ("professional_referral: TODO", "professional_referral: false"),
        ] {
            scenario = scenario.replacingOccurrences(of: placeholder, with: value)
        }
        try scenario.write(to: project.appendingPathComponent("fixtures/keisha-again.yaml"), atomically: true, encoding: .utf8)
        let filled = try CommandRunner.run(["fixtures", "check", "--project", project.path])
        #expect(filled.status == 0, "\(filled.standardOutput)")
    }

    @Test func aTakenOrBadNameOrABrokenRecordIsRefusedAndNothingIsWritten() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        #expect(try CommandRunner.run(["fixtures", "new", "sam", "--project", project.path]).status == 0)
        let before = try Self.read("fixtures/sam.json", in: project)

        let taken = try CommandRunner.run(["fixtures", "new", "sam", "--project", project.path])
        #expect(taken.status == 2)
        #expect(taken.standardError.contains("fixtures/sam.json already exists; fixtures new never overwrites a fixture"), "\(taken.standardError)")
        #expect(try Self.read("fixtures/sam.json", in: project) == before)

        let badName = try CommandRunner.run(["fixtures", "new", "Sam Smith", "--project", project.path])
        #expect(badName.status == 2)
        #expect(badName.standardError.contains("`Sam Smith` is not a fixture name"))
        let reserved = try CommandRunner.run(["fixtures", "new", "variants", "--project", project.path])
        #expect(reserved.status == 2)
        #expect(reserved.standardError.contains("`variants` is reserved"))

        let broken = project.appendingPathComponent("broken.json")
        try #"{"age": "forty"}"#.write(to: broken, atomically: true, encoding: .utf8)
        let badRecord = try CommandRunner.run(["fixtures", "new", "forty", "--from", broken.path, "--project", project.path])
        #expect(badRecord.status == 2)
        #expect(badRecord.standardError.contains("age: expected integer, got string \"forty\""), "\(badRecord.standardError)")
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent("fixtures/forty.json").path))
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent("fixtures/forty.yaml").path))
    }
}
