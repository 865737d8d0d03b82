import Foundation
import Testing
import TestSupport

/// `pending`, `diff`, `accept`, `reject`, `review` and the orphan gate, run as a user
/// runs them on a project folder of real files.
@Suite("Golden commands", .serialized)
struct GoldenCommandTests {
    static let changedStep = "busy-parent/program-draft"
    static let newStep = "minimal-record/goal-options"
    static let pendingSuffixes = [".json.new", ".md.new", ".checks.json.new"]

    /// A project with the committed golden set of its two fixtures, except that
    /// busy-parent's approved program draft gave the dumbbell chair squat 8-10 reps (replay says 10-12)
    /// and minimal-record's goal options were never approved. A replay of the suite
    /// leaves one changed and one new output pending.
    static func makeProjectWithPendingOutputs() throws -> URL {
        let project = try RunCommandTests.makeProject(withGoldenOf: ["busy-parent", "minimal-record"])
        let golden = project.appendingPathComponent("golden")

        // Keys are sorted: an exercise's `reps` follows its `name`.
        let draftFile = golden.appendingPathComponent("busy-parent/program-draft.json")
        let draft = try String(contentsOf: draftFile, encoding: .utf8)
        let squat = try #require(draft.range(of: #""name": "Dumbbell chair squat","#))
        let reps = try #require(draft.range(of: #""reps": "10-12""#, range: squat.upperBound..<draft.endIndex))
        try draft.replacingCharacters(in: reps, with: #""reps": "8-10""#).write(to: draftFile, atomically: true, encoding: .utf8)
        let markdownFile = golden.appendingPathComponent("busy-parent/program-draft.md")
        let markdown = try String(contentsOf: markdownFile, encoding: .utf8)
        let edited = markdown.replacingOccurrences(of: "- **Dumbbell chair squat**: 2 × 10-12,", with: "- **Dumbbell chair squat**: 2 × 8-10,")
        #expect(edited != markdown)
        try edited.write(to: markdownFile, atomically: true, encoding: .utf8)
        for name in ["goal-options.json", "goal-options.checks.json"] {
            try FileManager.default.removeItem(at: golden.appendingPathComponent("minimal-record/\(name)"))
        }

        let replay = try CommandRunner.run(["run", "--project", project.path])
        #expect(replay.status == 0, "\(replay.standardOutput)\(replay.standardError)")
        for step in [changedStep, newStep] {
            #expect(FileManager.default.fileExists(atPath: golden.appendingPathComponent("\(step).json.new").path), "\(step) not pending")
        }
        return project
    }

    /// Every file under golden/, as paths relative to it, sorted.
    static func goldenFiles(_ project: URL) -> [String] {
        let golden = project.appendingPathComponent("golden")
        let entries = FileManager.default.enumerator(at: golden, includingPropertiesForKeys: [.isDirectoryKey])?
            .compactMap { $0 as? URL } ?? []
        return entries.filter { !$0.hasDirectoryPath }
            .map { String($0.standardizedFileURL.path.dropFirst(golden.standardizedFileURL.path.count + 1)) }
            .sorted()
    }

    static func contents(_ project: URL, _ path: String) throws -> Data {
        try Data(contentsOf: project.appendingPathComponent("golden/\(path)"))
    }

    /// A variant's pending outputs wait in its own folder: `pending` and `diff` without
    /// `--variant` list them too, labelled, and a new one is shown with the base's approved output beside it.
    @Test func pendingAndDiffListEveryTrackAndShowANewOutputBesideTheBase() throws {
        let project = try Self.makeProjectWithPendingOutputs()
        defer { try? FileManager.default.removeItem(at: project) }
        let golden = project.appendingPathComponent("golden")
        let variantFolder = golden.appendingPathComponent("variants/program-draft=short/busy-parent")
        try FileManager.default.createDirectory(at: variantFolder, withIntermediateDirectories: true)
        for suffix in Self.pendingSuffixes {
            try FileManager.default.moveItem(
                at: golden.appendingPathComponent("\(Self.changedStep)\(suffix)"),
                to: variantFolder.appendingPathComponent("program-draft\(suffix)"))
        }
        let pending = try CommandRunner.run(["pending", "--project", project.path])
        #expect(pending.status == 0)
        let lines = pending.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(pending.standardOutput)")
        #expect(lines.first == "[base] new \(Self.newStep): no golden output yet, 2 checks failing")
        #expect(lines.dropFirst().first?.hasPrefix("[program-draft=short] new \(Self.changedStep): no golden output yet") == true)
        #expect(lines.last == "2 pending (base 1, program-draft=short 1).")

        // The same new output, through every track and through `--variant`.
        let variantPrompts = project.appendingPathComponent("prompts/program-draft/variants/short")
        try FileManager.default.createDirectory(at: variantPrompts, withIntermediateDirectories: true)
        try "Write the shortest program that fits.\n".write(
            to: variantPrompts.appendingPathComponent("system.md"), atomically: true, encoding: .utf8)
        for selection in [[], ["--variant", "program-draft=short"]] {
            let diff = try CommandRunner.run(["diff", "--project", project.path, "--fixture", "busy-parent"] + selection)
            #expect(diff.status == 0, "\(selection): \(diff.standardError)")
            let text = diff.standardOutput
            #expect(text.contains("[program-draft=short] new \(Self.changedStep)"), "\(selection): \(text)")
            #expect(text.contains("new output:") && text.contains("\"name\": \"Dumbbell chair squat\""), "the new output itself")
            #expect(text.contains("new markdown:") && text.contains("- **Dumbbell chair squat**: 2 × 10-12,"), "its markdown as text")
            #expect(text.contains("against the base's approved output:"), "\(selection)")
            #expect(text.contains("8-10") && text.contains("10-12"), "the base's approved reps beside the new ones")
            #expect(text.hasSuffix("1 pending.\n"))
        }
    }

    @Test func pendingListsEachWaitingOutputWithHowItDiffers() throws {
        let project = try Self.makeProjectWithPendingOutputs()
        defer { try? FileManager.default.removeItem(at: project) }
        let pending = try CommandRunner.run(["pending", "--project", project.path])
        #expect(pending.status == 0)
        let lines = pending.standardOutput.split(separator: "\n").map(String.init)
        // A check written since the output was approved adds its result to the line ("1 check now passing").
        #expect(lines.count == 3 && lines[0].hasPrefix("changed \(Self.changedStep): 1 JSON change, markdown +1 −1"), "\(pending.standardOutput)")
        #expect(Array(lines.dropFirst()) == ["new \(Self.newStep): no golden output yet, 2 checks failing", "2 pending."], "\(pending.standardOutput)")
        #expect(!pending.standardOutput.contains("Dumbbell chair squat"), "pending lists; diff shows the changes")

        let selected = try CommandRunner.run(["pending", "--project", project.path, "--fixture", "minimal-record"])
        #expect(selected.standardOutput.split(separator: "\n") == ["new \(Self.newStep): no golden output yet, 2 checks failing", "1 pending."])
    }

    @Test func diffShowsTheStructuralJSONChangeAndTheMarkdownLinesInColourOnlyWhenAsked() throws {
        let project = try Self.makeProjectWithPendingOutputs()
        defer { try? FileManager.default.removeItem(at: project) }
        let arguments = ["diff", "--project", project.path, "--fixture", "busy-parent"]
        let jsonChange = #"~ program_json.sessions[day=1].exercises[name="Dumbbell chair squat"].reps: "8-10" → "10-12""#

        // Standard output is a pipe here, not a terminal: plain text.
        let plain = try CommandRunner.run(arguments, unsetting: ["NO_COLOR", "FORCE_COLOR"])
        #expect(plain.status == 0)
        #expect(plain.standardOutput.contains("changed \(Self.changedStep): 1 JSON change, markdown +1 −1"))
        #expect(plain.standardOutput.contains("    " + jsonChange), "\(plain.standardOutput)")
        #expect(plain.standardOutput.contains("    --- golden markdown\n    +++ pending markdown\n"))
        #expect(plain.standardOutput.contains("    -- **Dumbbell chair squat**: 2 × 8-10, rest 60 s. Hold the dumbbells at your sides and sit back to the chair.\n    +- **Dumbbell chair squat**: 2 × 10-12, rest 60 s. Hold the dumbbells at your sides and sit back to the chair."))
        #expect(!plain.standardOutput.contains("\u{1B}["), "no escape codes off a terminal")
        #expect(!plain.standardOutput.contains(Self.newStep), "--fixture limits the diff")

        let forced = try CommandRunner.run(arguments, environment: ["FORCE_COLOR": "1"], unsetting: ["NO_COLOR", "TERM"])
        #expect(forced.standardOutput.contains("\u{1B}[33mchanged\u{1B}[0m \(Self.changedStep)"))
        #expect(forced.standardOutput.contains("\u{1B}[33m" + jsonChange + "\u{1B}[0m"), "\(forced.standardOutput)")

        // NO_COLOR wins over FORCE_COLOR.
        let noColor = try CommandRunner.run(arguments, environment: ["NO_COLOR": "1", "FORCE_COLOR": "1"])
        #expect(noColor.standardOutput == plain.standardOutput)
    }

    @Test func rejectRemovesOnlyTheSelectedPendingFilesAndKeepsGolden() throws {
        let project = try Self.makeProjectWithPendingOutputs()
        defer { try? FileManager.default.removeItem(at: project) }
        let approved = try ["json", "md", "checks.json"].map { try Self.contents(project, "\(Self.changedStep).\($0)") }

        let reject = try CommandRunner.run(["reject", "--project", project.path, "--fixture", "busy-parent"])
        #expect(reject.status == 0)
        #expect(Array(reject.standardOutput.split(separator: "\n").prefix(2)) == ["rejected \(Self.changedStep)", "1 rejected."])
        // What comes next: the replay would bring it back, so re-record it or change the prompt.
        #expect(reject.standardOutput.contains("The next replay brings it back from the recordings."), "\(reject.standardOutput)")
        #expect(reject.standardOutput.contains("`\(CommandRunner.spelled) run --fixture busy-parent --until program-draft --provider local --record`"),
                "\(reject.standardOutput)")
        #expect(reject.standardOutput.contains("or change the prompt in a variant"))
        let files = Self.goldenFiles(project)
        #expect(!files.contains { $0.hasPrefix(Self.changedStep + ".") && $0.hasSuffix(".new") }, "\(files)")
        #expect(try ["json", "md", "checks.json"].map { try Self.contents(project, "\(Self.changedStep).\($0)") } == approved,
                "golden is untouched")
        #expect(files.contains(Self.newStep + ".json.new"), "the other fixture's pending output stays")

        let rest = try CommandRunner.run(["reject", "--project", project.path])
        #expect(Array(rest.standardOutput.split(separator: "\n").prefix(2)) == ["rejected \(Self.newStep)", "1 rejected."])
        #expect(!Self.goldenFiles(project).contains { $0.hasSuffix(".new") })
        #expect(!Self.goldenFiles(project).contains(Self.newStep + ".json"), "rejecting a new output approves nothing")
    }

    @Test func acceptWithFixtureAndStepPromotesOnlyThatOutput() throws {
        let project = try Self.makeProjectWithPendingOutputs()
        defer { try? FileManager.default.removeItem(at: project) }
        let pending = try Self.pendingSuffixes.map { try Self.contents(project, Self.changedStep + $0) }

        let accept = try CommandRunner.run(["accept", "--project", project.path, "--fixture", "busy-parent", "--step", "program-draft"])
        #expect(accept.status == 0)
        #expect(accept.standardOutput.split(separator: "\n") == ["accepted \(Self.changedStep)", "1 accepted."])
        #expect(try [".json", ".md", ".checks.json"].map { try Self.contents(project, Self.changedStep + $0) } == pending,
                "the pending files became the golden ones")
        let files = Self.goldenFiles(project)
        #expect(!files.contains { $0.hasPrefix(Self.changedStep + ".") && $0.hasSuffix(".new") })
        #expect(files.contains(Self.newStep + ".json.new") && !files.contains(Self.newStep + ".json"), "the other output is still pending")
        #expect(try CommandRunner.run(["pending", "--project", project.path]).standardOutput.hasSuffix("1 pending.\n"))

        let nothing = try CommandRunner.run(["accept", "--project", project.path, "--fixture", "busy-parent"])
        #expect(nothing.standardOutput == "Nothing pending for that selection.\n")

        // Approved, the changed step matches again; only the new one keeps the gate shut.
        let gate = try CommandRunner.run(["run", "--ci", "--project", project.path])
        #expect(gate.status == 1)
        #expect(!gate.standardOutput.contains("changed \(Self.changedStep)"))
        #expect(gate.standardOutput.contains("new \(Self.newStep)"), "\(gate.standardOutput)")
    }

    /// Files left behind by a fixture, a scenario's option edit and a step that no longer
    /// exist: the gate names every one, and only `accept --prune` deletes them.
    @Test func theGateNamesEveryOrphanedFileAndPruneDeletesExactlyThose() throws {
        let project = try RunCommandTests.makeProject(withGoldenOf: ["busy-parent", "minimal-record"])
        defer { try? FileManager.default.removeItem(at: project) }
        let golden = project.appendingPathComponent("golden")
        let clean = try CommandRunner.run(["run", "--ci", "--project", project.path])
        #expect(clean.status == 0, "\(clean.standardOutput)\(clean.standardError)")
        #expect(!clean.standardOutput.contains("orphan"))

        try "Notes on this fixture's recordings.\n".write(to: golden.appendingPathComponent("busy-parent/notes.txt"), atomically: true, encoding: .utf8)
        let kept = Self.goldenFiles(project)
        try FileManager.default.copyItem(
            at: CommandRunner.repositoryRoot.appendingPathComponent("golden/knee-injury"), to: golden.appendingPathComponent("retired-fixture"))
        try FileManager.default.copyItem(
            at: golden.appendingPathComponent("busy-parent/goal-options-edit-1.cassette.json"),
            to: golden.appendingPathComponent("busy-parent/goal-options-edit-2.cassette.json"))
        for suffix in Self.pendingSuffixes {
            try Data("{}\n".utf8).write(to: golden.appendingPathComponent("minimal-record/goal-options-edit-1\(suffix)"))
        }
        let orphaned = Set(Self.goldenFiles(project)).subtracting(kept).sorted()
        // Every file of the retired fixture (outputs, recordings, labels, allowances), a cassette, 3 pending files.
        let retiredFiles = try FileManager.default.contentsOfDirectory(atPath: golden.appendingPathComponent("retired-fixture").path).count
        #expect(orphaned.count == retiredFiles + 1 + 3)

        let gate = try CommandRunner.run(["run", "--ci", "--project", project.path])
        #expect(gate.status == 1)
        for step in ["busy-parent/goal-options-edit-2", "minimal-record/goal-options-edit-1", "retired-fixture/goal-options",
                     "retired-fixture/goal-options-edit-1", "retired-fixture/program-draft", "retired-fixture/program-edit"] {
            #expect(gate.standardOutput.contains("orphan \(step): golden files of a step no fixture produces\n"), "\(step)")
        }
        for file in orphaned { #expect(gate.standardOutput.contains("\n    golden/\(file)\n"), "\(file) not listed") }
        #expect(gate.standardOutput.contains("`\(CommandRunner.spelled) accept --prune` deletes the orphaned files listed above."))
        #expect(Self.summaryLine(gate.standardOutput).contains("known failure "), "\(gate.standardOutput)")
        #expect(Self.summaryLine(gate.standardOutput).hasPrefix("gate fails · "), "orphans fail the gate")
        #expect(gate.standardOutput.contains(" · orphaned 6"), "\(gate.standardOutput)")
        #expect(!gate.standardOutput.contains("notes.txt") && !gate.standardOutput.contains("README.md"))

        // Without --ci the run reports them too, and neither run deletes anything.
        let run = try CommandRunner.run(["run", "--project", project.path])
        #expect(run.standardOutput.contains("orphan retired-fixture/program-draft"))
        #expect(Set(Self.goldenFiles(project)) == Set(kept + orphaned))

        // Pruning one fixture leaves the others' orphans.
        let one = try CommandRunner.run(["accept", "--prune", "--project", project.path, "--fixture", "busy-parent"])
        #expect(one.status == 0)
        #expect(one.standardOutput.contains("pruned golden/busy-parent/goal-options-edit-2.cassette.json\n"))
        #expect(one.standardOutput.hasSuffix("1 file of 1 orphaned step pruned.\n"), "\(one.standardOutput)")
        #expect(Self.goldenFiles(project).contains("retired-fixture/goal-options.json"))

        let prune = try CommandRunner.run(["accept", "--prune", "--project", project.path])
        #expect(prune.status == 0, "\(prune.standardOutput)\(prune.standardError)")
        for file in orphaned where !file.hasPrefix("busy-parent/") {
            #expect(prune.standardOutput.contains("pruned golden/\(file)\n"), "\(file) not listed")
        }
        #expect(prune.standardOutput.contains("pruned golden/retired-fixture/ (left empty)"))
        #expect(!prune.standardOutput.contains("accepted "), "an orphan's pending output is deleted, not approved")
        #expect(prune.standardOutput.hasSuffix("\(retiredFiles + 3) files of 5 orphaned steps pruned.\n"), "\(prune.standardOutput)")
        #expect(Self.goldenFiles(project) == kept, "exactly the orphans went; notes and README stay")
        #expect(!FileManager.default.fileExists(atPath: golden.appendingPathComponent("retired-fixture").path))

        let after = try CommandRunner.run(["run", "--ci", "--project", project.path])
        #expect(after.status == 0, "\(after.standardOutput)")
        let again = try CommandRunner.run(["accept", "--prune", "--project", project.path])
        #expect(again.standardOutput.hasSuffix("No orphaned golden files.\n"))
    }

    @Test func reviewWithoutATerminalSaysWhatToUseInsteadAndChangesNothing() throws {
        let project = try Self.makeProjectWithPendingOutputs()
        defer { try? FileManager.default.removeItem(at: project) }
        let before = Self.goldenFiles(project)
        let guidance = "error: review needs an interactive terminal. Use `\(CommandRunner.spelled) diff` to read the changes, then `\(CommandRunner.spelled) accept` or `\(CommandRunner.spelled) reject` with --fixture and --step."

        let piped = try CommandRunner.run(["review", "--project", project.path], input: Data("a\na\n".utf8), unsetting: ["CI"], timeout: Patience.seconds)
        #expect(!piped.timedOut)
        #expect(piped.status == 2)
        #expect(piped.standardError == guidance + "\n")

        // On CI, even a terminal on standard input is no reviewer.
        let onCI = try CommandRunner.run(
            ["review", "--project", project.path], input: Data("a\na\n".utf8), inputIsTerminal: true,
            environment: ["CI": "true"], timeout: Patience.seconds)
        #expect(!onCI.timedOut)
        #expect(onCI.status == 2)
        #expect(onCI.standardError == guidance + "\n")
        #expect(Self.goldenFiles(project) == before)
    }

    /// One key per answer, no Enter: `a` accepts the first, `x` is not an answer and
    /// brings the keys up, `q` stops with the second still pending.
    @Test func reviewOnATerminalTakesOneKeyPerAnswer() throws {
        let project = try Self.makeProjectWithPendingOutputs()
        defer { try? FileManager.default.removeItem(at: project) }
        let review = try CommandRunner.run(
            ["review", "--project", project.path], input: Data("axq".utf8), inputIsTerminal: true,
            unsetting: ["CI"], timeout: Patience.seconds)
        #expect(!review.timedOut)
        #expect(review.status == 0, "\(review.standardError)")
        #expect(review.standardOutput.contains("[1/2] \(Self.changedStep): 1 JSON change, markdown +1 −1"))
        #expect(review.standardOutput.contains("[2/2] \(Self.newStep): no golden output yet"))
        #expect(review.standardOutput.contains("`x` is not an answer: a accept · r reject · s skip · q quit · ? help"))
        #expect(review.standardOutput.hasSuffix("1 accepted, 0 rejected, 1 left pending.\n"), "\(review.standardOutput)")
        let files = Self.goldenFiles(project)
        #expect(!files.contains(Self.changedStep + ".json.new"), "the first answer accepted it")
        #expect(files.contains(Self.newStep + ".json.new") && !files.contains(Self.newStep + ".json"), "no answer, still pending")
    }

    /// A check that passed in golden fails now: review shows what the check found and
    /// asks before the regression is accepted as a known failure.
    @Test func reviewAsksBeforeAcceptingARegressionAndShowsWhatTheCheckFound() throws {
        let project = try RunCommandTests.makeProject(withGoldenOf: ["busy-parent"])
        defer { try? FileManager.default.removeItem(at: project) }
        let checks = project.appendingPathComponent("golden/busy-parent/goal-options.checks.json")
        let approved = try String(contentsOf: checks, encoding: .utf8)
        let passing = approved.replacingOccurrences(of: #""options.distinct": false"#, with: #""options.distinct": true"#)
        #expect(passing != approved)
        try passing.write(to: checks, atomically: true, encoding: .utf8)
        let replay = try CommandRunner.run(["run", "--project", project.path, "--fixture", "busy-parent"])
        #expect(replay.status == 1, "a regression")
        let step = "busy-parent/goal-options"
        #expect(Self.goldenFiles(project).contains(step + ".messages.json.new"), "the pending output keeps what its checks found")

        let declined = try CommandRunner.run(
            ["review", "--project", project.path, "--step", "goal-options"], input: Data("anq".utf8), inputIsTerminal: true,
            unsetting: ["CI"], timeout: Patience.seconds)
        #expect(declined.status == 0, "\(declined.standardError)")
        #expect(declined.standardOutput.contains("  ✗ options.distinct (passed in golden): "), "\(declined.standardOutput)")
        #expect(declined.standardOutput.contains("This is a regression: options.distinct passed in golden and fail now"))
        #expect(declined.standardOutput.hasSuffix("0 accepted, 0 rejected, 1 left pending.\n"))
        #expect(try String(contentsOf: checks, encoding: .utf8) == passing, "golden unchanged")

        let confirmed = try CommandRunner.run(
            ["review", "--project", project.path, "--step", "goal-options"], input: Data("ay".utf8), inputIsTerminal: true,
            unsetting: ["CI"], timeout: Patience.seconds)
        #expect(confirmed.standardOutput.hasSuffix("1 accepted, 0 rejected, 0 skipped.\n"), "\(confirmed.standardOutput)")
        #expect(try String(contentsOf: checks, encoding: .utf8) == approved, "now a known failure")
        #expect(!Self.goldenFiles(project).contains(step + ".messages.json.new"), "the messages go with the pending output")
    }
}
