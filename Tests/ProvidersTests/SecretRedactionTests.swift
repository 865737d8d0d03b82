import Foundation
import JSONSchema
import Providers
import TestSupport
import Testing

/// The API key never appears in an error, whatever the server echoes back.
@Suite("Secret redaction")
struct SecretRedactionTests {
    static func echoes(_ provider: ProviderKind) -> ScriptedResponse {
        let message = "Incorrect API key provided: \(Fixture.apiKey). You can find your API key at https://platform.openai.com/account/api-keys."
        switch provider {
        case .openAI:
            return .json(OpenAIBodies.error(message, type: "invalid_request_error", code: "invalid_api_key"), status: 401)
        case .anthropic:
            return .json(AnthropicBodies.error("authentication_error", message), status: 401)
        case .gemini:
            return .json(GeminiBodies.error(code: 403, status: "PERMISSION_DENIED", message), status: 403)
        }
    }

    static func expectRedacted(_ error: ProviderError?, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let description = error.map(String.init(describing:)) ?? ""
        #expect(!description.isEmpty, sourceLocation: sourceLocation)
        #expect(!description.contains(Fixture.apiKey), "\(description)", sourceLocation: sourceLocation)
        #expect(!description.contains("1234567890"), "\(description)", sourceLocation: sourceLocation)
        #expect(description.contains("[redacted]"), "\(description)", sourceLocation: sourceLocation)
    }

    @Test("an error message echoing the key is redacted", arguments: ProviderKind.allCases)
    func echoedKey(provider: ProviderKind) async throws {
        let server = try LoopbackServer(answering: Self.echoes(provider))
        let error = await #expect(throws: ProviderError.self) {
            try await server.provider(provider).complete(Fixture.request())
        }
        #expect(error?.kind == .authentication)
        #expect(error?.message.hasPrefix("Incorrect API key provided: [redacted].") == true)
        Self.expectRedacted(error)
        // The key did go out, in the header each API expects.
        let sent = server.lastRequest?.headers.map(\.value) ?? []
        #expect(sent.contains { $0.contains(Fixture.apiKey) })
        #expect(server.lastRequest?.target.contains(Fixture.apiKey) == false)
    }

    @Test("a 200 page echoing the key is redacted", arguments: ProviderKind.allCases)
    func echoedInPage(provider: ProviderKind) async throws {
        let server = try LoopbackServer(answering: .html("<html><body>Bad key \(Fixture.apiKey)</body></html>"))
        let error = await #expect(throws: ProviderError.self) {
            try await server.provider(provider).complete(Fixture.request())
        }
        #expect(error?.kind == .badResponse)
        Self.expectRedacted(error)
    }

    @Test("a malformed 200 echoing the key is redacted", arguments: ProviderKind.allCases)
    func echoedInMalformedJSON(provider: ProviderKind) async throws {
        let server = try LoopbackServer(answering: .json(#"{"note": "key \#(Fixture.apiKey) accepted"}"#))
        let error = await #expect(throws: ProviderError.self) {
            try await server.provider(provider).complete(Fixture.request())
        }
        #expect(error?.kind == .badResponse)
        Self.expectRedacted(error)
    }

    @Test func aServerErrorWithoutJSONEchoingTheKeyIsRedacted() async throws {
        let server = try LoopbackServer(answering: .text("proxy rejected Authorization: Bearer \(Fixture.apiKey)", status: 502))
        let error = await #expect(throws: ProviderError.self) {
            try await server.openAI().complete(Fixture.request())
        }
        #expect(error?.kind == .serverError)
        #expect(error?.message == "proxy rejected Authorization: Bearer [redacted]")
        Self.expectRedacted(error)
    }
}
