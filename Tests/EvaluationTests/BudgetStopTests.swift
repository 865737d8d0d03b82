import Evaluation
import Foundation
import Pipeline
import Providers
import Testing
import TestSupport

/// A spent budget stops a run from starting calls; the calls under way finish and
/// the steps never started are skipped, naming the budget.
@Suite("Evaluation stopped by a budget")
struct BudgetStopTests {
    @Test func aSpentBudgetSkipsTheStepsNotStartedAndLetsTheCallUnderWayFinish() async throws {
        let bench = Bench()
        defer { bench.cleanUp() }
        let scripted = ScriptedProvider(otherwise: Replies.valid)
        let provider = BudgetedProvider(scripted, budget: RunBudget(maxCalls: 2))
        let outcome = try await bench.run(["busy-parent", "knee-injury", "minimal-record"], provider: provider)

        #expect(scripted.calls == 2)
        let stop = try #require(outcome.budgetStop)
        #expect(stop.note == "not run: the run's budget of 2 calls (--max-calls) is spent")
        #expect(outcome.interrupted && outcome.unreachable == nil)
        #expect(!outcome.steps.contains { $0.result.status == .error }, "a step the budget stopped is no failure")
        let valid = outcome.steps.filter { $0.result.status == .valid && $0.result.id.step != nil }
        #expect(valid.count == 2)
        let undone = outcome.steps.filter { $0.result.status == .skipped && $0.result.id.step != nil }
        #expect(undone.allSatisfy { $0.result.note == stop.note })
        #expect(stop.undoneModelSteps == undone.count)
        #expect(!outcome.golden.hasFailures)
        #expect(outcome.exitStatus(ci: false) == 0)
        #expect(outcome.exitStatus(ci: true) == 1, "the CI gate has not seen every step")
    }

    @Test func theRepeatsThatNeverBeganCountAsUndone() async throws {
        let bench = Bench()
        defer { bench.cleanUp() }
        let provider = BudgetedProvider(ScriptedProvider(otherwise: Replies.valid), budget: RunBudget(maxCalls: 1))
        let outcome = try await bench.run(["minimal-record"], provider: provider, options: Bench.options {
            $0.repeats = 3
            $0.lastStep = .goalOptions
        })
        // Repeat 1 made its one call; repeats 2 and 3 never began.
        #expect(outcome.budgetStop?.undoneModelSteps == 2)
    }

    @Test func theCostCapCountsWhatTheRepliesCost() async throws {
        let bench = Bench()
        defer { bench.cleanUp() }
        let scripted = ScriptedProvider(otherwise: Replies.valid)
        // A million tokens a dollar: every reply costs its tokens in millionths of a dollar.
        let cap = CostCap(dollars: 0.000_001, inputPerMillion: 1, outputPerMillion: 1)
        let outcome = try await bench.run(
            ["minimal-record"], provider: BudgetedProvider(scripted, budget: RunBudget(maxCost: cap)), options: Bench.options { $0.jobs = 1 })
        #expect(scripted.calls == 1)
        #expect(outcome.budgetStop?.note.contains("cost budget of $0.000001 (--max-cost) is spent") == true)
    }

    @Test func aRefusedRepairLeavesTheStepInvalidNotSkipped() async throws {
        let bench = Bench()
        defer { bench.cleanUp() }
        let scripted = ScriptedProvider([.success("no JSON here")], otherwise: Replies.valid)
        let outcome = try await bench.run(
            ["minimal-record"], provider: BudgetedProvider(scripted, budget: RunBudget(maxCalls: 1)),
            options: Bench.options { $0.lastStep = .goalOptions })
        let step = try #require(outcome.steps.first { $0.result.id == .goalOptions }?.result)
        #expect(scripted.calls == 1)
        #expect(step.status == .invalid)
        #expect(step.note == "repair not sent: the run's budget of 1 call (--max-calls) is spent")
    }
}
