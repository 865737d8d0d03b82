/// Why a provider call failed, classified so runs can report and retry by kind.
public struct ProviderError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Codable, Hashable, Sendable {
        /// The API key's environment variable is not set.
        case missingAPIKey = "missing-api-key"
        /// HTTP 429.
        case rateLimited = "rate-limited"
        /// HTTP 500-599.
        case serverError = "server-error"
        /// No complete response within the deadline.
        case timeout
        /// The connection broke: reset, closed before the whole answer, nothing received.
        case connectionFailed = "connection-failed"
        /// No connection could be made at all: refused, no route, a name that does not
        /// resolve. A run stops after the first call's retries instead of trying every step.
        case unreachable
        /// HTTP 401 or 403: the key is wrong or lacks access.
        case authentication
        /// Another HTTP 4xx: the API refused the request as sent.
        case requestRejected = "request-rejected"
        /// A 2xx answer that is not the API's response shape (HTML page, truncated JSON, no choices).
        case badResponse = "bad-response"
        case cancelled
        /// The run's budget of calls or tokens is spent.
        case budgetExhausted = "budget-exhausted"
        /// Replay found no recording for the fixture step.
        case missingRecording = "missing-recording"
        /// Replay found a recording, but the request differs from the recorded one.
        case staleRecording = "stale-recording"
        /// Replay found a recording it cannot read (broken JSON, a missing field): bad input.
        case unreadableRecording = "unreadable-recording"
        /// The provider has no answer to give to a repair: replay, when the recorded
        /// conversation stopped before it. The step ends with the reply it has.
        case repairDeclined = "repair-declined"
    }

    public var kind: Kind
    /// The provider kind, e.g. `anthropic`.
    public var provider: String
    public var status: Int?
    /// What happened, in the API's words when it gave any. Never contains the API key.
    public var message: String
    /// Seconds the server asked to wait before retrying (`Retry-After`).
    public var retryAfter: Double?
    /// Tries made before giving up on this error.
    public var retries: Int = 0
    /// What the one-line `message` summarises, over several lines: for a stale
    /// recording, the diff of the recorded request against the current one.
    public var detail: String?
    /// For a stale recording, the parts of the request that changed, each naming its
    /// file (`prompt template (prompts/goal-options/user.mustache)`), so runs can group
    /// the steps one edit made stale.
    public var causes: [String] = []

    public init(
        kind: Kind, provider: String, status: Int? = nil, message: String, retryAfter: Double? = nil, retries: Int = 0,
        detail: String? = nil, causes: [String] = []
    ) {
        self.kind = kind
        self.provider = provider
        self.status = status
        self.message = message
        self.retryAfter = retryAfter
        self.retries = retries
        self.detail = detail
        self.causes = causes
    }

    /// Rate limits, server errors, timeouts and dropped connections may succeed on a retry.
    public var isRetryable: Bool {
        [.rateLimited, .serverError, .timeout, .connectionFailed, .unreachable].contains(kind)
    }

    public var description: String {
        let status = status.map { " (HTTP \($0))" } ?? ""
        let tries = retries > 0 ? " after \(retries + 1) tries" : ""
        return "\(provider): \(kind.rawValue)\(status)\(tries): \(message)"
    }
}
