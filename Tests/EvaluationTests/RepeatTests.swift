import Evaluation
import Foundation
import Intake
import JSONSchema
import Pipeline
import Testing
import TestSupport

/// `repeats` runs every step again and again; only the first repeat meets golden.
@Suite("Evaluation repeats")
struct RepeatTests {
    @Test func everyStepRunsOncePerRepeatAndOnlyTheFirstIsComparedWithGolden() async throws {
        let bench = Bench()
        defer { bench.cleanUp() }
        // The first goal options differ from the later repeats' ones, so golden shows which repeat it saw.
        let provider = ScriptedProvider([.success(Replies.options)]) { request in
            request.context?.step == "goal-options" ? .success(Replies.otherOptions) : Replies.valid(for: request)
        }
        let outcome = try await bench.run(["busy-parent"], provider: provider, options: Bench.options { $0.repeats = 3 })

        #expect(provider.calls == 12)
        let callsByStep = Dictionary(grouping: provider.requests) { $0.context?.step ?? "" }.mapValues(\.count)
        #expect(callsByStep == ["goal-options": 3, "goal-options-edit-1": 3, "program-draft": 3, "program-edit": 3])
        #expect(provider.requests.map { $0.context?.repeatNumber } == [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3],
                "each call says which repeat it belongs to, so each repeat has its own recording")
        let records = outcome.report.fixtures.flatMap(\.steps).map { $0.repeats?.map(\.repeatNumber) }
        #expect(records == [[1, 2, 3], [1, 2, 3], nil, [1, 2, 3], [1, 2, 3]], "every model step keeps every repeat; confirm has none")

        #expect(outcome.golden.verdicts.count == 4)
        #expect(outcome.golden.verdicts.map(\.status) == Array(repeating: .new, count: 4))
        let pending = try #require(try bench.golden.pending(StepKey(fixture: "busy-parent", step: "goal-options")))
        #expect(pending.output == (try JSONParser.parse(Replies.options)))
        #expect(outcome.results.first?.steps.first?.output == (try JSONParser.parse(Replies.options)))

        let statistics = try #require(outcome.report.repeats)
        #expect(statistics.repeats == 3)
        #expect(statistics.steps.map(\.step) == ["goal-options", "goal-options-edit", "program-draft", "program-edit"])
        #expect(statistics.steps.map(\.runs) == [3, 3, 3, 3])
        #expect(statistics.steps.allSatisfy { $0.passRate.mean == 1 && $0.firstPassValidity.mean == 1 })
        #expect(statistics.meetsRequirements)
        #expect(outcome.exitStatus(ci: false) == 0)
    }

    @Test func aPassRateBelowTheRequiredOneFailsTheRun() async throws {
        let bench = Bench()
        defer { bench.cleanUp() }
        // One call per step (no repairs), in order: the second repeat's goal options break the schema.
        let broken = #"{"options": "none"}"#
        let script: [ScriptedProvider.Reply] = [
            .success(Replies.options), .success(Replies.editedOptions), .success(Replies.program), .success(Replies.editedProgram),
            .success(broken),
        ]
        let provider = ScriptedProvider(script, otherwise: Replies.valid)
        let outcome = try await bench.run(["busy-parent"], provider: provider, options: Bench.options {
            $0.repeats = 3
            $0.repairs = 0
            $0.requiredPassRates = ["goal-options": 0.9]
        })

        #expect(provider.calls == 9, "the second repeat stops after its invalid goal options")
        let statistics = try #require(outcome.report.repeats)
        let goalOptions = try #require(statistics.steps.first { $0.step == "goal-options" })
        #expect(goalOptions.passRate.min == 0 && goalOptions.passRate.max == 1)
        #expect(!goalOptions.meetsRequirement)
        #expect(statistics.shortfalls == ["goal-options: pass rate 67% < required 90%"])
        #expect(!outcome.golden.hasFailures, "the first repeat, the one compared with golden, is clean")
        #expect(outcome.exitStatus(ci: false) == 1)
    }
}
