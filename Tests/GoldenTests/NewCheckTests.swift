import Checks
import Foundation
import Intake
import JSONSchema
import Pipeline
import Storage
import Testing

@testable import Golden

/// Checks added after an output was approved: a passing one changes nothing, a failing
/// one waits for approval without failing the gate, and `acceptChecks` approves check
/// results alone where the output is golden's.
@Suite("New checks against golden")
struct NewCheckTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("golden-new-checks-\(UUID().uuidString)")
    var store: GoldenStore { GoldenStore(folder: folder) }

    static let program: JSONValue = [
        "program_json": ["title": "Evening Energy", "sessions": [["day": 1, "exercises": [["name": "Plank", "reps": "30 s"]]]]],
        "program_markdown": "# Evening Energy\n\n- **Plank**: 3 × 30 s\n",
    ]
    static let changedProgram: JSONValue = [
        "program_json": ["title": "Evening Energy", "sessions": [["day": 1, "exercises": [["name": "Plank", "reps": "45 s"]]]]],
        "program_markdown": "# Evening Energy\n\n- **Plank**: 3 × 45 s\n",
    ]

    /// A program-draft result with these check results, by name.
    func result(_ checks: KeyValuePairs<String, Bool>, output: JSONValue = program) -> StepResult {
        var result = StepResult(id: .programDraft, status: .valid, output: output)
        result.checks = checks.map { CheckResult(name: $0.key, passed: $0.value, message: $0.value ? "fine" : "\($0.key) found a problem") }
        return result
    }

    /// Runs the gate on one step of `keisha`, leaving pending files unless under CI.
    func run(_ step: StepResult, ci: Bool = false, in store: any GoldenStorage) throws -> StepVerdict {
        let report = try GoldenGate(store: store).evaluate(
            [FixtureResult(fixture: "keisha", steps: [step])], writesPending: !ci, findsOrphans: false)
        return try #require(report.verdicts.first)
    }

    /// Approves `step` as the golden output of keisha's program draft.
    func approve(_ step: StepResult, in store: any GoldenStorage) throws {
        try store.writePending(GoldenComparison.entry(for: step), for: StepKey(fixture: "keisha", step: "program-draft"))
        try store.accept(StepKey(fixture: "keisha", step: "program-draft"))
    }

    func contents(_ path: String, in folder: URL) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func aNewCheckThatPassesChangesNothing() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try approve(result(["program.rest-days": true]), in: store)
        let verdict = try run(result(["program.rest-days": true, "program.minutes": true]), in: store)
        #expect(verdict.status == .matches)
        #expect(!verdict.differsFromGolden)
        #expect(verdict.unapprovedChecks.isEmpty)
        #expect(store.entries(pending: true).isEmpty)

        try approve(result(["program.rest-days": false]), in: store)
        let known = try run(result(["program.rest-days": false, "program.minutes": true]), in: store)
        #expect(known.status == .knownFailure)
    }

    @Test func aNewCheckThatFailsWaitsForApprovalAndPassesTheGate() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try approve(result(["program.rest-days": false]), in: store)
        let verdict = try run(result(["program.rest-days": false, "program.minutes": false]), in: store)
        #expect(verdict.status == .unapprovedCheck)
        #expect(verdict.status.rawValue == "unapproved-check")
        #expect(verdict.passesGate)
        #expect(verdict.unapprovedChecks == ["program.minutes"])
        #expect(verdict.knownFailures == ["program.rest-days"])
        #expect(verdict.reasons.first == "new check, not approved yet: program.minutes: program.minutes found a problem")
        #expect(verdict.needsApproval)
        #expect(store.entries(pending: true) == [StepKey(fixture: "keisha", step: "program-draft")])

        // A check that passed in golden and fails now is still a regression.
        try approve(result(["program.rest-days": true]), in: store)
        let regressed = try run(result(["program.rest-days": false, "program.minutes": false]), ci: true, in: store)
        #expect(regressed.status == .regression)
        #expect(regressed.reasons.first?.hasPrefix("check program.rest-days failed (it passed in golden)") == true)
        #expect(regressed.unapprovedChecks == ["program.minutes"])
    }

    @Test func aNewFailingCheckOnAChangedOutputIsAChange() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try approve(result(["program.rest-days": true]), in: store)
        let verdict = try run(result(["program.rest-days": true, "program.minutes": false], output: Self.changedProgram), ci: true, in: store)
        #expect(verdict.status == .changed)
        #expect(!verdict.passesGate)
        #expect(verdict.reasons.contains("new check, not approved yet: program.minutes: program.minutes found a problem"))
    }

    @Test func aStricterCheckOnAnUnchangedOutputIsARegressionUntilItsChecksAreAccepted() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try approve(result(["program.rest-days": true, "program.minutes": true]), in: store)
        let outputBefore = try contents("keisha/program-draft.json", in: folder)
        let stricter = result(["program.rest-days": true, "program.minutes": false])
        let before = try run(stricter, in: store)
        #expect(before.status == .regression)
        #expect(!before.passesGate)
        #expect(store.entries(pending: true).count == 1, "a regression on an unchanged output is left pending for `accept --checks`")

        let acceptance = try GoldenReview(store: store).acceptChecks()
        #expect(acceptance.accepted == [StepKey(fixture: "keisha", step: "program-draft")])
        #expect(acceptance.changes == [GoldenReview.CheckChange(name: "program.minutes", approved: true, accepted: false): 1])
        #expect(acceptance.skipped.isEmpty)
        #expect(store.entries(pending: true).isEmpty)
        #expect(try contents("keisha/program-draft.json", in: folder) == outputBefore)
        #expect(try store.approved(StepKey(fixture: "keisha", step: "program-draft"))?.checks == ["program.rest-days": true, "program.minutes": false])

        let after = try run(stricter, ci: true, in: store)
        #expect(after.status == .knownFailure)
        #expect(after.passesGate)
        let loosened = try run(result(["program.rest-days": true, "program.minutes": true]), ci: true, in: store)
        #expect(loosened.status == .changed, "a check that passes again is still a change to approve")
    }

    @Test func acceptingChecksLeavesAPendingOutputThatDiffersUntouched() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try approve(result(["program.rest-days": true]), in: store)
        _ = try run(result(["program.rest-days": true, "program.minutes": false], output: Self.changedProgram), in: store)
        let pendingFiles = ["keisha/program-draft.json.new", "keisha/program-draft.md.new", "keisha/program-draft.checks.json.new"]
        let pendingBefore = try pendingFiles.map { try contents($0, in: folder) }
        let approvedChecksBefore = try contents("keisha/program-draft.checks.json", in: folder)

        let acceptance = try GoldenReview(store: store).acceptChecks()
        #expect(acceptance.accepted.isEmpty)
        #expect(acceptance.skipped == [.init(key: StepKey(fixture: "keisha", step: "program-draft"), reason: "output differs; review it with `diff`")])
        #expect(try pendingFiles.map { try contents($0, in: folder) } == pendingBefore)
        #expect(try contents("keisha/program-draft.checks.json", in: folder) == approvedChecksBefore)
    }

    @Test func acceptingChecksFollowsTheSelection() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try approve(result(["program.rest-days": true]), in: store)
        _ = try run(result(["program.rest-days": true, "program.minutes": false]), in: store)
        let none = try GoldenReview(store: store).acceptChecks { $0.fixture == "someone-else" }
        #expect(none == GoldenReview.CheckAcceptance())
        #expect(store.entries(pending: true).count == 1)
        let approved = try GoldenReview(store: store).acceptChecks { $0.fixture == "keisha" }
        #expect(approved.accepted.count == 1)
    }

    @Test func aVariantsPendingChecksAreAcceptedInItsOwnFolder() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let track = VariantTrack(label: "program-draft=terse", firstStep: .programDraft)
        let variantStore = VariantGoldenStore(golden: folder, track: track)
        try approve(result(["program.rest-days": true]), in: variantStore)
        let variantFolder = track.folder(in: folder)
        let outputBefore = try contents("keisha/program-draft.json", in: variantFolder)

        let verdict = try run(result(["program.rest-days": true, "program.minutes": false]), in: variantStore)
        #expect(verdict.status == .unapprovedCheck)
        #expect(FileManager.default.fileExists(atPath: variantFolder.appendingPathComponent("keisha/program-draft.checks.json.new").path))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("keisha").path), "the base folder is not touched")

        let acceptance = try GoldenReview(store: variantStore).acceptChecks()
        #expect(acceptance.accepted == [StepKey(fixture: "keisha", step: "program-draft")])
        #expect(acceptance.changes == [GoldenReview.CheckChange(name: "program.minutes", approved: nil, accepted: false): 1])
        #expect(try contents("keisha/program-draft.json", in: variantFolder) == outputBefore)
        #expect(try variantStore.approved(StepKey(fixture: "keisha", step: "program-draft"))?.checks == ["program.rest-days": true, "program.minutes": false])
        #expect(variantStore.entries(pending: true).isEmpty)
        #expect(try run(result(["program.rest-days": true, "program.minutes": false]), ci: true, in: variantStore).status == .knownFailure)
    }

    @Test func theMemoryStoreAcceptsChecksAsTheFilesDo() throws {
        let memory = MemoryGoldenStore()
        try approve(result(["program.rest-days": true]), in: memory)
        _ = try run(result(["program.rest-days": true, "program.minutes": false]), in: memory)
        let acceptance = try GoldenReview(store: memory).acceptChecks()
        #expect(acceptance.accepted.count == 1)
        #expect(try memory.approved(StepKey(fixture: "keisha", step: "program-draft"))
            == GoldenEntry(output: Self.program, checks: ["program.rest-days": true, "program.minutes": false]))
        #expect(memory.entries(pending: true).isEmpty)
    }
}
