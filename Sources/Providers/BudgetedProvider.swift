import Foundation

/// Holds a run to its `RunBudget` across every fixture: a call is refused (a
/// `budgetExhausted` error) once calls, tokens, minutes or dollars are spent. Calls
/// already in flight finish, so tokens and cost may end past their cap: a reply's
/// size is known only after it.
public final class BudgetedProvider: ModelProvider, @unchecked Sendable {
    public let base: any ModelProvider
    public let budget: RunBudget
    public var kind: String { base.kind }
    public var model: String { base.model }

    private let startedAt: ContinuousClock.Instant
    private let lock = NSLock()
    private var calls = 0
    private var tokens = 0
    private var cost = 0.0

    /// The wall-time budget counts from now.
    public init(_ base: any ModelProvider, budget: RunBudget) {
        self.base = base
        self.budget = budget
        startedAt = .now
    }

    /// Calls started, tokens used and dollars spent so far (the spending is 0 without a cost cap).
    public var spent: (calls: Int, tokens: Int, dollars: Double) { lock.withLock { (calls, tokens, cost) } }

    public func complete(_ request: CompletionRequest) async throws -> CompletionResponse {
        let refusal: String? = lock.withLock {
            if let reason = spentBudget() { return reason }
            calls += 1
            return nil
        }
        if let refusal {
            throw ProviderError(kind: .budgetExhausted, provider: kind, message: refusal)
        }
        let response = try await base.complete(request)
        lock.withLock {
            tokens += response.usage.total
            if let cap = budget.maxCost { cost += cap.cost(of: response.usage) }
        }
        return response
    }

    /// Which budget is spent, said as the steps it stops are noted; nil while every one lasts.
    private func spentBudget() -> String? {
        if let maxCalls = budget.maxCalls, calls >= maxCalls {
            return "the run's budget of \(maxCalls) call\(maxCalls == 1 ? "" : "s") (--max-calls) is spent"
        }
        if let maxTokens = budget.maxTokens, tokens >= maxTokens {
            return "the run's budget of \(maxTokens) tokens (--max-tokens) is spent (\(tokens) used)"
        }
        if let maxMinutes = budget.maxMinutes, startedAt.duration(to: .now) >= .milliseconds(Int64(maxMinutes * 60_000)) {
            return "the run's time budget of \(Self.number(maxMinutes)) minute\(maxMinutes == 1 ? "" : "s") (--max-minutes) is spent"
        }
        if let cap = budget.maxCost, cost >= cap.dollars {
            return "the run's cost budget of $\(Self.number(cap.dollars)) (--max-cost) is spent ($\(String(format: "%.6f", cost)) so far)"
        }
        return nil
    }

    /// `0.02`, `5`: a budget as the user wrote it, in plain decimals without trailing zeros.
    private static func number(_ value: Double) -> String {
        var text = String(format: "%.10f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
