import Foundation
import Intake
import JSONSchema
import Testing

/// `trainer-eval label` and `agreement` as a reviewer uses them, on a copy of the
/// project with busy-parent's golden files (its committed labels taken out).
///
/// The copy's coaching data has no goal-line rule, so busy-parent's draft passes
/// every check: a reviewer's reject of it is a blind spot.
@Suite("Labels and agreement")
struct LabelCommandTests {
    static func makeProject() throws -> URL {
        let project = try RunCommandTests.makeProject(withGoldenOf: ["busy-parent"])
        let folder = project.appendingPathComponent("golden/busy-parent")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".review.json") {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
        let advice = project.appendingPathComponent("prompts/coaching/advice.yaml")
        var lines = try String(contentsOf: advice, encoding: .utf8).components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "goal_line:"))
        let end = lines[(start + 1)...].firstIndex { !$0.hasPrefix(" ") } ?? lines.endIndex
        lines.removeSubrange(start..<end)
        try lines.joined(separator: "\n").write(to: advice, atomically: true, encoding: .utf8)
        for step in ["program-draft", "program-edit"] {
            let checks = folder.appendingPathComponent("\(step).checks.json")
            let text = try String(contentsOf: checks, encoding: .utf8)
                .replacingOccurrences(of: #"\n\s*"program.goal-line": (true|false),"#, with: "", options: .regularExpression)
            try text.write(to: checks, atomically: true, encoding: .utf8)
        }
        return project
    }

    static func run(_ arguments: [String], in project: URL) throws -> CommandRunner.Outcome {
        try CommandRunner.run(Array(arguments.prefix(1)) + ["--project", project.path] + arguments.dropFirst())
    }

    /// The SHA-256 of an approved output's canonical JSON, its markdown included, worked out here from the files.
    static func approvedDigest(_ project: URL, _ step: String) throws -> String {
        let folder = project.appendingPathComponent("golden/busy-parent")
        guard case .object(var output) = try JSONParser.parse(Data(contentsOf: folder.appendingPathComponent("\(step).json"))) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        if let markdown = try? String(contentsOf: folder.appendingPathComponent("\(step).md"), encoding: .utf8) {
            output["program_markdown"] = .string(markdown)
        }
        return SHA256Digest.hex(of: JSONValue.object(output).serializedBytes(.canonical))
    }

    @Test func aLabelIsKeptBesideTheGoldenFilesTiedToTheOutput() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let outcome = try Self.run(
            ["label", "busy-parent", "program-draft", "reject", "--reason", "too-short-for-time", "--reason", "nonsense-text",
             "--note", "20 of her 25 minutes; the goal line is an instruction.", "--reviewer", "Ann Coach"], in: project)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("rejected busy-parent/program-draft (too-short-for-time, nonsense-text)"))
        let file = project.appendingPathComponent("golden/busy-parent/program-draft.review.json")
        let label = try JSONParser.parse(Data(contentsOf: file))
        #expect(label["verdict"]?.stringValue == "reject")
        #expect(label["reasons"]?.arrayValue?.compactMap(\.stringValue) == ["too-short-for-time", "nonsense-text"])
        #expect(label["note"]?.stringValue == "20 of her 25 minutes; the goal line is an instruction.")
        #expect(label["reviewer"]?.stringValue == "Ann Coach")
        #expect(label["date"]?.stringValue?.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil)
        #expect(label["output_sha256"]?.stringValue == (try Self.approvedDigest(project, "program-draft")))

        // The label file is no step of its own: the gate passes as before.
        let gate = try Self.run(["run", "--ci", "--fixture", "busy-parent"], in: project)
        #expect(gate.status == 0, "\(gate.standardOutput)\(gate.standardError)")
        let results = try JSONParser.parse(Data(contentsOf: project.appendingPathComponent("Reports/latest/results.json")))
        #expect(results["agreement"]?["matrices"]?.arrayValue?.last?["blindSpots"]?.intValue == 1, "every check passes on it")
        let page = try String(contentsOf: project.appendingPathComponent("Reports/latest/index.html"), encoding: .utf8)
        #expect(page.contains("Checks against reviewers"))
        let markdown = try String(contentsOf: project.appendingPathComponent("Reports/latest/report.md"), encoding: .utf8)
        #expect(markdown.contains("`too-short-for-time` (1): `busy-parent/program-draft`"))
    }

    @Test func agreementCountsFreshLabelsAndGates() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        // A reject the checks miss (every check passes on the draft) and two they catch
        // (the first option set and the edit fail checks).
        for arguments in [
            ["label", "busy-parent", "program-draft", "reject", "--reason", "too-short-for-time", "--reviewer", "Ann"],
            ["label", "busy-parent", "goal-options", "reject", "--reason", "cut-text", "--reviewer", "Ann"],
            ["label", "busy-parent", "program-edit", "reject", "--reason", "edit-changed-unasked", "--reviewer", "Ann"],
        ] {
            let outcome = try Self.run(arguments, in: project)
            #expect(outcome.status == 0, "\(outcome.standardError)")
        }
        let text = try Self.run(["agreement"], in: project)
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardOutput.contains("3 labelled outputs judged"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("too-short-for-time (1): busy-parent/program-draft"))
        let json = try Self.run(["agreement", "--format", "json"], in: project)
        let agreement = try JSONParser.parse(Data(json.standardOutput.utf8))
        let all = agreement["matrices"]?.arrayValue?.first { $0["kind"]?.stringValue == "all" }
        #expect(all?["blindSpots"]?.intValue == 1)
        #expect((all?["caught"]?.intValue ?? 0) + (all?["falseAlarms"]?.intValue ?? 0) + (all?["passed"]?.intValue ?? 0) == 2)

        let gate = try Self.run(["agreement", "--min-agreement", "0.99"], in: project)
        #expect(gate.status == 1)
        #expect(gate.standardError.contains("the checks agree with the reviewers on less than 99.0%"), "\(gate.standardError)")
        #expect(try Self.run(["agreement", "--min-agreement", "0.3"], in: project).status == 0)
        let usage = try Self.run(["agreement", "--min-agreement", "90"], in: project)
        #expect(usage.status == 2)
        #expect(usage.standardError.contains("--min-agreement is a share from 0 to 1"))
    }

    @Test func aLabelOfAnOutputThatChangedSinceIsStaleAndNotCounted() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        #expect(try Self.run(["label", "busy-parent", "program-draft", "reject", "--reason", "cut-text", "--reviewer", "Ann"], in: project).status == 0)
        #expect(try Self.run(["label", "busy-parent", "goal-options", "reject", "--reason", "cut-text", "--reviewer", "Ann"], in: project).status == 0)
        // The approved draft changes (a new approval, say): its label no longer judges it.
        let markdown = project.appendingPathComponent("golden/busy-parent/program-draft.md")
        try (String(contentsOf: markdown, encoding: .utf8) + "\nOne more line.\n").write(to: markdown, atomically: true, encoding: .utf8)
        let json = try Self.run(["agreement", "--format", "json"], in: project)
        let agreement = try JSONParser.parse(Data(json.standardOutput.utf8))
        #expect(agreement["stale"]?.arrayValue?.compactMap(\.stringValue) == ["busy-parent/program-draft"])
        #expect(agreement["matrices"]?.arrayValue?.last?["caught"]?.intValue == 1, "only the option set's label counts")
        let text = try Self.run(["agreement"], in: project)
        #expect(text.standardOutput.contains("1 labelled outputs judged, 1 stale"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("Stale labels"))
        // Labelling the output again makes the label fresh.
        #expect(try Self.run(["label", "busy-parent", "program-draft", "sign", "--reviewer", "Ann"], in: project).status == 0)
        let again = try JSONParser.parse(Data(try Self.run(["agreement", "--format", "json"], in: project).standardOutput.utf8))
        #expect(again["stale"]?.arrayValue?.isEmpty == true)
    }

    @Test(arguments: [
        (["busy-parnet", "program-draft", "sign"], "No fixture \"busy-parnet\": did you mean \"busy-parent\"?"),
        (["busy-parent", "program-drafts", "sign"], "busy-parent has no step \"program-drafts\": did you mean \"program-draft\"?"),
        (["busy-parent", "confirm", "sign"], "busy-parent/confirm has no output to label: confirm calls no model"),
        (["busy-parent", "goal-options-edit-4", "sign"], "busy-parent/goal-options-edit-4 has no output to label: it has no approved or pending output yet"),
        (["busy-parent", "program-draft", "sign", "--pending"], "nothing is pending for it"),
        (["busy-parent", "program-draft", "reject", "--reason", "too-shrot-for-time"], "Unknown reason \"too-shrot-for-time\": did you mean \"too-short-for-time\"?"),
        (["busy-parent", "program-draft", "reject"], "A rejection needs at least one --reason"),
        (["busy-parent", "program-draft", "sign", "--reason", "cut-text"], "A signed output has no reasons to reject it"),
        (["busy-parent", "program-draft", "maybe"], "error:"),
    ])
    func badInputIsRefusedWithWhatToDo(arguments: [String], message: String) throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let outcome = try Self.run(["label"] + arguments + ["--reviewer", "Ann"], in: project)
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
        let labels = try FileManager.default.contentsOfDirectory(atPath: project.appendingPathComponent("golden/busy-parent").path)
            .filter { $0.hasSuffix(".review.json") }
        #expect(labels.isEmpty, "nothing written")
    }

    @Test func aBrokenLabelFileIsNamedWithItsField() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        #expect(try Self.run(["label", "busy-parent", "program-draft", "sign", "--reviewer", "Ann"], in: project).status == 0)
        let file = project.appendingPathComponent("golden/busy-parent/program-draft.review.json")
        let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: #""verdict": "sign""#, with: #""verdict": "maybe""#)
        try text.write(to: file, atomically: true, encoding: .utf8)
        let outcome = try Self.run(["agreement"], in: project)
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("golden/busy-parent/program-draft.review.json"), "\(outcome.standardError)")
        #expect(outcome.standardError.contains(#"/verdict: expected "sign" or "reject", got "maybe""#), "\(outcome.standardError)")
        // A run is not stopped by it: the report leaves the labels out and says why.
        let run = try Self.run(["run", "--ci", "--fixture", "busy-parent"], in: project)
        #expect(run.status == 0)
        #expect((run.standardOutput + run.standardError).contains("reviewers' labels were left out of the report"))
    }
}
