import Foundation
import Testing

/// Checks added or made stricter after the golden set was approved, and
/// `accept --checks`, run as a user runs them on a project folder of real files.
/// They belong to the serialized golden commands, so they never add a run of the
/// binary in parallel with theirs.
extension GoldenCommandTests {
    /// Rewrites a golden `.checks.json` file of `project` through `change`.
    static func editChecks(_ path: String, in project: URL, _ change: (inout [String: Bool]) -> Void) throws {
        let file = project.appendingPathComponent("golden/\(path)")
        var checks = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Bool])
        change(&checks)
        try JSONSerialization.data(withJSONObject: checks, options: [.prettyPrinted, .sortedKeys]).write(to: file)
    }

    static func checks(_ path: String, in project: URL) throws -> [String: Bool] {
        try #require(JSONSerialization.jsonObject(with: Data(contentsOf: project.appendingPathComponent("golden/\(path)"))) as? [String: Bool])
    }

    static func exists(_ path: String, in project: URL) -> Bool {
        FileManager.default.fileExists(atPath: project.appendingPathComponent("golden/\(path)").path)
    }

    static func summaryLine(_ output: String) -> String {
        output.split(separator: "\n").map(String.init).last { $0.hasPrefix("gate ") } ?? ""
    }

    @Test func aStricterAndANewCheckAreApprovedWithoutTouchingTheOutputs() throws {
        // busy-parent/program-draft differs from golden and minimal-record/goal-options
        // has none: both are pending, and accepting checks must leave them so.
        let project = try Self.makeProjectWithPendingOutputs()
        defer { try? FileManager.default.removeItem(at: project) }
        // options.distinct fails on the approved goal options: as if it passed before the check got stricter.
        try Self.editChecks("busy-parent/goal-options.checks.json", in: project) { $0["options.distinct"] = true }
        // options.distinct fails on the approved edited options too: as if it was added since.
        try Self.editChecks("busy-parent/goal-options-edit-1.checks.json", in: project) { $0["options.distinct"] = nil }
        let approvedOutput = try Self.contents(project, "busy-parent/goal-options.json")

        let gate = try CommandRunner.run(["run", "--ci", "--project", project.path, "--fixture", "busy-parent"])
        #expect(gate.status == 1)
        #expect(gate.standardOutput.contains("regression busy-parent/goal-options"), "\(gate.standardOutput)")
        #expect(gate.standardOutput.contains("unapproved-check 1 step fails new checks, not approved yet:"), "\(gate.standardOutput)")
        #expect(gate.standardOutput.contains("options.distinct ×1"))
        #expect(Self.summaryLine(gate.standardOutput).contains("unapproved check 1"))

        _ = try CommandRunner.run(["run", "--project", project.path, "--fixture", "busy-parent"])
        #expect(Self.exists("busy-parent/goal-options.checks.json.new", in: project))
        #expect(Self.exists("busy-parent/goal-options-edit-1.checks.json.new", in: project))

        // The selection applies: minimal-record's only pending output has no golden yet.
        let selected = try CommandRunner.run(["accept", "--checks", "--project", project.path, "--fixture", "minimal-record"])
        #expect(selected.standardOutput.split(separator: "\n") == [
            "skipped minimal-record/goal-options: no golden output yet; review it with `diff`",
            "No check results accepted: every pending output differs from golden or has none yet.",
        ], "\(selected.standardOutput)")
        #expect(Self.exists("busy-parent/goal-options.json.new", in: project))

        let accept = try CommandRunner.run(["accept", "--checks", "--project", project.path])
        #expect(accept.status == 0, "\(accept.standardOutput)\(accept.standardError)")
        let lines = accept.standardOutput.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(5)) == [
            "accepted checks busy-parent/goal-options",
            "accepted checks busy-parent/goal-options-edit-1",
            "skipped busy-parent/program-draft: output differs; review it with `diff`",
            "skipped minimal-record/goal-options: no golden output yet; review it with `diff`",
            "Check results accepted for 2 outputs; the outputs are unchanged.",
        ], "\(accept.standardOutput)")
        let counted = lines.dropFirst(5).dropLast()
        #expect(counted.contains("    options.distinct: passed, fails now ×1") && counted.contains("    options.distinct: new, fails ×1"))
        // The approved edited options predate the newest checks, which pass and are recorded now too.
        #expect(counted.filter { !$0.hasPrefix("    options.distinct:") }.allSatisfy { $0.hasSuffix(": new, passes ×1") }, "\(counted)")
        #expect(lines.last == "2 left pending: `\(CommandRunner.spelled) diff`, then `\(CommandRunner.spelled) accept` or `\(CommandRunner.spelled) reject`.")
        #expect(try Self.contents(project, "busy-parent/goal-options.json") == approvedOutput)
        #expect(try Self.checks("busy-parent/goal-options.checks.json", in: project)["options.distinct"] == false)
        #expect(try Self.checks("busy-parent/goal-options-edit-1.checks.json", in: project)["options.distinct"] == false)
        #expect(!Self.exists("busy-parent/goal-options.json.new", in: project))
        for step in [Self.changedStep, Self.newStep] {
            #expect(Self.exists("\(step).json.new", in: project), "\(step) stays pending")
        }

        let after = try CommandRunner.run(["run", "--ci", "--project", project.path, "--fixture", "busy-parent"])
        let summary = Self.summaryLine(after.standardOutput)
        #expect(!summary.contains("regression") && !summary.contains("unapproved check"), "\(summary)")
    }

    @Test func aVariantsCheckResultsAreAcceptedInItsOwnFolder() throws {
        let label = "program-draft=v4.4+program-edit=v4.4"
        let variant = ["--variant", "v4.4"]
        let project = try RunCommandTests.makeProject(withGoldenOf: ["busy-parent"])
        defer { try? FileManager.default.removeItem(at: project) }
        try RunCommandTests.copyProgramTrack(label, into: project, fixtures: ["busy-parent"])
        let edit = "variants/\(label)/busy-parent/program-edit"
        try Self.editChecks("\(edit).checks.json", in: project) { $0["program.goal-line"] = nil }
        let approvedOutput = try Self.contents(project, "\(edit).json")

        let gate = try CommandRunner.run(["run", "--ci", "--project", project.path, "--fixture", "busy-parent"] + variant)
        #expect(gate.status == 0, "\(gate.standardOutput)\(gate.standardError)")
        #expect(Self.summaryLine(gate.standardOutput).contains("unapproved check 1"), "\(gate.standardOutput)")

        _ = try CommandRunner.run(["run", "--project", project.path, "--fixture", "busy-parent"] + variant)
        #expect(Self.exists("\(edit).checks.json.new", in: project))
        #expect(!Self.exists("busy-parent/program-edit.json.new", in: project), "the base folder is not the variant's")

        let accept = try CommandRunner.run(["accept", "--checks", "--project", project.path] + variant)
        #expect(accept.status == 0, "\(accept.standardOutput)\(accept.standardError)")
        #expect(accept.standardOutput.contains("accepted checks busy-parent/program-edit"), "\(accept.standardOutput)")
        #expect(accept.standardOutput.contains("    program.goal-line: new, fails ×1"))
        #expect(try Self.checks("\(edit).checks.json", in: project)["program.goal-line"] == false)
        #expect(try Self.contents(project, "\(edit).json") == approvedOutput)
        #expect(!Self.goldenFiles(project).contains { $0.hasSuffix(".new") })

        let again = try CommandRunner.run(["run", "--ci", "--project", project.path, "--fixture", "busy-parent"] + variant)
        #expect(again.status == 0)
        #expect(!Self.summaryLine(again.standardOutput).contains("unapproved check"), "\(again.standardOutput)")
    }
}
