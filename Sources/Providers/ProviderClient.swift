import Foundation
import JSONSchema

/// The HTTP plumbing every API provider shares: send a JSON body, time it,
/// classify failures, and keep the API key out of every message.
struct ProviderClient: Sendable {
    let provider: String
    let transport: any HTTPTransport
    /// The API key, if any: scrubbed from any text that leaves this type.
    let secret: String?

    /// Posts `body` as JSON and returns the parsed JSON answer with the elapsed time.
    func post(url: URL, headers: [String: String], body: JSONValue) async throws -> (json: JSONValue, latency: Double) {
        var allHeaders = headers
        allHeaders["Content-Type"] = "application/json"
        let request = HTTPRequest(url: url, headers: allHeaders, body: Data(body.serialized().utf8))
        let started = DispatchTime.now().uptimeNanoseconds
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch let error as TransportError {
            throw providerError(from: error)
        } catch is CancellationError {
            throw ProviderError(kind: .cancelled, provider: provider, message: "The request was cancelled.")
        }
        let latency = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        guard (200..<300).contains(response.status) else { throw httpError(response) }
        do {
            return (try JSONParser.parse(response.body, options: .lenient), latency)
        } catch let error as JSONParseError {
            throw ProviderError(
                kind: .badResponse, provider: provider, status: response.status,
                message: "the response body is not JSON (\(error.reason)); it starts: \(excerpt(response.body))")
        }
    }

    /// A `badResponse` error for a JSON answer that lacks what the API promises.
    func malformed(_ what: String, in json: JSONValue) -> ProviderError {
        ProviderError(kind: .badResponse, provider: provider, status: 200, message: "\(what); the response was: \(redact(json.preview(limit: 300)))")
    }

    private func httpError(_ response: HTTPResponse) -> ProviderError {
        let json = try? JSONParser.parse(response.body, options: .lenient)
        let apiMessage = json.flatMap { $0["error"]?["message"]?.stringValue ?? $0["message"]?.stringValue }
        let message = redact(apiMessage ?? excerpt(response.body))
        let kind: ProviderError.Kind
        switch response.status {
        case 429: kind = .rateLimited
        case 401, 403: kind = .authentication
        // Gemini answers an invalid key with 400 and reason API_KEY_INVALID.
        case 400 where json?["error"]?["details"]?.arrayValue?.contains { $0["reason"] == "API_KEY_INVALID" } == true:
            kind = .authentication
        case 500...599: kind = .serverError
        default: kind = .requestRejected
        }
        return ProviderError(
            kind: kind, provider: provider, status: response.status, message: message,
            retryAfter: response.headers["retry-after"].flatMap(Self.parseRetryAfter) ?? json.flatMap(Self.retryDelay(in:)))
    }

    private func providerError(from error: TransportError) -> ProviderError {
        switch error {
        case .timedOut: return ProviderError(kind: .timeout, provider: provider, message: error.description)
        case .cancelled: return ProviderError(kind: .cancelled, provider: provider, message: error.description)
        case .connectionFailed:
            return ProviderError(kind: .connectionFailed, provider: provider, message: redact(error.description))
        case .unreachable:
            return ProviderError(kind: .unreachable, provider: provider, message: redact(error.description))
        }
    }

    /// The first few hundred characters of a body, on one line.
    private func excerpt(_ body: Data) -> String {
        let text = String(decoding: body.prefix(300), as: UTF8.self)
            .replacingOccurrences(of: "\r\n", with: " ")
            .replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "\r", with: " ")
            .trimmingCharacters(in: .whitespaces)
        return redact(text.isEmpty ? "(empty body)" : text + (body.count > 300 ? "…" : ""))
    }

    func redact(_ text: String) -> String {
        guard let secret, secret.count >= 4 else { return text }
        return text.replacingOccurrences(of: secret, with: "[redacted]")
    }

    /// Gemini's delay, sent in the body instead of `Retry-After`:
    /// `{"error": {"details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "17s"}]}}`.
    static func retryDelay(in json: JSONValue) -> Double? {
        for detail in json["error"]?["details"]?.arrayValue ?? []
        where detail["@type"]?.stringValue?.hasSuffix("google.rpc.RetryInfo") == true {
            if let text = detail["retryDelay"]?.stringValue, text.hasSuffix("s"), let seconds = Double(text.dropLast()) {
                return max(0, seconds)
            }
        }
        return nil
    }

    /// `Retry-After` as seconds: either a number or an HTTP date.
    static func parseRetryAfter(_ value: String) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed) { return max(0, seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: trimmed).map { max(0, $0.timeIntervalSinceNow) }
    }
}
