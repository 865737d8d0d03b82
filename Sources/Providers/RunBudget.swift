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

/// A cap in US dollars on a run's spending, with the model's price per million tokens.
public struct CostCap: Sendable, Hashable {
    public var dollars: Double
    public var inputPerMillion: Double
    public var outputPerMillion: Double

    public init(dollars: Double, inputPerMillion: Double, outputPerMillion: Double) {
        self.dollars = dollars
        self.inputPerMillion = inputPerMillion
        self.outputPerMillion = outputPerMillion
    }

    /// What `usage` costs in US dollars; thinking tokens are part of `usage.output`.
    public func cost(of usage: TokenUsage) -> Double {
        (Double(usage.input) * inputPerMillion + Double(usage.output) * outputPerMillion) / 1_000_000
    }
}
