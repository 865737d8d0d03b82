import Foundation
import Providers
import TestSupport
import Testing

/// Records the waits a retrying provider asks for, instead of sleeping.
final class WaitLog: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Double] = []
    var waits: [Double] { lock.withLock { recorded } }

    func sleep(_ seconds: Double) async throws {
        lock.withLock { recorded.append(seconds) }
    }
}

@Suite("Retries")
struct RetryTests {
    static let ok = ScriptedResponse.json(OpenAIBodies.completion())
    static let rateLimited = ScriptedResponse.json(OpenAIBodies.error("Rate limit reached", type: "requests"), status: 429)

    func provider(_ server: LoopbackServer, log: WaitLog, retries: Int = 3) -> RetryingProvider {
        RetryingProvider(server.openAI(), policy: RetryPolicy(maxRetries: retries, baseDelay: 1, maxDelay: 60), sleep: log.sleep)
    }

    @Test func retriesRateLimitsAndServerErrorsThenSucceeds() async throws {
        let server = try LoopbackServer(responses: [
            Self.rateLimited.adding(header: "Retry-After", "7"),
            .json(OpenAIBodies.error("The server had an error", type: "server_error"), status: 500),
            .closeWithoutResponse,
            Self.ok,
        ])
        let log = WaitLog()
        let response = try await provider(server, log: log).complete(Fixture.request())
        #expect(response.retries == 3)
        #expect(response.finishReason == "stop")
        #expect(server.requestCount == 4)
        // Retry-After is honoured exactly; retries 2 and 3 back off 2 s and 4 s, jittered in their upper half.
        #expect(log.waits.count == 3)
        #expect(log.waits[0] == 7)
        #expect((1...2).contains(log.waits[1]))
        #expect((2...4).contains(log.waits[2]))
    }

    @Test(arguments: [
        (ScriptedResponse.json(OpenAIBodies.error("Incorrect API key provided", type: "invalid_request_error"), status: 401), ProviderError.Kind.authentication),
        (ScriptedResponse.json(OpenAIBodies.error("Invalid schema", type: "invalid_request_error"), status: 400), .requestRejected),
        (ScriptedResponse.html("<html>Oops</html>"), .badResponse),
    ])
    func doesNotRetryWhatCannotSucceed(answer: ScriptedResponse, kind: ProviderError.Kind) async throws {
        let server = try LoopbackServer(responses: [answer, Self.ok])
        let log = WaitLog()
        let error = await #expect(throws: ProviderError.self) { try await provider(server, log: log).complete(Fixture.request()) }
        #expect(error?.kind == kind)
        #expect(error?.retries == 0)
        #expect(server.requestCount == 1)
        #expect(log.waits.isEmpty)
    }

    @Test func givesUpAfterTheLastRetryAndSaysHowManyTries() async throws {
        let server = try LoopbackServer(sequence: ResponseSequence([], afterwards: Self.rateLimited))
        let log = WaitLog()
        let error = await #expect(throws: ProviderError.self) { try await provider(server, log: log, retries: 2).complete(Fixture.request()) }
        #expect(error?.kind == .rateLimited)
        #expect(error?.retries == 2)
        #expect(error?.description.contains("after 3 tries") == true)
        #expect(server.requestCount == 3)
    }

    @Test func aServersWaitIsCappedAtTheMaximum() {
        let policy = RetryPolicy(maxRetries: 3, baseDelay: 1, maxDelay: 30)
        #expect(policy.delay(beforeRetry: 1, retryAfter: 3600, random: 0) == 30)
        #expect(policy.delay(beforeRetry: 10, retryAfter: nil, random: 1) == 30)
        #expect(policy.delay(beforeRetry: 3, retryAfter: nil, random: 0) == 2)
    }
}
