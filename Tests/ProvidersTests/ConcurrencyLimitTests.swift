import Foundation
import JSONSchema
@testable import Providers
import Testing
import TestSupport

/// A provider that takes `delay` to answer each call and remembers how many calls it had at once.
private func slowProvider(delay: Duration) -> ScriptedProvider {
    ScriptedProvider(answering: "{}", kind: "slow", model: "slow", usage: TokenUsage(), latency: 0, delay: .always(delay))
}

@Suite("Concurrency limit")
struct ConcurrencyLimitTests {
    static let request = CompletionRequest(system: "s", messages: [ChatMessage(role: .user, content: "u")])

    @Test func neverMoreThanTheLimitInFlightAndEveryCallServed() async throws {
        let slow = slowProvider(delay: .milliseconds(20))
        let limited = ConcurrencyLimitedProvider(slow, limit: 4)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<24 { group.addTask { _ = try await limited.complete(Self.request) } }
            try await group.waitForAll()
        }
        #expect(slow.calls == 24)
        #expect(slow.peakInFlight == 4)
    }

    @Test func aCancelledWaiterLeavesWithoutTakingASlot() async throws {
        // The holder keeps its slot for long enough that a busy machine cannot end it early;
        // the test waits for each state it needs instead of sleeping a guessed time.
        let slow = slowProvider(delay: .seconds(2))
        let limited = ConcurrencyLimitedProvider(slow, limit: 1)
        let holder = Task { try await limited.complete(Self.request) }
        try await Self.waitUntil { slow.calls == 1 }
        let waiter = Task { try await limited.complete(Self.request) }
        try await Self.waitUntil { limited.waitingCount == 1 }
        waiter.cancel()
        let error = await #expect(throws: ProviderError.self) { try await waiter.value }
        #expect(error?.kind == .cancelled)
        #expect(slow.calls == 1, "the cancelled call never reached the provider")
        _ = try await holder.value
        // The slot is free again.
        _ = try await limited.complete(Self.request)
        #expect(slow.calls == 2)
    }

    /// Polls `condition` every 5 ms for up to 10 s.
    static func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("the condition never became true")
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
