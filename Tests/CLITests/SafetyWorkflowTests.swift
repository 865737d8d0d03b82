import Foundation
import Intake
import JSONSchema
import Testing

/// Safety failures are never approved by accident: `accept` refuses them without a
/// reason, the reason is kept, and the gate shows approved ones apart (through the binary).
@Suite("Safety failures in the golden workflow")
struct SafetyWorkflowTests {
    /// A project with weight-loss-deadline, whose first option set offers a water fast:
    /// the goal steps' prompts of set v5 and their golden files.
    static func makeProject() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("safety-\(UUID().uuidString)")
        let files = FileManager.default
        let repository = CommandRunner.repositoryRoot
        try files.createDirectory(at: root.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
        try files.createDirectory(at: root.appendingPathComponent("golden"), withIntermediateDirectories: true)
        try files.copyItem(at: repository.appendingPathComponent("prompts"), to: root.appendingPathComponent("prompts"))
        try RunCommandTests.pinGoalPromptsToV5(in: root)
        for ext in ["json", "yaml"] {
            try files.copyItem(
                at: repository.appendingPathComponent("fixtures/weight-loss-deadline.\(ext)"),
                to: root.appendingPathComponent("fixtures/weight-loss-deadline.\(ext)"))
        }
        try files.copyItem(
            at: repository.appendingPathComponent("golden/\(RunCommandTests.goalPromptsV5Golden)/weight-loss-deadline"),
            to: root.appendingPathComponent("golden/weight-loss-deadline"))
        return root
    }

    static func run(_ arguments: [String], in project: URL) throws -> CommandRunner.Outcome {
        try CommandRunner.run(Array(arguments.prefix(1)) + ["--project", project.path] + arguments.dropFirst(), unsetting: ["CI"])
    }

    static let step = "golden/weight-loss-deadline/goal-options"

    @Test func anUnsafeOutputIsApprovedOnlyForAReasonThatIsKeptAndShown() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        // The approved fasting options go, so the next run leaves them pending as new.
        for suffix in [".json", ".checks.json", ".allowed-unsafe.json", ".review.json"] {
            try? FileManager.default.removeItem(at: project.appendingPathComponent(Self.step + suffix))
        }
        let run = try Self.run(["run", "--until", "goal-options"], in: project)
        #expect(FileManager.default.fileExists(atPath: project.appendingPathComponent(Self.step + ".json.new").path), "\(run.standardOutput)")

        let refused = try Self.run(["accept"], in: project)
        #expect(refused.status == 1, "\(refused.standardOutput)\(refused.standardError)")
        #expect(refused.standardOutput.contains("refused weight-loss-deadline/goal-options: fails safety checks output.no-harmful-advice[fasting]; left pending"),
                "\(refused.standardOutput)")
        #expect(refused.standardOutput.contains("accept --allow-unsafe \"REASON\""))
        #expect(FileManager.default.fileExists(atPath: project.appendingPathComponent(Self.step + ".json.new").path), "still pending")
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent(Self.step + ".json").path), "not approved")

        let allowed = try Self.run(["accept", "--allow-unsafe", "Kept to show the guardrail must catch fasting.", "--reviewer", "Ann"], in: project)
        #expect(allowed.status == 0, "\(allowed.standardOutput)\(allowed.standardError)")
        #expect(allowed.standardOutput.contains("allowed weight-loss-deadline/goal-options"))
        let allowance = try JSONParser.parse(Data(contentsOf: project.appendingPathComponent(Self.step + ".allowed-unsafe.json")))
        #expect(allowance["reason"]?.stringValue == "Kept to show the guardrail must catch fasting.")
        #expect(allowance["reviewer"]?.stringValue == "Ann")
        #expect(allowance["checks"]?.arrayValue?.compactMap(\.stringValue) == ["output.no-harmful-advice[fasting]"])

        // The gate counts it apart from known failures, at the top, with the reason.
        let gate = try Self.run(["run", "--ci", "--until", "goal-options"], in: project)
        #expect(gate.status == 0, "\(gate.standardOutput)\(gate.standardError)")
        #expect(gate.standardOutput.contains("safety: 1 approved output fails a safety check: 1 allowed for a reason, 0 not"), "\(gate.standardOutput)")
        let results = try JSONParser.parse(Data(contentsOf: project.appendingPathComponent("Reports/latest/results.json")))
        #expect(results["approvedSafetyFailures"]?[0]?["allowedBecause"]?.stringValue == "Kept to show the guardrail must catch fasting.")
        let page = try String(contentsOf: project.appendingPathComponent("Reports/latest/index.html"), encoding: .utf8)
        #expect(page.contains("1 approved output fails a safety check"))
        let markdown = try String(contentsOf: project.appendingPathComponent("Reports/latest/report.md"), encoding: .utf8)
        #expect(markdown.contains("(allowed: Kept to show the guardrail must catch fasting.)"))
    }

    @Test func anApprovedSafetyFailureNothingAllowsFailsTheGateAndIsListed() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let folder = project.appendingPathComponent("golden/weight-loss-deadline")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".allowed-unsafe.json") {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
        let gate = try Self.run(["run", "--ci"], in: project)
        #expect(gate.status == 1, "\(gate.standardOutput)")
        #expect(gate.standardOutput.contains("gate fails · "), "\(gate.standardOutput)")
        #expect(gate.standardOutput.contains(": unsafe, not allowed 2 · "), "\(gate.standardOutput)")
        let listed = try Self.run(["unsafe"], in: project)
        #expect(listed.status == 1)
        #expect(listed.standardOutput.contains("unsafe  weight-loss-deadline/goal-options: output.no-harmful-advice[fasting]"), "\(listed.standardOutput)")
        #expect(listed.standardOutput.contains("2 approved outputs fail a safety check: 0 allowed, 2 not."))

        let allowing = try Self.run(["unsafe", "--allow", "Recorded as the model answered.", "--reviewer", "Ann", "--step", "goal-options"], in: project)
        #expect(allowing.status == 0, "every output of the selection is allowed")
        #expect(allowing.standardOutput.contains("allowed weight-loss-deadline/goal-options: output.no-harmful-advice[fasting]"))
        #expect(try Self.run(["unsafe"], in: project).status == 1, "the option edit is still not allowed")
        #expect(try Self.run(["unsafe", "--allow", "Recorded as the model answered.", "--reviewer", "Ann"], in: project).status == 0)
        #expect(try Self.run(["run", "--ci"], in: project).status == 0)

        // An allowance covers the output it was given for, not a changed one.
        let options = folder.appendingPathComponent("goal-options.json")
        let changed = try String(contentsOf: options, encoding: .utf8).replacingOccurrences(of: "water", with: "WATER")
        try changed.write(to: options, atomically: true, encoding: .utf8)
        let afterChange = try Self.run(["unsafe"], in: project)
        #expect(afterChange.standardOutput.contains("unsafe  weight-loss-deadline/goal-options"), "\(afterChange.standardOutput)")
    }

    @Test func checkResultsThatNowFailASafetyCheckAreApprovedOnlyForAReason() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        // As if the fasting check were new: golden says it passed, and nothing allows it yet.
        let checks = project.appendingPathComponent(Self.step + ".checks.json")
        let approved = try String(contentsOf: checks, encoding: .utf8)
        try approved.replacingOccurrences(of: "\"output.no-harmful-advice[fasting]\": false", with: "\"output.no-harmful-advice[fasting]\": true")
            .write(to: checks, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: project.appendingPathComponent(Self.step + ".allowed-unsafe.json"))
        _ = try Self.run(["run", "--until", "goal-options"], in: project)

        let unreasoned = try Self.run(["accept", "--checks", "--step", "goal-options"], in: project)
        #expect(unreasoned.status == 1, "\(unreasoned.standardOutput)\(unreasoned.standardError)")
        #expect(unreasoned.standardOutput.contains("unsafe  weight-loss-deadline/goal-options: output.no-harmful-advice[fasting]"), "\(unreasoned.standardOutput)")
        #expect(unreasoned.standardOutput.contains("unsafe --allow \"REASON\""))
        #expect(try Self.run(["run", "--ci", "--until", "goal-options"], in: project).status == 1, "the gate shows it as not allowed")

        try approved.replacingOccurrences(of: "\"output.no-harmful-advice[fasting]\": false", with: "\"output.no-harmful-advice[fasting]\": true")
            .write(to: checks, atomically: true, encoding: .utf8)
        _ = try Self.run(["run", "--until", "goal-options"], in: project)
        let reasoned = try Self.run(["accept", "--checks", "--step", "goal-options", "--allow-unsafe", "Kept to show the guardrail must catch fasting.", "--reviewer", "Ann"], in: project)
        #expect(reasoned.status == 0, "\(reasoned.standardOutput)\(reasoned.standardError)")
        #expect(reasoned.standardOutput.contains("allowed weight-loss-deadline/goal-options: output.no-harmful-advice[fasting]"), "\(reasoned.standardOutput)")
        let allowance = try JSONParser.parse(Data(contentsOf: project.appendingPathComponent(Self.step + ".allowed-unsafe.json")))
        #expect(allowance["reason"]?.stringValue == "Kept to show the guardrail must catch fasting.")
        #expect(try Self.run(["run", "--ci", "--until", "goal-options"], in: project).status == 0)
    }
}
