import Foundation
import Intake
import JSONSchema
import Providers
import TestSupport
import Testing

@testable import Pipeline

/// The pipeline against a loopback OpenAI-compatible server that misbehaves on purpose:
/// `busy-parent`'s calls meet the fault, `minimal-record`'s are answered properly, and
/// the run must classify the fault exactly and keep the other fixture intact.
@Suite("Fault injection")
struct FaultInjectionTests {
    struct Fault: CustomTestStringConvertible, Sendable {
        let name: String
        let answer: ScriptedResponse
        /// Expected status and failure kind of busy-parent's goal-options step.
        let status: StepStatus
        let kind: String?
        let retries: Int
        var testDescription: String { name }
    }

    static func completion(_ content: String) -> String {
        let escaped = JSONValue.string(content).serialized()
        return #"{"object": "chat.completion", "model": "test", "choices": [{"index": 0, "message": {"role": "assistant", "content": "# + escaped + #"}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 10, "completion_tokens": 5}}"#
    }

    static let faults: [Fault] = [
        Fault(name: "429 with Retry-After", answer: .json(#"{"error": {"message": "Rate limit reached"}}"#, status: 429).adding(header: "Retry-After", "0"),
              status: .error, kind: "rate-limited", retries: 2),
        Fault(name: "429 without Retry-After", answer: .json(#"{"error": {"message": "Rate limit reached"}}"#, status: 429),
              status: .error, kind: "rate-limited", retries: 2),
        Fault(name: "500", answer: .json(#"{"error": {"message": "internal"}}"#, status: 500), status: .error, kind: "server-error", retries: 2),
        Fault(name: "503", answer: .text("upstream unavailable", status: 503), status: .error, kind: "server-error", retries: 2),
        Fault(name: "hang", answer: .hang, status: .error, kind: "timeout", retries: 2),
        Fault(name: "slow drip past the deadline", answer: .json(completion(Samples.options)).dripped(chunkSize: 8, interval: 0.2),
              status: .error, kind: "timeout", retries: 2),
        Fault(name: "close mid-body", answer: .json(completion(Samples.options)).closingMidBody(sentBytes: 40),
              status: .error, kind: "connection-failed", retries: 2),
        Fault(name: "truncated JSON body", answer: .text(String(completion(Samples.options).prefix(60)), status: 200),
              status: .error, kind: "bad-response", retries: 0),
        Fault(name: "JSON wrapped in prose", answer: .json(completion("Sure! Here are the options:\n" + Samples.options + "\nGood luck.")),
              status: .valid, kind: nil, retries: 0),
        Fault(name: "JSON in a code fence", answer: .json(completion("```json\n" + Samples.options + "\n```")),
              status: .valid, kind: nil, retries: 0),
        Fault(name: "valid JSON that breaks the schema", answer: .json(completion(#"{"options": [{"id": "only-one", "summary": "Just one option", "detail": ""}]}"#)),
              status: .invalid, kind: "invalid-output", retries: 0),
        Fault(name: "empty choice list", answer: .json(#"{"object": "chat.completion", "choices": []}"#),
              status: .error, kind: "bad-response", retries: 0),
        Fault(name: "200 with an HTML error page", answer: .html("<html><body><h1>502 Bad Gateway</h1></body></html>"),
              status: .error, kind: "bad-response", retries: 0),
    ]

    @Test(arguments: faults)
    func classifiesTheFaultAndKeepsTheOtherFixtureIntact(fault: Fault) async throws {
        let server = try LoopbackServer { request in
            let body = request.bodyText
            guard body.contains("Keisha") else {
                return .json(Self.completion(body.contains("\"program_") ? Samples.program : Samples.options))
            }
            return fault.answer
        }
        defer { server.stop() }
        // The faulty fixture's calls have a one-second deadline, so a hang ends quickly; the
        // intact fixture's calls get all the time a loaded machine may need.
        func live(deadline: Double) -> OpenAICompatibleProvider {
            OpenAICompatibleProvider(
                baseURL: server.url("/v1"), model: "test", apiKey: nil, transport: CurlTransport(deadline: deadline, connectTimeout: deadline))
        }
        let byFixture = ProviderByFixture(["busy-parent": live(deadline: 1)], otherwise: live(deadline: Patience.seconds))
        let provider = RetryingProvider(byFixture, policy: RetryPolicy(maxRetries: 2, baseDelay: 0.01), sleep: { _ in })
        let pipeline = Pipeline(runner: StepRunner(provider: provider, prompts: try Repository.prompts()), runsChecks: false)
        let corpus = try FixtureCorpus(layout: Repository.layout)
        let results = await pipeline.run(try corpus.load(names: ["busy-parent", "minimal-record"]), jobs: 2)

        let faulty = try #require(results.first { $0.fixture == "busy-parent" }?.steps.first)
        #expect(faulty.status == fault.status, "\(faulty.failure.map { "\($0.kind): \($0.message)" } ?? "")")
        #expect(faulty.failure?.kind.description == fault.kind)
        #expect((faulty.failure?.retries ?? faulty.attempts.first?.retries ?? 0) == fault.retries)
        if fault.status == .invalid { #expect(faulty.attempts.count == 2, "one repair attempt") }

        let intact = try #require(results.first { $0.fixture == "minimal-record" })
        #expect(intact.steps.allSatisfy { $0.status == .valid }, "\(intact.steps.map { "\($0.id): \($0.status)" })")
        #expect(intact.steps.count == 4)
    }
}

/// Sends each call to the provider named for its fixture, else to `otherwise`.
private struct ProviderByFixture: ModelProvider {
    let providers: [String: any ModelProvider]
    let otherwise: any ModelProvider
    var kind: String { otherwise.kind }
    var model: String { otherwise.model }

    init(_ providers: [String: any ModelProvider], otherwise: any ModelProvider) {
        self.providers = providers
        self.otherwise = otherwise
    }

    func complete(_ request: CompletionRequest) async throws -> CompletionResponse {
        try await (request.context.flatMap { providers[$0.fixture] } ?? otherwise).complete(request)
    }
}
