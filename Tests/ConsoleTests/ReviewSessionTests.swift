import Console
import Foundation
import Golden
import Intake
import JSONSchema
import Storage
import Testing

/// `review`'s conversation in process: scripted keys against real files in a temporary golden folder.
struct ReviewSessionTests {
    final class ScriptedKeys: KeySource {
        private var keys: [Character]
        init(_ keys: String) { self.keys = Array(keys) }
        func next() -> Character? { keys.isEmpty ? nil : keys.removeFirst() }
    }

    static let options: JSONValue = ["options": [["id": "walk", "summary": "Walk 8,000 steps a day"]]]
    static let changed: JSONValue = ["options": [["id": "walk", "summary": "Walk 10,000 steps a day"]]]

    @Test func eachKeyDecidesOneOutputAndARegressionIsConfirmedFirst() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("review-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = GoldenStore(folder: folder)
        try store.writePending(GoldenEntry(output: Self.options, checks: ["options.count": true]), for: StepKey(fixture: "ana", step: "goal-options"))
        _ = try store.accept(StepKey(fixture: "ana", step: "goal-options"))
        try store.writePending(GoldenEntry(output: Self.changed, checks: ["options.count": false]), for: StepKey(fixture: "ana", step: "goal-options"))
        try store.writePending(GoldenEntry(output: Self.options, checks: [:]), for: StepKey(fixture: "ben", step: "goal-options"))
        try store.writePending(GoldenEntry(output: Self.options, checks: [:]), for: StepKey(fixture: "cy", step: "goal-options"))
        let review = GoldenReview(store: store)
        let items = try review.pending()

        // ana: `x` is no answer, `?` shows the keys, `a` asks first (a check regressed) and `y` confirms;
        // ben: rejected; cy: end of input quits, leaving it pending.
        let text = try PrinterTests.printed { terminal in
            try? ReviewSession(review: review, keys: ScriptedKeys("x?ayr"), out: terminal).walk(items)
        }
        #expect(text.contains("[1/3] ana/goal-options: "), "\(text)")
        #expect(text.contains("  `x` is not an answer: \(ReviewSession.keyHelp)\n"))
        #expect(text.contains("This is a regression: options.count passed in golden and fail now"))
        #expect(text.hasSuffix("1 accepted, 1 rejected, 1 left pending.\n"), "\(text)")
        #expect(try store.approved(StepKey(fixture: "ana", step: "goal-options"))?.output == Self.changed)
        #expect(try review.pending().map(\.key.fixture) == ["cy"])
    }

    @Test func aReviewerSignsOrRejectsWithReasonsAndTheLabelJudgesWhatIsAccepted() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("review-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = GoldenStore(folder: folder)
        let (ana, ben) = (StepKey(fixture: "ana", step: "goal-options"), StepKey(fixture: "ben", step: "goal-options"))
        try store.writePending(GoldenEntry(output: Self.changed, checks: [:]), for: ana)
        try store.writePending(GoldenEntry(output: Self.options, checks: [:]), for: ben)
        let reasons = ReviewReasons(reasons: [
            .init(id: "cut-text", definition: "A sentence that stops mid-way.", appliesTo: ["options"]),
            .init(id: "duplicate-options", definition: "Options that reword one another.", appliesTo: ["options"]),
        ])
        let labelling = ReviewSession.Labelling(
            labels: ReviewLabels(golden: store, reasons: reasons, fixtures: ["ana", "ben"]), reviewer: "Ann", date: "2026-12-01")
        let review = GoldenReview(store: store)

        // ana: rejected as a reviewer for reasons 2 and 1 (9 is no reason), then accepted; ben: signed, then rejected.
        let text = try PrinterTests.printed { terminal in
            try? ReviewSession(review: review, keys: ScriptedKeys("-2 1 9\na+r"), out: terminal, labelling: labelling).walk(try review.pending())
        }
        #expect(text.contains(" 2 duplicate-options: Options that reword one another."), "\(text)")
        #expect(text.contains("no reason numbered 9: left out"))
        #expect(text.contains("rejected as Ann (duplicate-options, cut-text)"))
        #expect(text.contains("signed as Ann"))
        let anaLabel = try #require(try store.label(ana))
        #expect(anaLabel.verdict == .reject && anaLabel.reasons == ["duplicate-options", "cut-text"])
        #expect(anaLabel.outputDigest == (try store.approved(ana))?.outputDigest, "the label judges the output accepted")
        let benLabel = try #require(try store.label(ben))
        #expect(benLabel.verdict == .sign && benLabel.reasons.isEmpty)
        #expect(try store.approved(ben) == nil, "the output itself was rejected")
    }

    @Test func aNewProgramIsShownAsThePersonReadsItWithEachFailingChecksFinding() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("review-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = GoldenStore(folder: folder)
        let key = StepKey(fixture: "ana", step: "program-draft")
        let program: JSONValue = [
            "program_json": ["title": "Strong Ana", "days_per_week": 5],
            "program_markdown": "# Strong Ana\n\n## Day 1: Legs (40 min)\n- **Goblet squat**: 3 × 10, rest 60 s.\n",
        ]
        try store.writePending(
            GoldenEntry(
                output: program, checks: ["program.days-per-week": false, "program.equipment": true],
                failureMessages: ["program.days-per-week": "5 days a week; the person can train at most 3"]),
            for: key)
        let review = GoldenReview(store: store)
        let text = try PrinterTests.printed { terminal in
            try? ReviewSession(review: review, keys: ScriptedKeys("s"), out: terminal).walk(try review.pending())
        }
        #expect(text.contains("  ## Day 1: Legs (40 min)\n  - **Goblet squat**: 3 × 10, rest 60 s."), "the markdown as the person reads it:\n\(text)")
        #expect(!text.contains("\\n"), "no escaped markdown in JSON")
        #expect(text.contains("  ✗ program.days-per-week: 5 days a week; the person can train at most 3"), "\(text)")
        #expect(!text.contains("program.equipment"), "passing checks are not listed")
    }
}
