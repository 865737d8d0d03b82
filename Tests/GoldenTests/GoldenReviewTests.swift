import Foundation
import Intake
import JSONSchema
import Storage
import Testing

@testable import Golden

/// The insta-style workflow on real files in a temporary golden folder: pending with
/// diffs, accept, reject, the interactive review's decisions, and pruning orphans.
@Suite("Golden review")
struct GoldenReviewTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("golden-review-\(UUID().uuidString)")
    var store: GoldenStore { GoldenStore(folder: folder) }
    var review: GoldenReview { GoldenReview(store: store) }

    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A fixture of the repository's own corpus.
    static func fixture(_ name: String) throws -> Fixture {
        try FixtureCorpus(layout: ProjectLayout(root: repository)).load(name)
    }

    static let program: JSONValue = [
        "program_json": ["title": "Evening Energy", "sessions": [["day": 1, "exercises": [["name": "Plank", "reps": "30 s"]]]]],
        "program_markdown": "# Evening Energy\n\n- **Plank**: 3 × 30 s\n",
    ]
    static let options: JSONValue = ["options": [["id": "walk", "summary": "Walk 8,000 steps a day"]]]

    /// `output` approved for `fixture`/`step`, with these checks.
    func approve(_ output: JSONValue, _ fixture: String, _ step: String, checks: [String: Bool] = [:]) throws {
        try store.writePending(GoldenEntry(output: output, checks: checks), for: StepKey(fixture: fixture, step: step))
        try store.accept(StepKey(fixture: fixture, step: step))
    }

    func propose(_ output: JSONValue, _ fixture: String, _ step: String, checks: [String: Bool] = [:], messages: [String: String] = [:]) throws {
        try store.writePending(GoldenEntry(output: output, checks: checks, failureMessages: messages), for: StepKey(fixture: fixture, step: step))
    }

    /// The files under the golden folder, relative to it, sorted.
    func files() -> [String] {
        let names = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        return names.filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isFolder) && !isFolder.boolValue
        }.sorted()
    }

    static func key(_ fixture: String, _ step: String) -> StepKey { StepKey(fixture: fixture, step: step) }

    static let changedProgram: JSONValue = [
        "program_json": ["title": "Evening Energy", "sessions": [["day": 1, "exercises": [["name": "Plank", "reps": "45 s"]]]]],
        "program_markdown": "# Evening Energy\n\n- **Plank**: 3 × 45 s\n",
    ]

    @Test func pendingListsNewAndChangedOutputsWithTheirDiffs() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try approve(Self.program, "keisha", "program-draft")
        try propose(Self.changedProgram, "keisha", "program-draft")
        try propose(Self.options, "keisha", "goal-options", checks: ["options.count": false])
        try approve(Self.options, "sam", "goal-options")

        let items = try review.pending()
        #expect(items.map(\.key) == [Self.key("keisha", "goal-options"), Self.key("keisha", "program-draft")])
        #expect(items.map(\.kind) == ["new", "changed"])
        #expect(items[0].approved == nil)
        #expect(items[0].diff.summary == "no golden output yet, 1 check failing")
        #expect(items[1].diff.summary == "1 JSON change, markdown +1 −1")
        let rendered = items[1].diff.rendered(color: false)
        #expect(rendered.contains(#"~ program_json.sessions[day=1].exercises[name="Plank"].reps: "30 s" → "45 s""#), "\(rendered)")
        #expect(rendered.contains("+- **Plank**: 3 × 45 s"))

        let selected = try review.pending { $0.step == "program-draft" }
        #expect(selected.map(\.key) == [Self.key("keisha", "program-draft")])
        #expect(try review.pending { $0.fixture == "sam" }.isEmpty, "an approved output without a pending one waits for nothing")
    }

    @Test func acceptPromotesTheSelectionAndReturnsItsKeys() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try approve(Self.program, "keisha", "program-draft")
        try propose(Self.changedProgram, "keisha", "program-draft")
        try propose(Self.options, "keisha", "goal-options")
        try propose(Self.options, "sam", "goal-options")

        var events: [GoldenReview.AcceptEvent] = []
        let acceptance = try review.accept(where: { $0.fixture == "keisha" }) { events.append($0) }
        let keys = [Self.key("keisha", "goal-options"), Self.key("keisha", "program-draft")]
        #expect(acceptance.accepted == keys)
        #expect(acceptance.pruned == nil, "no pruning was asked for")
        #expect(events == [.accepted(keys[0]), .accepted(keys[1]), .acceptedAll(keys)])
        #expect(try store.approved(StepKey(fixture: "keisha", step: "program-draft"))?.output == Self.changedProgram)
        #expect(try store.approved(StepKey(fixture: "keisha", step: "goal-options"))?.output == Self.options)
        #expect(store.entries(pending: true) == [Self.key("sam", "goal-options")], "outside the selection, still pending")

        #expect(try review.accept(where: { $0.fixture == "keisha" }).accepted.isEmpty)
    }

    @Test func rejectDeletesPendingFilesAndKeepsGolden() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try approve(Self.program, "keisha", "program-draft", checks: ["program.avoids": true])
        try propose(Self.changedProgram, "keisha", "program-draft", checks: ["program.avoids": false], messages: ["program.avoids": "uses \"jump\""])
        try propose(Self.options, "keisha", "goal-options")
        try propose(Self.options, "sam", "goal-options")

        #expect(review.reject(where: { $0.fixture == "keisha" }) == [Self.key("keisha", "goal-options"), Self.key("keisha", "program-draft")])
        #expect(files() == [
            "keisha/program-draft.checks.json", "keisha/program-draft.json", "keisha/program-draft.md",
            "sam/goal-options.checks.json.new", "sam/goal-options.json.new",
        ])
        #expect(try store.approved(StepKey(fixture: "keisha", step: "program-draft")) == GoldenEntry(output: Self.program, checks: ["program.avoids": true]))
        #expect(review.reject(where: { $0.fixture == "keisha" }).isEmpty)
    }

    /// minimal-record produces goal-options, program-draft and program-edit: its option
    /// edit, and every step of a fixture that is gone, are orphans.
    @Test func pruneDeletesOrphansAndTheFolderItEmptiesWithoutPromotingThem() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixtures = [try Self.fixture("minimal-record")]
        #expect(GoldenReview.expectedSteps(of: fixtures) == [
            Self.key("minimal-record", "goal-options"), Self.key("minimal-record", "program-draft"), Self.key("minimal-record", "program-edit"),
        ])
        try approve(Self.program, "minimal-record", "program-draft")
        try propose(Self.changedProgram, "minimal-record", "program-draft")
        try propose(Self.options, "minimal-record", "goal-options-edit-1")
        try approve(Self.options, "retired", "goal-options")
        try Data("{}\n".utf8).write(to: folder.appendingPathComponent("retired/goal-options.cassette.json"))
        try Data("# Golden\n".utf8).write(to: folder.appendingPathComponent("README.md"))

        var events: [GoldenReview.AcceptEvent] = []
        let acceptance = try review.accept(pruning: fixtures) { events.append($0) }
        let edit = GoldenOrphan(key: Self.key("minimal-record", "goal-options-edit-1"), files: ["goal-options-edit-1.checks.json.new", "goal-options-edit-1.json.new"])
        let retired = GoldenOrphan(
            key: Self.key("retired", "goal-options"), files: ["goal-options.cassette.json", "goal-options.checks.json", "goal-options.json"])
        let pruned = [GoldenReview.Pruned(orphan: edit, removedFolder: false), GoldenReview.Pruned(orphan: retired, removedFolder: true)]
        #expect(acceptance.accepted == [Self.key("minimal-record", "program-draft")], "the orphan's pending output is not accepted")
        #expect(acceptance.pruned == pruned)
        #expect(events == [.accepted(Self.key("minimal-record", "program-draft")), .acceptedAll(acceptance.accepted)] + pruned.map { .pruned($0) })
        #expect(files() == ["README.md", "minimal-record/program-draft.checks.json", "minimal-record/program-draft.json", "minimal-record/program-draft.md"])

        #expect(try review.accept(pruning: fixtures).pruned == [], "nothing left to prune")
    }

    @Test func pruningASelectionLeavesTheOtherOrphans() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixtures = [try Self.fixture("minimal-record")]
        try propose(Self.options, "minimal-record", "goal-options-edit-1")
        try approve(Self.options, "retired", "goal-options")

        #expect(review.orphans(producedBy: fixtures).map(\.description) == ["minimal-record/goal-options-edit-1", "retired/goal-options"])
        let orphans = review.orphans(producedBy: fixtures) { $0.fixture == "retired" }
        #expect(try review.prune(orphans).map(\.orphan.description) == ["retired/goal-options"])
        #expect(files() == ["minimal-record/goal-options-edit-1.checks.json.new", "minimal-record/goal-options-edit-1.json.new"])
    }

    @Test func acceptingARegressionInAReviewNeedsConfirmation() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try approve(Self.program, "keisha", "program-draft", checks: ["program.avoids": true, "program.days": false])
        try propose(Self.program, "keisha", "program-draft", checks: ["program.avoids": false, "program.days": false], messages: ["program.avoids": "uses \"jump\""])
        let item = try #require(try review.pending().first)
        #expect(item.acceptsRegression)
        #expect(item.diff.newlyFailing == ["program.avoids"])

        #expect(try review.apply(.accept, to: item) == .needsConfirmation)
        #expect(try store.approved(StepKey(fixture: "keisha", step: "program-draft"))?.checks["program.avoids"] == true, "golden unchanged")
        #expect(store.entries(pending: true) == [item.key], "still pending")
        #expect(try review.apply(.accept, to: item, confirmed: true) == .accepted)
        #expect(try store.approved(StepKey(fixture: "keisha", step: "program-draft"))?.checks["program.avoids"] == false, "now a known failure")
        #expect(store.entries(pending: true).isEmpty)
    }

    @Test func eachReviewDecisionSaysWhatItDid() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        for fixture in ["a", "b", "c", "d"] { try propose(Self.options, fixture, "goal-options") }
        let items = try review.pending()
        #expect(items.allSatisfy { !$0.acceptsRegression }, "a new output has no golden checks to lose")

        var tally = GoldenReview.Tally()
        for (item, decision) in zip(items, [GoldenReview.Decision.accept, .reject, .skip, .quit]) {
            tally.record(try review.apply(decision, to: item))
        }
        #expect(tally.accepted == 1 && tally.rejected == 1 && tally.skipped == 1, "quitting counts as none of them")
        #expect(try review.apply(.quit, to: items[3]) == .quit)
        #expect(try store.approved(StepKey(fixture: "a", step: "goal-options"))?.output == Self.options)
        #expect(store.entries(pending: true) == [Self.key("c", "goal-options"), Self.key("d", "goal-options")], "skipped and quit stay pending")
        #expect(try store.approved(StepKey(fixture: "b", step: "goal-options")) == nil, "rejected, never approved")
    }
}
