import Evaluation
import Foundation
import Intake
import Golden
import JSONSchema
import Pipeline
import Testing
import TestSupport

/// A run compares each model step with the golden store it is given, and outside CI
/// leaves what differs there as pending.
@Suite("Evaluation against golden")
struct GoldenComparisonTests {
    static let modelSteps = [
        "busy-parent/goal-options", "busy-parent/goal-options-edit-1", "busy-parent/program-draft", "busy-parent/program-edit",
    ]

    @Test func everyModelStepIsNewUntilApprovedThenMatches() async throws {
        let bench = Bench()
        defer { bench.cleanUp() }
        let onDisk = listing(of: Repository.layout.golden)

        let first = try await bench.run(["busy-parent"], provider: ScriptedProvider(otherwise: Replies.valid))
        #expect(first.failedChecks == [])
        #expect(first.golden.verdicts.map(\.key.description) == Self.modelSteps)
        #expect(first.golden.verdicts.map(\.status) == Array(repeating: .new, count: 4))
        #expect(bench.golden.entries(pending: true).map(\.description) == Self.modelSteps)
        #expect(bench.golden.entries(pending: false).isEmpty)
        let pending = try #require(try bench.golden.pending(StepKey(fixture: "busy-parent", step: "program-draft")))
        #expect(pending.output["program_json"] == (try JSONParser.parse(Replies.program))["program_json"])
        #expect(pending.output["program_markdown"]?.stringValue?.hasPrefix("# Evening Energy for Keisha\n") == true, "rendered from the JSON")
        #expect(listing(of: Repository.layout.golden) == onDisk, "the pending outputs went to the store given, not to golden/")
        #expect(first.exitStatus(ci: false) == 0, "new outputs wait for review; they are no failure outside CI")
        #expect(first.exitStatus(ci: true) == 1)

        try bench.acceptAll()
        let second = try await bench.run(
            ["busy-parent"], provider: ScriptedProvider(otherwise: Replies.valid), options: Bench.options { $0.ci = true })
        #expect(second.golden.verdicts.map(\.key.description) == Self.modelSteps)
        #expect(second.golden.verdicts.map(\.status) == Array(repeating: .matches, count: 4))
        #expect(second.golden.orphans.isEmpty)
        #expect(second.exitStatus(ci: true) == 0)
        #expect(bench.golden.entries(pending: true).isEmpty)
    }

    @Test func theCIGateNeverWritesPendingOutputs() async throws {
        let bench = Bench()
        defer { bench.cleanUp() }
        let gate = Bench.options { $0.ci = true }

        let first = try await bench.run(["busy-parent"], provider: ScriptedProvider(otherwise: Replies.valid), options: gate)
        #expect(first.golden.verdicts.map(\.status) == Array(repeating: .new, count: 4))
        #expect(bench.golden.entries(pending: true).isEmpty)
        #expect(first.exitStatus(ci: true) == 1)

        // Approved outputs, then a run whose program differs: changed, and still nothing pending.
        _ = try await bench.run(["busy-parent"], provider: ScriptedProvider(otherwise: Replies.valid))
        try bench.acceptAll()
        let changed = ScriptedProvider { request in
            request.context?.step == "program-draft" ? .success(Replies.editedProgram) : Replies.valid(for: request)
        }
        let second = try await bench.run(["busy-parent"], provider: changed, options: gate)
        #expect(second.golden.verdicts.first { $0.key.step == "program-draft" }?.status == .changed)
        #expect(bench.golden.entries(pending: true).isEmpty)
        #expect(second.exitStatus(ci: true) == 1)
    }
}
