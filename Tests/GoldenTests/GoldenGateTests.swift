import Checks
import Intake
import Foundation
import JSONSchema
import Pipeline
import Diff
import Storage
import Testing

@testable import Golden

@Suite("Golden store and gate")
struct GoldenGateTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
    var store: GoldenStore { GoldenStore(folder: folder) }

    static let program: JSONValue = [
        "program_json": ["title": "Evening Energy", "days_per_week": 3, "sessions": [["day": 1, "name": "Full body", "exercises": [["name": "Plank", "reps": "30 s"]]]]],
        "program_markdown": "# Evening Energy\n\n## Day 1: Full body\n- **Plank**: 3 × 30 s\n",
    ]

    func result(_ id: StepID = .programDraft, output: JSONValue = program, failing: [String] = [], status: StepStatus = .valid) -> StepResult {
        var result = StepResult(id: id, status: status, output: status == .valid ? output : nil)
        result.checks = [CheckResult(name: "program.days-per-week", passed: !failing.contains("program.days-per-week"), message: "days"),
                         CheckResult(name: "program.avoids", passed: !failing.contains("program.avoids"), message: "uses \"jump\"")]
        if status == .error { result.failure = StepFailure(kind: .init("stale-recording"), message: "changed: prompt template") }
        return result
    }

    func run(_ steps: [StepResult], ci: Bool = false) throws -> GoldenReport {
        try GoldenGate(store: store).evaluate([FixtureResult(fixture: "keisha", steps: steps)], writesPending: !ci, findsOrphans: true)
    }

    @Test func aNewOutputIsWrittenAsPendingAndBecomesGoldenOnAccept() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try run([result()])
        #expect(first.verdicts.map(\.status) == [.new])
        #expect(!first.passesGate)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("keisha").path).sorted()
        #expect(files == ["program-draft.checks.json.new", "program-draft.json.new", "program-draft.md.new"])
        // The markdown lives in its own file; the JSON file is canonical and holds the rest.
        let markdown = try String(contentsOf: folder.appendingPathComponent("keisha/program-draft.md.new"), encoding: .utf8)
        #expect(markdown == Self.program["program_markdown"]?.stringValue)

        #expect(try store.accept(StepKey(fixture: "keisha", step: "program-draft")))
        #expect(try store.approved(StepKey(fixture: "keisha", step: "program-draft"))?.output == Self.program)
        #expect(store.entries(pending: true).isEmpty)

        let again = try run([result()], ci: true)
        #expect(again.verdicts.map(\.status) == [.matches])
        #expect(again.passesGate)
    }

    @Test func aChangedOutputShowsItsDiffsAndFailsTheGate() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try run([result()])
        try store.accept(StepKey(fixture: "keisha", step: "program-draft"))
        var changed = Self.program
        changed = try JSONParser.parse(changed.serialized().replacingOccurrences(of: "30 s", with: "45 s"))
        let report = try run([result(output: changed)], ci: true)
        let verdict = try #require(report.verdicts.first)
        #expect(verdict.status == .changed)
        #expect(verdict.outputDiff?.contains("reps") == true)
        #expect(verdict.markdownDiff?.contains("-- **Plank**: 3 × 30 s") == true)
        #expect(verdict.markdownDiff?.contains("+- **Plank**: 3 × 45 s") == true)
        #expect(!report.passesGate)
        #expect(store.entries(pending: true).isEmpty, "--ci never writes pending files")
    }

    @Test func aCheckThatFailedInGoldenIsAKnownFailureNotARegression() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try run([result(failing: ["program.avoids"])])
        try store.accept(StepKey(fixture: "keisha", step: "program-draft"))
        let known = try run([result(failing: ["program.avoids"])], ci: true)
        #expect(known.verdicts.first?.status == .knownFailure)
        #expect(known.passesGate)
        let regressed = try run([result(failing: ["program.avoids", "program.days-per-week"])], ci: true)
        #expect(regressed.verdicts.first?.status == .regression)
        #expect(regressed.verdicts.first?.reasons.first?.hasPrefix("check program.days-per-week failed (it passed in golden)") == true)
        #expect(!regressed.passesGate)
    }

    /// A step whose reply never validated, as the model gave it.
    func unusable(_ reply: String) -> StepResult {
        var result = StepResult(id: .programDraft, status: .invalid, output: nil)
        result.attempts = [Attempt(responseText: reply, finishReason: "length", usage: .init(input: 10, output: 1800), latency: 1, problems: ["truncated"])]
        result.failure = StepFailure(kind: .init("invalid-output"), message: "the document is truncated")
        return result
    }

    @Test func anUnusableReplyIsNewUntilApprovedAsAKnownFailure() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try run([unusable("{\"program_json\": {\"title\": \"Loop")])
        #expect(first.verdicts.first?.status == .new, "nothing was approved to regress from")
        #expect(first.verdicts.first?.reasons == [
            "no golden output yet", "no valid output: the document is truncated; `accept --allow-unsafe REASON` records it as a known failure"])
        let gated = try run([unusable("{\"program_json\": {\"title\": \"Loop")], ci: true)
        #expect(!gated.passesGate, "a new output fails the CI gate, valid or not")
        #expect(try store.pending(StepKey(fixture: "keisha", step: "program-draft"))?.checks == [GoldenComparison.usableOutputCheck: false])

        try store.accept(StepKey(fixture: "keisha", step: "program-draft"))
        let known = try run([unusable("{\"program_json\": {\"title\": \"Loop")], ci: true)
        #expect(known.verdicts.first?.status == .knownFailure)
        #expect(known.passesGate)

        // Another broken reply is a change to review, and so is a valid output at last.
        let different = try run([unusable("{\"program_json\": {\"title\": \"Other")], ci: true)
        #expect(different.verdicts.first?.status == .changed)
        #expect(different.verdicts.first?.outputDiff?.contains("unusable_reply") == true)
        let fixed = try run([result()], ci: true)
        #expect(fixed.verdicts.first?.status == .changed)
        #expect(!fixed.passesGate)
    }

    @Test func aValidOutputThatBecomesUnusableIsARegression() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try run([result()])
        try store.accept(StepKey(fixture: "keisha", step: "program-draft"))
        let broken = try run([unusable("{")], ci: true)
        #expect(broken.verdicts.first?.status == .regression)
        #expect(broken.verdicts.first?.reasons.first?.hasSuffix("(golden has a valid output)") == true)
    }

    @Test func anInvalidReplyThatStillParsesShowsHowItDiffersFromGolden() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try run([result()])
        try store.accept(StepKey(fixture: "keisha", step: "program-draft"))
        // Valid JSON that fails the schema: the session lost its exercises.
        let reply = """
            {"program_json": {"title": "Evening Energy", "days_per_week": 3, "sessions": [{"day": 1, "name": "Full body"}]},
             "program_markdown": "# Evening Energy\n\n## Day 1: Full body\n"}
            """
        var invalid = unusable(reply)
        invalid.failure = StepFailure(kind: .init("invalid-output"), message: "/program_json/sessions/0: `exercises` is required")
        let verdict = try #require(try run([invalid], ci: true).verdicts.first)
        #expect(verdict.status == .regression)
        #expect(verdict.outputDiff?.contains("- program_json.sessions[day=1].exercises") == true)
        #expect(verdict.markdownDiff?.contains("-- **Plank**: 3 × 30 s") == true)
    }

    @Test func theStepsDeclaredToleranceAndKeysDecideWhatChanged() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let options: JSONValue = ["options": [["id": "a", "summary": "Walk", "weeks": 8], ["id": "b", "summary": "Run", "weeks": 6]]]
        let moved: JSONValue = ["options": [["id": "b", "summary": "Run", "weeks": 6], ["id": "a", "summary": "Walk", "weeks": 8.25]]]
        func step(_ output: JSONValue) -> StepResult { StepResult(id: .optionEdit(round: 1), status: .valid, output: output) }
        func verdict(_ diffOptions: [PipelineStep: JSONDiff.Options]) throws -> StepVerdict {
            let gate = GoldenGate(store: store, diffOptions: diffOptions)
            return try #require(try gate.evaluate([FixtureResult(fixture: "keisha", steps: [step(moved)])], writesPending: false, findsOrphans: false).verdicts.first)
        }
        _ = try run([step(options)])
        try store.accept(StepKey(fixture: "keisha", step: "goal-options-edit-1"))

        let exact = try verdict([:])
        #expect(exact.status == .changed)
        #expect(exact.outputDiff?.contains(#"~ options[id="a"].weeks: 8 → 8.25"#) == true)
        let tolerant = try verdict([.goalOptionsEdit: JSONDiff.Options(GoldenComparisonSettings(arrayKeys: ["id"], numericTolerance: 0.5))])
        #expect(tolerant.outputDiff == #"↕ options[id="b"]: moved from 1 to 0"#, "within the declared tolerance, only the move is left")
        let byPosition = try verdict([.goalOptionsEdit: JSONDiff.Options(GoldenComparisonSettings(arrayKeys: ["uuid"], numericTolerance: 0.5))])
        #expect(byPosition.outputDiff?.contains(#"+ options[1]: {"id":"a","summary":"Walk","weeks":8.25}"#) == true,
                "with no declared key the elements are aligned, not matched by id")
    }

    @Test func staleRecordingsAndOrphansFailTheGate() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try run([result(), result(.programEdit)])
        try store.accept(StepKey(fixture: "keisha", step: "program-draft"))
        try store.accept(StepKey(fixture: "keisha", step: "program-edit"))
        let report = try run([result(status: .error)], ci: true)
        #expect(report.verdicts.first?.status == .stale)
        #expect(report.orphans == [GoldenOrphan(
            key: StepKey(fixture: "keisha", step: "program-edit"),
            files: ["program-edit.checks.json", "program-edit.json", "program-edit.md"])])
        #expect(report.summaryLine == "golden: stale 1 · orphans 1")
        #expect(!report.passesGate)
    }

    func write(_ files: [String]) throws {
        for path in files {
            let file = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("{}\n".utf8).write(to: file)
        }
    }

    /// Whatever a step left behind is an orphan once no fixture produces that step: a
    /// recording, a pending output, markdown or checks, not only an approved output.
    @Test func everyGoldenFileOfAStepNoFixtureProducesIsAnOrphan() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try write([
            "keisha/program-draft.json", "keisha/program-draft.md", "keisha/program-draft.checks.json", "keisha/program-draft.cassette.json",
            "keisha/goal-options-edit-2.cassette.json",
            "keisha/program-edit.json.new", "keisha/program-edit.md.new", "keisha/program-edit.checks.json.new",
            "retired/goal-options.cassette.json", "retired/goal-options.md",
            "README.md", "keisha/.DS_Store", "keisha/notes.txt",
        ])
        let produced: Set = [StepKey(fixture: "keisha", step: "program-draft")]
        #expect(store.orphans(excluding: produced) == [
            GoldenOrphan(key: StepKey(fixture: "keisha", step: "goal-options-edit-2"), files: ["goal-options-edit-2.cassette.json"]),
            GoldenOrphan(key: StepKey(fixture: "keisha", step: "program-edit"),
                         files: ["program-edit.checks.json.new", "program-edit.json.new", "program-edit.md.new"]),
            GoldenOrphan(key: StepKey(fixture: "retired", step: "goal-options"), files: ["goal-options.cassette.json", "goal-options.md"]),
        ])

        let report = try GoldenGate(store: store).evaluate(
            [FixtureResult(fixture: "keisha", steps: [result(status: .error)])], writesPending: false, findsOrphans: true)
        #expect(report.orphans.map(\.description) == ["keisha/goal-options-edit-2", "keisha/program-edit", "retired/goal-options"])
        #expect(!report.passesGate)
        let partial = try GoldenGate(store: store).evaluate(
            [FixtureResult(fixture: "keisha", steps: [result(status: .error)])], writesPending: false, findsOrphans: false)
        #expect(partial.orphans.isEmpty, "a partial run cannot tell what is orphaned")
    }

    @Test func removingAnOrphanDeletesItsFilesAndTheFolderItEmptied() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(["keisha/program-draft.json", "keisha/program-edit.json", "keisha/program-edit.cassette.json",
                   "retired/goal-options.json", "retired/goal-options.cassette.json", "README.md"])
        let orphans = store.orphans(excluding: [StepKey(fixture: "keisha", step: "program-draft")])
        #expect(orphans.map(\.description) == ["keisha/program-edit", "retired/goal-options"])
        #expect(try store.remove(orphans[0]) == false, "keisha still has program-draft")
        #expect(try store.remove(orphans[1]) == true)
        let left = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }.sorted()
        #expect(left == ["README.md", "keisha", "keisha/program-draft.json"])
        #expect(store.orphans(excluding: [StepKey(fixture: "keisha", step: "program-draft")]).isEmpty)
    }

    @Test func rejectingRemovesPendingFilesAndKeepsGolden() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try run([result()])
        try store.accept(StepKey(fixture: "keisha", step: "program-draft"))
        _ = try run([result(failing: ["program.avoids"])])
        #expect(store.entries(pending: true) == [StepKey(fixture: "keisha", step: "program-draft")])
        let diff = GoldenDiff(approved: try store.approved(StepKey(fixture: "keisha", step: "program-draft")),
                              pending: try #require(try store.pending(StepKey(fixture: "keisha", step: "program-draft"))))
        #expect(diff.summary == "1 check now failing")
        #expect(store.reject(StepKey(fixture: "keisha", step: "program-draft")))
        #expect(store.entries(pending: true).isEmpty)
        #expect(try store.approved(StepKey(fixture: "keisha", step: "program-draft")) != nil)
    }

    @Test func aCorruptGoldenFileIsAnErrorThatNamesIt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("keisha/program-draft.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{\"program_json\": ".utf8).write(to: file)
        let error = try #require(throws: GoldenError.self) { try store.approved(StepKey(fixture: "keisha", step: "program-draft")) }
        #expect(error.description.contains("keisha/program-draft.json"))
    }
}
