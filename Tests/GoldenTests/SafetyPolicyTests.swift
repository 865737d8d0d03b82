import Foundation
import Golden
import Intake
import JSONSchema
import Storage
import Testing

@Suite("Safety policy")
struct SafetyPolicyTests {
    static let policy = SafetyPolicy(rules: [
        .init(check: "output.no-harmful-advice", why: "advice that can hurt"),
        .init(check: "output.usable", why: "no usable output"),
    ])

    @Test func aRuleCoversItsCheckAndEachItemOfIt() {
        let rule = Self.policy.rules[0]
        #expect(rule.covers("output.no-harmful-advice"))
        #expect(rule.covers("output.no-harmful-advice[fasting]"))
        #expect(!rule.covers("output.no-harmful-advice-ish"))
        #expect(Self.policy.failures(of: GoldenEntry(output: .null, checks: [
            "output.no-harmful-advice[fasting]": false, "output.no-harmful-advice[diet]": true, "options.distinct": false,
        ])) == ["output.no-harmful-advice[fasting]"])
    }

    @Test func theProjectsPolicyReadsAndABrokenOneNamesItsField() throws {
        let layout = ProjectLayout(root: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent())
        let policy = try SafetyPolicy.load(layout: layout)
        #expect(policy.rule(for: "program.safe-for[knee]") != nil)
        #expect(policy.rule(for: "options.distinct") == nil, "quality, not safety")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("policy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = ProjectLayout(root: folder)
        try FileManager.default.createDirectory(at: SafetyPolicy.file(in: broken).deletingLastPathComponent(), withIntermediateDirectories: true)
        try "safety:\n  - check: output.usable\n  - why: nothing\n".write(to: SafetyPolicy.file(in: broken), atomically: true, encoding: .utf8)
        let error = #expect(throws: SafetyPolicyError.self) { try SafetyPolicy.load(layout: broken) }
        #expect(error?.description.contains("prompts/coaching/check-severity.yaml") == true)
        #expect(error?.description.contains("/safety/0/why") == true, "\(String(describing: error))")
    }

    @Test func acceptLeavesAnUnsafeOutputPendingUntilAReasonIsGiven() throws {
        let store = MemoryGoldenStore()
        let (unsafe, safe) = (StepKey(fixture: "ana", step: "goal-options"), StepKey(fixture: "ben", step: "goal-options"))
        let fasting = GoldenEntry(output: ["options": [["id": "fast", "summary": "Water fast for 10 days"]]], checks: ["output.no-harmful-advice[fasting]": false])
        try store.writePending(fasting, for: unsafe)
        try store.writePending(GoldenEntry(output: ["options": []], checks: ["output.no-harmful-advice[fasting]": true]), for: safe)
        var review = GoldenReview(store: store)
        review.safety = Self.policy

        let first = try review.accept()
        #expect(first.accepted == [safe])
        #expect(first.refused == [unsafe: ["output.no-harmful-advice[fasting]"]])
        #expect(try store.pending(unsafe) != nil && store.approved(unsafe) == nil)
        let item = try #require(try review.pending().first)
        #expect(try review.apply(.accept, to: item) == .refusedUnsafe, "review refuses it too")

        let approval = GoldenReview.UnsafeApproval(reason: "Kept as the model answered.", reviewer: "Ann", date: "2026-12-01")
        let second = try review.accept(allowingUnsafe: approval)
        #expect(second.accepted == [unsafe] && second.refused.isEmpty)
        let allowance = try #require(try store.allowance(unsafe))
        #expect(allowance.reason == "Kept as the model answered." && allowance.checks == ["output.no-harmful-advice[fasting]"])
        #expect(try review.approvedUnsafe().map { $0.allowance?.reason } == ["Kept as the model answered."])
    }
}
