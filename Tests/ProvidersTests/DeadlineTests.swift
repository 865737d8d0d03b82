import Foundation
import JSONSchema
import Providers
import TestSupport
import Testing

/// The total deadline and cancellation through the real transport. Calls that end by
/// timing out or being cancelled run on a dedicated thread (`Bounded.run`), so a
/// regression fails one test instead of hanging the run.
@Suite("Deadlines and cancellation")
struct DeadlineTests {
    static func elapsed(since start: Date) -> Double { Date().timeIntervalSince(start) }

    static let timeoutTransports = TransportKind.allCases

    @Test("a server that never answers times out at the deadline", arguments: ProviderKind.allCases, timeoutTransports)
    func hangTimesOut(provider: ProviderKind, transport: TransportKind) async throws {
        let server = try LoopbackServer(answering: .hang)
        defer { server.stop() }
        let model = server.provider(provider, transport: transport, deadline: 1)
        let start = Date()
        guard let result = await Bounded.run(transport, { try await model.complete(Fixture.request()) }) else { return }
        let elapsed = Self.elapsed(since: start)
        let error = #expect(throws: ProviderError.self) { try result.get() }
        #expect(error?.kind == .timeout)
        #expect(error?.provider == provider.rawValue)
        #expect(error?.status == nil)
        #expect(error?.message == "No complete response from 127.0.0.1 within 1 s.")
        #expect(error?.isRetryable == true)
        #expect(elapsed >= 0.9 && elapsed < Patience.seconds, "took \(elapsed) s")
        #expect(server.requestCount == 1, "the request arrived; only the answer was missing")
    }

    /// The answer comes an hour after the deadline, so however long a loaded machine
    /// stalls the test, only the deadline can end the call.
    @Test("a slow answer times out", arguments: timeoutTransports)
    func slowAnswer(transport: TransportKind) async throws {
        let server = try LoopbackServer(answering: .delay(3600, .json(OpenAIBodies.completion())))
        defer { server.stop() }
        let model = server.openAI(transport: transport, deadline: 1)
        let start = Date()
        guard let result = await Bounded.run(transport, { try await model.complete(Fixture.request()) }) else { return }
        let error = #expect(throws: ProviderError.self) { try result.get() }
        #expect(error?.kind == .timeout)
        #expect(Self.elapsed(since: start) < Patience.seconds, "the deadline fired before the hour-long answer")
    }

    /// Bytes keep arriving, so no idle timeout would fire: only a total deadline stops
    /// this. A byte a second takes minutes to send the whole answer.
    @Test("a dripping answer that outlasts the deadline times out", arguments: timeoutTransports)
    func drippingPastTheDeadline(transport: TransportKind) async throws {
        let server = try LoopbackServer(answering: .json(OpenAIBodies.completion()).dripped(chunkSize: 1, interval: 1))
        defer { server.stop() }
        let model = server.openAI(transport: transport, deadline: 1)
        let start = Date()
        guard let result = await Bounded.run(transport, { try await model.complete(Fixture.request()) }) else { return }
        let error = #expect(throws: ProviderError.self) { try result.get() }
        #expect(error?.kind == .timeout)
        #expect(Self.elapsed(since: start) < Patience.seconds)
    }

    /// Many requests timing out together all return, each with its own timeout error.
    @Test("many concurrent timeouts all return", arguments: timeoutTransports)
    func manyConcurrentTimeouts(transport: TransportKind) async throws {
        let server = try LoopbackServer(answering: .hang)
        defer { server.stop() }
        let start = Date()
        let result = await Bounded.run(transport) {
            try await withThrowingTaskGroup(of: ProviderError.Kind?.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        do {
                            _ = try await server.openAI(transport: transport, deadline: 1).complete(Fixture.request())
                            return nil
                        } catch let error as ProviderError {
                            return error.kind
                        }
                    }
                }
                return try await group.reduce(into: [ProviderError.Kind?]()) { $0.append($1) }
            }
        }
        guard let kinds = try result?.get() else { return }
        #expect(kinds == Array(repeating: .timeout, count: 16))
        #expect(Self.elapsed(since: start) < Patience.seconds)
    }

    /// Half a second is neither rounded down to "no time at all" (the call would fail at
    /// once) nor to "no deadline" (it would never end): the call ends in a timeout, no
    /// sooner than the deadline. A busy machine can only make it later.
    @Test("a sub-second deadline is honoured", arguments: TransportKind.allCases)
    func subSecondDeadline(transport: TransportKind) async throws {
        let server = try LoopbackServer(answering: .hang)
        defer { server.stop() }
        let model = server.openAI(transport: transport, deadline: 0.5)
        let start = Date()
        guard let result = await Bounded.run(transport, { try await model.complete(Fixture.request()) }) else { return }
        let elapsed = Self.elapsed(since: start)
        let error = #expect(throws: ProviderError.self) { try result.get() }
        #expect(error?.kind == .timeout)
        #expect(elapsed >= 0.45, "took \(elapsed) s")
    }

    @Test("cancelling the task ends the call promptly", arguments: TransportKind.allCases)
    func cancellation(transport: TransportKind) async throws {
        let server = try LoopbackServer(answering: .hang)
        defer { server.stop() }
        let provider = server.openAI(transport: transport, deadline: Patience.seconds * 2)
        let outcome = await Bounded.run(transport) { () -> (Double, Result<CompletionResponse, any Error>) in
            let task = Task { try await provider.complete(Fixture.request()) }
            _ = await server.waitForRequests(1, timeout: Patience.seconds)
            let start = Date()
            task.cancel()
            let result = await task.result
            return (Self.elapsed(since: start), result)
        }
        guard let (elapsed, result) = try outcome?.get() else { return }
        #expect(server.requestCount == 1)
        #expect(elapsed < Patience.seconds, "took \(elapsed) s")
        let error = #expect(throws: ProviderError.self) { try result.get() }
        #expect(error?.kind == .cancelled)
        #expect(error?.message == "The request was cancelled.")
        #expect(error?.isRetryable == false)
    }
}
