import Foundation
import JSONSchema
@testable import Providers
import Testing
import TestSupport

/// A provider whose first `held` calls each wait until `held` calls are in flight
/// together (or until cancelled); every later call answers at once. With a limit of
/// `held`, the first wave fills every slot however slow the machine is, so the peak
/// is exactly the limit unless the limit lets more through.
private final class GatheringProvider: ModelProvider, @unchecked Sendable {
    let kind = "gathering"
    let model = "gathering"
    let held: Int
    private let lock = NSLock()
    private var calls = 0
    private var current = 0
    private var peak = 0

    init(holding held: Int) { self.held = held }

    var callCount: Int { lock.withLock { calls } }
    var peakInFlight: Int { lock.withLock { peak } }

    func complete(_ request: CompletionRequest) async throws -> CompletionResponse {
        let call: Int = lock.withLock {
            calls += 1
            current += 1
            peak = max(peak, current)
            return calls
        }
        defer { lock.withLock { current -= 1 } }
        if call <= held {
            let deadline = ContinuousClock.now + Patience.duration
            while peakInFlight < held, ContinuousClock.now < deadline {
                do { try await Task.sleep(for: .milliseconds(5)) } catch {
                    throw ProviderError(kind: .cancelled, provider: kind, message: "The request was cancelled.")
                }
            }
        }
        return CompletionResponse(text: "{}", finishReason: "stop", usage: TokenUsage(), latency: 0, model: model)
    }
}

@Suite("Concurrency limit")
struct ConcurrencyLimitTests {
    static let request = CompletionRequest(system: "s", messages: [ChatMessage(role: .user, content: "u")])

    @Test func neverMoreThanTheLimitInFlightAndEveryCallServed() async throws {
        let gathering = GatheringProvider(holding: 4)
        let limited = ConcurrencyLimitedProvider(gathering, limit: 4)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<24 { group.addTask { _ = try await limited.complete(Self.request) } }
            try await group.waitForAll()
        }
        #expect(gathering.callCount == 24)
        #expect(gathering.peakInFlight == 4)
    }

    @Test func aCancelledWaiterLeavesWithoutTakingASlot() async throws {
        // The holder keeps its slot until it is cancelled, so a busy machine cannot end it
        // early; the test waits for each state it needs instead of sleeping a guessed time.
        let slow = ScriptedProvider(
            answering: "{}", kind: "slow", model: "slow", usage: TokenUsage(), latency: 0, delay: .first(calls: 1, Patience.forever))
        let limited = ConcurrencyLimitedProvider(slow, limit: 1)
        let holder = Task { try await limited.complete(Self.request) }
        try await Self.waitUntil { slow.calls == 1 }
        let waiter = Task { try await limited.complete(Self.request) }
        try await Self.waitUntil { limited.waitingCount == 1 }
        waiter.cancel()
        let error = await #expect(throws: ProviderError.self) { try await waiter.value }
        #expect(error?.kind == .cancelled)
        #expect(slow.calls == 1, "the cancelled call never reached the provider")
        holder.cancel()
        _ = await holder.result
        // The slot is free again.
        _ = try await limited.complete(Self.request)
        #expect(slow.calls == 2)
    }

    /// Polls `condition` every 5 ms until it holds; after `Patience.seconds` the test fails as hung.
    static func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + Patience.duration
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("the condition never became true")
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
