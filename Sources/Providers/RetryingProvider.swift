import Foundation

/// When and how long to wait before trying a failed call again.
public struct RetryPolicy: Sendable, Hashable {
    /// Retries after the first try (0 turns retrying off).
    public var maxRetries: Int
    /// The first backoff, doubled on each retry.
    public var baseDelay: Double
    /// No wait is longer than this, whatever the server asks.
    public var maxDelay: Double

    public init(maxRetries: Int = 3, baseDelay: Double = 1, maxDelay: Double = 60) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// The wait before retry number `retry` (1-based): the server's `Retry-After` when it
    /// gave one, otherwise exponential backoff with full jitter in its upper half.
    public func delay(beforeRetry retry: Int, retryAfter: Double?, random: Double) -> Double {
        if let retryAfter { return min(maxDelay, retryAfter) }
        let backoff = min(maxDelay, baseDelay * pow(2, Double(retry - 1)))
        return backoff * (0.5 + 0.5 * random)
    }
}

/// Retries rate limits (429), server errors (5xx), timeouts and dropped connections,
/// honouring `Retry-After`. Other failures (bad key, rejected request) return at once.
public struct RetryingProvider: ModelProvider {
    public let base: any ModelProvider
    public let policy: RetryPolicy
    /// Waits the given number of seconds; tests pass one that records instead.
    let sleep: @Sendable (Double) async throws -> Void
    public var kind: String { base.kind }
    public var model: String { base.model }

    public init(
        _ base: any ModelProvider, policy: RetryPolicy = RetryPolicy(),
        sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(nanoseconds: UInt64($0 * 1e9)) }
    ) {
        self.base = base
        self.policy = policy
        self.sleep = sleep
    }

    public func complete(_ request: CompletionRequest) async throws -> CompletionResponse {
        var retry = 0
        while true {
            do {
                var response = try await base.complete(request)
                response.retries = retry
                return response
            } catch var error as ProviderError {
                error.retries = retry
                guard error.isRetryable, retry < policy.maxRetries, !Task.isCancelled else { throw error }
                retry += 1
                do {
                    try await sleep(policy.delay(beforeRetry: retry, retryAfter: error.retryAfter, random: Double.random(in: 0...1)))
                } catch {
                    throw ProviderError(kind: .cancelled, provider: kind, message: "stopped while waiting to retry", retries: retry)
                }
            }
        }
    }
}
