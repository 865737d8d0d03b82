/// What a live run may spend before it stops starting model calls: calls, tokens
/// (input plus output), wall time since the run started, and US dollars. Nil is no limit.
public struct RunBudget: Sendable, Hashable {
    public var maxCalls: Int?
    public var maxTokens: Int?
    public var maxMinutes: Double?
    public var maxCost: CostCap?

    public init(maxCalls: Int? = nil, maxTokens: Int? = nil, maxMinutes: Double? = nil, maxCost: CostCap? = nil) {
        self.maxCalls = maxCalls
        self.maxTokens = maxTokens
        self.maxMinutes = maxMinutes
        self.maxCost = maxCost
    }

    /// True when nothing is limited.
    public var isUnlimited: Bool { maxCalls == nil && maxTokens == nil && maxMinutes == nil && maxCost == nil }
}

/// A model's price in US dollars per million tokens, and what a call's tokens cost at it.
public struct TokenPrice: Sendable, Hashable {
    public var input: Double
    public var output: Double

    public init(input: Double, output: Double) {
        self.input = input
        self.output = output
    }

    /// What `usage` costs in US dollars; thinking tokens are part of `usage.output`.
    public func cost(of usage: TokenUsage) -> Double {
        (Double(usage.input) * input + Double(usage.output) * output) / 1_000_000
    }
}

/// A cap in US dollars on a run's spending, with the model's price.
public struct CostCap: Sendable, Hashable {
    public var dollars: Double
    public var price: TokenPrice

    public init(dollars: Double, inputPerMillion: Double, outputPerMillion: Double) {
        self.dollars = dollars
        price = TokenPrice(input: inputPerMillion, output: outputPerMillion)
    }

    /// What `usage` costs in US dollars.
    public func cost(of usage: TokenUsage) -> Double { price.cost(of: usage) }
}
