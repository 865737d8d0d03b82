import Foundation
import JSONSchema
import Providers
import TestSupport
import Testing

/// Each API's real error bodies, and how they are classified.
@Suite("API error shapes")
struct ProviderErrorShapeTests {
    struct ErrorCase: Sendable, CustomTestStringConvertible {
        let provider: ProviderKind
        let status: Int
        let body: String
        let headers: [String: String]
        let kind: ProviderError.Kind
        let message: String
        let retryAfter: Double?

        init(
            _ provider: ProviderKind, _ status: Int, _ body: String, headers: [String: String] = [:],
            _ kind: ProviderError.Kind, message: String, retryAfter: Double? = nil
        ) {
            self.provider = provider
            self.status = status
            self.body = body
            self.headers = headers
            self.kind = kind
            self.message = message
            self.retryAfter = retryAfter
        }

        var testDescription: String { "\(provider.rawValue) \(status) → \(kind.rawValue)" }
    }

    static let cases: [ErrorCase] = [
        // OpenAI
        ErrorCase(.openAI, 400, OpenAIBodies.error(
            "Invalid schema for response_format 'goal_options': In context=(), 'additionalProperties' is required to be supplied and to be false.",
            type: "invalid_request_error", param: "response_format"),
            .requestRejected, message: "Invalid schema for response_format 'goal_options': In context=(), 'additionalProperties' is required to be supplied and to be false."),
        ErrorCase(.openAI, 404, OpenAIBodies.error(
            "The model `gpt-9` does not exist or you do not have access to it.", type: "invalid_request_error", code: "model_not_found"),
            .requestRejected, message: "The model `gpt-9` does not exist or you do not have access to it."),
        ErrorCase(.openAI, 429, OpenAIBodies.error(
            "Rate limit reached for gpt-4.1-mini in organization org-abc on tokens per min (TPM): Limit 200000, Used 199500, Requested 1200. Please try again in 7s.",
            type: "tokens", code: "rate_limit_exceeded"),
            headers: ["Retry-After": "7", "x-ratelimit-remaining-tokens": "500"],
            .rateLimited, message: "Rate limit reached for gpt-4.1-mini in organization org-abc on tokens per min (TPM): Limit 200000, Used 199500, Requested 1200. Please try again in 7s.",
            retryAfter: 7),
        ErrorCase(.openAI, 429, OpenAIBodies.error(
            "You exceeded your current quota, please check your plan and billing details.", type: "insufficient_quota", code: "insufficient_quota"),
            .rateLimited, message: "You exceeded your current quota, please check your plan and billing details."),
        ErrorCase(.openAI, 500, OpenAIBodies.error(
            "The server had an error while processing your request. Sorry about that!", type: "server_error"),
            .serverError, message: "The server had an error while processing your request. Sorry about that!"),
        ErrorCase(.openAI, 503, OpenAIBodies.error(
            "The engine is currently overloaded, please try again later", type: "server_error"),
            headers: ["Retry-After": "2"],
            .serverError, message: "The engine is currently overloaded, please try again later", retryAfter: 2),
        ErrorCase(.openAI, 502, "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>cloudflare</center>\r\n</body>\r\n</html>\r\n",
            .serverError, message: "<head><title>502 Bad Gateway</title></head>"),
        // Anthropic
        ErrorCase(.anthropic, 529, AnthropicBodies.error("overloaded_error", "Overloaded"),
            .serverError, message: "Overloaded"),
        ErrorCase(.anthropic, 401, AnthropicBodies.error("authentication_error", "invalid x-api-key"),
            .authentication, message: "invalid x-api-key"),
        ErrorCase(.anthropic, 403, AnthropicBodies.error("permission_error", "Your API key does not have permission to use the specified resource."),
            .authentication, message: "Your API key does not have permission to use the specified resource."),
        ErrorCase(.anthropic, 400, AnthropicBodies.error("invalid_request_error", "tools.0.input_schema: JSON schema is invalid - please consult https://json-schema.org or our documentation at https://docs.anthropic.com/en/docs/tool-use"),
            .requestRejected, message: "tools.0.input_schema: JSON schema is invalid - please consult https://json-schema.org or our documentation at https://docs.anthropic.com/en/docs/tool-use"),
        ErrorCase(.anthropic, 413, AnthropicBodies.error("request_too_large", "Request exceeds the maximum allowed number of bytes."),
            .requestRejected, message: "Request exceeds the maximum allowed number of bytes."),
        ErrorCase(.anthropic, 429, AnthropicBodies.error("rate_limit_error", "This request would exceed the rate limit for your organization of 50 requests per minute."),
            headers: ["retry-after": "12", "anthropic-ratelimit-requests-remaining": "0"],
            .rateLimited, message: "This request would exceed the rate limit for your organization of 50 requests per minute.",
            retryAfter: 12),
        ErrorCase(.anthropic, 500, AnthropicBodies.error("api_error", "Internal server error"),
            .serverError, message: "Internal server error"),
        // Gemini
        ErrorCase(.gemini, 400, GeminiBodies.error(code: 400, status: "INVALID_ARGUMENT",
            "Invalid JSON payload received. Unknown name \"responseJsonSchema\" at 'generation_config': Cannot find field."),
            .requestRejected, message: "Invalid JSON payload received. Unknown name \"responseJsonSchema\" at 'generation_config': Cannot find field."),
        ErrorCase(.gemini, 403, GeminiBodies.error(code: 403, status: "PERMISSION_DENIED",
            "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API."),
            .authentication, message: "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API."),
        ErrorCase(.gemini, 404, GeminiBodies.error(code: 404, status: "NOT_FOUND",
            "models/gemini-9 is not found for API version v1beta, or is not supported for generateContent."),
            .requestRejected, message: "models/gemini-9 is not found for API version v1beta, or is not supported for generateContent."),
        ErrorCase(.gemini, 429, GeminiBodies.error(code: 429, status: "RESOURCE_EXHAUSTED",
            "You exceeded your current quota, please check your plan and billing details."),
            .rateLimited, message: "You exceeded your current quota, please check your plan and billing details."),
        ErrorCase(.gemini, 500, GeminiBodies.error(code: 500, status: "INTERNAL", "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting"),
            .serverError, message: "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting"),
        ErrorCase(.gemini, 503, GeminiBodies.error(code: 503, status: "UNAVAILABLE", "The model is overloaded. Please try again later."),
            .serverError, message: "The model is overloaded. Please try again later."),
    ]

    @Test("classifies the error", arguments: cases)
    func classifies(_ errorCase: ErrorCase) async throws {
        let server = try LoopbackServer(answering: .json(errorCase.body, status: errorCase.status, headers: errorCase.headers))
        let error = await #expect(throws: ProviderError.self) {
            try await server.provider(errorCase.provider).complete(Fixture.request())
        }
        #expect(server.requestCount == 1, "errors are not retried inside the provider")
        #expect(error?.kind == errorCase.kind)
        #expect(error?.provider == errorCase.provider.rawValue)
        #expect(error?.status == errorCase.status)
        #expect(error?.message.contains(errorCase.message) == true, "\(String(describing: error?.message))")
        #expect(error?.retryAfter == errorCase.retryAfter)
        #expect(error?.isRetryable == [.rateLimited, .serverError].contains(errorCase.kind))
        #expect(error?.description == "\(errorCase.provider.rawValue): \(errorCase.kind.rawValue) (HTTP \(errorCase.status)): \(error?.message ?? "")")
    }

    @Test func readsRetryAfterAsAnHTTPDate() async throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        // An hour ahead, so however long the call takes the date is still well in the future.
        let date = formatter.string(from: Date().addingTimeInterval(3600))
        let body = OpenAIBodies.error("Rate limit reached.", type: "requests", code: "rate_limit_exceeded")
        let server = try LoopbackServer(answering: .json(body, status: 429, headers: ["Retry-After": date]))
        let error = await #expect(throws: ProviderError.self) {
            try await server.openAI().complete(Fixture.request())
        }
        #expect(error?.kind == .rateLimited)
        let seconds = try #require(error?.retryAfter, "Retry-After: \(date) was not read")
        #expect(seconds > 3600 - Patience.seconds && seconds <= 3600, "Retry-After: \(date) read as \(seconds) s")
    }

    @Test("ignores an unreadable Retry-After", arguments: ["soon", "", "Tue, 99 Foo 2025"])
    func unreadableRetryAfter(value: String) async throws {
        let body = OpenAIBodies.error("Rate limit reached.", type: "requests")
        let server = try LoopbackServer(answering: .json(body, status: 429, headers: ["Retry-After": value]))
        let error = await #expect(throws: ProviderError.self) {
            try await server.openAI().complete(Fixture.request())
        }
        #expect(error?.kind == .rateLimited)
        #expect(error?.retryAfter == nil)
    }

    @Test func readsGeminiRetryDelayFromTheBody() async throws {
        // Gemini sends no Retry-After header: the delay is a google.rpc.RetryInfo detail.
        let details = #"[{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "17s"}]"#
        let body = GeminiBodies.error(code: 429, status: "RESOURCE_EXHAUSTED", "Quota exceeded.", details: details)
        let server = try LoopbackServer(answering: .json(body, status: 429))
        let error = await #expect(throws: ProviderError.self) {
            try await server.gemini().complete(Fixture.request())
        }
        #expect(error?.kind == .rateLimited)
        #expect(error?.retryAfter == 17)
    }

    @Test("an error body that is not JSON is quoted", arguments: ProviderKind.allCases)
    func nonJSONErrorBody(provider: ProviderKind) async throws {
        let server = try LoopbackServer(answering: .text("upstream connect error or disconnect/reset before headers. reset reason: overflow", status: 503))
        let error = await #expect(throws: ProviderError.self) {
            try await server.provider(provider).complete(Fixture.request())
        }
        #expect(error?.kind == .serverError)
        #expect(error?.message == "upstream connect error or disconnect/reset before headers. reset reason: overflow")
    }

    @Test func aCRLFErrorPageIsQuotedOnOneLine() async throws {
        let page = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>nginx</body>\r\n</html>\r\n"
        let server = try LoopbackServer(answering: .html(page, status: 502))
        let error = await #expect(throws: ProviderError.self) {
            try await server.openAI().complete(Fixture.request())
        }
        #expect(error?.message.contains("502 Bad Gateway") == true)
        #expect(error?.message.contains("\n") == false)
        #expect(error?.message.contains("\r") == false)
    }

    @Test func geminiSaysAnInvalidKeyWithA400() async throws {
        let details = #"[{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID", "domain": "googleapis.com"}]"#
        let body = GeminiBodies.error(code: 400, status: "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", details: details)
        let server = try LoopbackServer(answering: .json(body, status: 400))
        let error = await #expect(throws: ProviderError.self) {
            try await server.gemini().complete(Fixture.request())
        }
        #expect(error?.kind == .authentication)
        #expect(error?.status == 400)
    }

    @Test func anEmptyErrorBodyIsSaidToBeEmpty() async throws {
        let server = try LoopbackServer(answering: .status(500))
        let error = await #expect(throws: ProviderError.self) {
            try await server.anthropic().complete(Fixture.request())
        }
        #expect(error?.kind == .serverError)
        #expect(error?.message == "(empty body)")
    }
}
