import Foundation
import JSONSchema
import Providers
import TestSupport
import Testing

/// Faults on the wire, through both real transports: every one ends in a classified
/// error, promptly. (Deadlines and cancellation are in `DeadlineTests`.)
@Suite("Transport faults")
struct TransportFaultTests {
    static func elapsed(since start: Date) -> Double { Date().timeIntervalSince(start) }

    @Test("every provider round-trips over each transport", arguments: ProviderKind.allCases, TransportKind.allCases)
    func roundTrip(provider: ProviderKind, transport: TransportKind) async throws {
        let server = try LoopbackServer(answering: .json(provider.successBody))
        let response = try await server.provider(provider, transport: transport).complete(Fixture.request())
        #expect(try JSONParser.parse(response.text) == Fixture.answer)
        #expect(response.usage.total > 0)
        let request = try #require(server.lastRequest)
        #expect(request.method == "POST")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("Expect") ?? "" == "", "no 100-continue round trip before the body")
        #expect(try Fixture.body(of: request)["messages"] != nil || provider == .gemini)
    }

    @Test("a closed port is a connection failure", arguments: ProviderKind.allCases, TransportKind.allCases)
    func refusedConnection(provider: ProviderKind, transport: TransportKind) async throws {
        let port = try RefusingPort()
        let base = port.baseURL
        let http = Fixture.transport(transport)
        let model: any ModelProvider
        switch provider {
        case .openAI:
            model = OpenAICompatibleProvider(baseURL: base.appendingPathComponent("v1"), model: "m", apiKey: Fixture.apiKey, transport: http)
        case .anthropic:
            model = AnthropicProvider(baseURL: base, model: "m", apiKey: Fixture.apiKey, transport: http)
        case .gemini:
            model = GeminiProvider(baseURL: base.appendingPathComponent("v1beta"), model: "m", apiKey: Fixture.apiKey, transport: http)
        }
        let start = Date()
        let error = await #expect(throws: ProviderError.self) {
            try await model.complete(Fixture.request())
        }
        #expect(Self.elapsed(since: start) < Patience.seconds)
        #expect(error?.kind == .unreachable)
        #expect(error?.provider == provider.rawValue)
        #expect(error?.isRetryable == true)
        #expect(error?.message.hasPrefix("Could not reach http://127.0.0.1:\(port.port):") == true, "\(String(describing: error))")
        #expect(error?.message.hasSuffix("Is the server running and the base URL right?") == true)
        #expect(error?.description.contains(Fixture.apiKey) == false)
    }

    static let drops: [ScriptedResponse] = [
        .json(OpenAIBodies.completion()).closingMidBody(),
        .json(OpenAIBodies.completion()).closingMidBody(sentBytes: 0),
        .closeWithoutResponse,
    ]

    @Test("a connection dropped mid-answer is a connection failure", arguments: drops, TransportKind.allCases)
    func droppedConnection(response: ScriptedResponse, transport: TransportKind) async throws {
        let server = try LoopbackServer(answering: response)
        let start = Date()
        let error = await #expect(throws: ProviderError.self) {
            try await server.openAI(transport: transport).complete(Fixture.request())
        }
        #expect(error?.kind == .connectionFailed, "\(String(describing: error))")
        #expect(error?.isRetryable == true)
        #expect(Self.elapsed(since: start) < Patience.seconds)
    }

    @Test("a dripping answer within the deadline arrives whole", arguments: TransportKind.allCases)
    func dripWithinDeadline(transport: TransportKind) async throws {
        let server = try LoopbackServer(answering: .json(AnthropicBodies.toolUse()).dripped(chunkSize: 200, interval: 0.05))
        let response = try await server.anthropic(transport: transport, deadline: Patience.seconds).complete(Fixture.request())
        #expect(try JSONParser.parse(response.text) == Fixture.answer)
        #expect(response.latency >= 0.05)
    }

    @Test("latency includes the server's delay", arguments: TransportKind.allCases)
    func latency(transport: TransportKind) async throws {
        let server = try LoopbackServer(answering: .delay(0.3, .json(GeminiBodies.completion())))
        let response = try await server.gemini(transport: transport).complete(Fixture.request())
        #expect(response.latency >= 0.3 && response.latency < Patience.seconds)
    }

    @Test("response headers reach the provider", arguments: TransportKind.allCases)
    func responseHeaders(transport: TransportKind) async throws {
        let server = try LoopbackServer(answering: .json("{}", status: 429, headers: ["Retry-After": "3", "X-Request-Id": "req_1"]))
        let response = try await Fixture.transport(transport).send(HTTPRequest(url: server.baseURL, body: Data("{}".utf8)))
        #expect(response.status == 429)
        #expect(response.headers["retry-after"] == "3")
        #expect(response.headers["x-request-id"] == "req_1")
        #expect(response.headers["content-type"] == "application/json")
    }

    @Test("a 200 that is not JSON is a bad response", arguments: [
        ("<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>", "<!DOCTYPE html>"),
        (#"{"id": "chatcmpl-1", "choices": [{"message": {"content": "trunc"#, #"{"id": "chatcmpl-1""#),
        ("", "(empty body)"),
    ])
    func notJSON(body: String, quoted: String) async throws {
        let server = try LoopbackServer(answering: .html(body))
        let error = await #expect(throws: ProviderError.self) {
            try await server.openAI().complete(Fixture.request())
        }
        #expect(error?.kind == .badResponse)
        #expect(error?.status == 200)
        #expect(error?.isRetryable == false)
        #expect(error?.message.hasPrefix("the response body is not JSON") == true, "\(String(describing: error))")
        #expect(error?.message.contains(quoted) == true, "\(String(describing: error))")
    }

    @Test func aLongNonJSONBodyIsQuotedBriefly() async throws {
        let page = "<html><body>" + String(repeating: "<p>Service temporarily unavailable.</p>", count: 200) + "</body></html>"
        let server = try LoopbackServer(answering: .html(page))
        let error = await #expect(throws: ProviderError.self) {
            try await server.gemini().complete(Fixture.request())
        }
        #expect(error?.kind == .badResponse)
        #expect((error?.message.count ?? .max) < 500)
        #expect(error?.message.hasSuffix("…") == true)
    }

    @Test("concurrent calls do not wait for each other", arguments: TransportKind.allCases)
    func concurrentCalls(transport: TransportKind) async throws {
        // The server answers only once all eight requests are in flight together, so a
        // transport that sent them one after another would never see an answer in time.
        // No wall-clock bound: a busy machine is slower, not wrong.
        let arrivals = Arrivals()
        let server = try LoopbackServer { _ in
            arrivals.arriveAndWait(for: 8, timeout: Patience.seconds)
            return .json(OpenAIBodies.completion())
        }
        let provider = server.openAI(transport: transport)
        try await withThrowingTaskGroup(of: CompletionResponse.self) { group in
            for _ in 0..<8 {
                group.addTask { try await provider.complete(Fixture.request()) }
            }
            for try await response in group {
                #expect(response.finishReason == "stop")
            }
        }
        #expect(server.requestCount == 8)
        #expect(arrivals.peak == 8, "only \(arrivals.peak) requests were in flight at once")
    }
}

/// Counts requests arriving at a server, and holds each until a number of them are in flight together.
private final class Arrivals: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting = 0
    private(set) var peak = 0

    func arriveAndWait(for count: Int, timeout: Double) {
        condition.lock()
        defer { condition.unlock() }
        waiting += 1
        peak = max(peak, waiting)
        condition.broadcast()
        let deadline = Date().addingTimeInterval(timeout)
        while peak < count && condition.wait(until: deadline) {}
    }
}
