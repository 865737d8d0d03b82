import Foundation

/// Caps a run's spending: at most `maxCalls` calls and `maxTokens` tokens (input plus
/// output) across every fixture. A call is refused once either is spent; calls already
/// in flight may finish past the token cap, since a reply's size is known only after it.
public final class BudgetedProvider: ModelProvider, @unchecked Sendable {
    public let base: any ModelProvider
    public let maxCalls: Int?
    public let maxTokens: Int?
    public var kind: String { base.kind }
    public var model: String { base.model }

    private let lock = NSLock()
    private var calls = 0
    private var tokens = 0

    public init(_ base: any ModelProvider, maxCalls: Int?, maxTokens: Int?) {
        self.base = base
        self.maxCalls = maxCalls
        self.maxTokens = maxTokens
    }

    /// Calls started and tokens used so far.
    public var spent: (calls: Int, tokens: Int) { lock.withLock { (calls, tokens) } }

    public func complete(_ request: CompletionRequest) async throws -> CompletionResponse {
        let refusal: String? = lock.withLock {
            if let maxCalls, calls >= maxCalls { return "the run's budget of \(maxCalls) calls is spent" }
            if let maxTokens, tokens >= maxTokens { return "the run's budget of \(maxTokens) tokens is spent (\(tokens) used)" }
            calls += 1
            return nil
        }
        if let refusal {
            throw ProviderError(kind: .budgetExhausted, provider: kind, message: refusal + "; raise --max-calls or --max-tokens")
        }
        let response = try await base.complete(request)
        lock.withLock { tokens += response.usage.total }
        return response
    }
}
