import Evaluation
import Foundation
import Pipeline
import Providers
import Testing
import TestSupport

/// A run stopped early, from outside (cancelled) or from inside (a provider nobody
/// answers for), still judges and reports what finished.
@Suite("Evaluation stopped early")
struct StoppingTests {
    @Test func cancellingMarksUnfinishedStepsNotRunAndJudgesWhatFinished() async throws {
        let bench = Bench()
        defer { bench.cleanUp() }
        // The first call answers at once; every later one would take an hour.
        let provider = ScriptedProvider(delay: .after(calls: 1, Patience.forever), otherwise: Replies.valid)
        let evaluation = try bench.evaluation(provider)
        // One call in flight, two fixtures under way; the third never starts.
        let fixtures = try Repository.fixtures(["busy-parent", "knee-injury", "minimal-record"])
        let start = ContinuousClock.now
        let work = Task { try await evaluation.run(fixtures) }
        try await waitUntil { provider.finishedCalls == 1 && provider.inFlight == 1 }
        work.cancel()
        let outcome = try await work.value

        #expect(ContinuousClock.now - start < Patience.duration, "the slow call was cut short")
        #expect(outcome.interrupted)
        #expect(outcome.unreachable == nil)
        let finished = outcome.steps.filter { $0.result.status == .valid }
        #expect(finished.count == 1, "only the first call finished")
        let cutShort = outcome.steps.filter { $0.result.status == .error }
        #expect(!cutShort.isEmpty && cutShort.allSatisfy { $0.result.failure?.kind == .provider(.cancelled) })
        let notRun = outcome.steps.filter { $0.result.status == .skipped }
        #expect(notRun.count + cutShort.count + finished.count == outcome.steps.count)
        #expect(notRun.allSatisfy { $0.result.note == Pipeline.interrupted })
        #expect(outcome.results.last?.steps.allSatisfy { $0.note == Pipeline.interrupted } == true)

        // What finished is judged, and left pending for review.
        let judged = outcome.golden.verdicts.filter { $0.status == .new }.map(\.key.description)
        #expect(judged == finished.map(\.key))
        #expect(bench.golden.entries(pending: true).map(\.description) == judged)
    }

    @Test func anUnreachableProviderStopsTheRunAfterTheFirstFailure() async throws {
        let bench = Bench()
        defer { bench.cleanUp() }
        // Every call fails; any call after the first would also wait an hour first.
        let provider = ScriptedProvider(delay: .after(calls: 1, Patience.forever)) { _ in .failure(Replies.unreachable) }
        let start = ContinuousClock.now
        // More fixtures than are under way at once (twice the jobs): the last never starts.
        let outcome = try await bench.run(["busy-parent", "knee-injury", "minimal-record"], provider: provider)

        #expect(ContinuousClock.now - start < Patience.duration, "the run stopped instead of waiting on the second call")
        #expect(provider.calls <= 2)
        #expect(outcome.unreachable?.kind == .provider(.unreachable))
        #expect(outcome.unreachable?.message.contains("http://127.0.0.1:9/v1") == true)
        #expect(outcome.interrupted)
        let failed = outcome.steps.filter { $0.result.status == .error }
        #expect(failed.count == 1)
        #expect(failed.first?.result.failure?.kind == .provider(.unreachable))
        let others = outcome.steps.filter { $0.result.status != .error }
        #expect(others.count == outcome.steps.count - 1)
        #expect(others.allSatisfy { $0.result.status == .skipped && $0.result.note == "not run: the provider could not be reached" }, "\(outcome.steps.map { "\($0.key) \($0.result.status) \($0.result.note ?? "-") \($0.result.failure?.message ?? "")" })")
        #expect(outcome.exitStatus(ci: false) == 2)
        #expect(outcome.exitStatus(ci: true) == 2)
    }
}
