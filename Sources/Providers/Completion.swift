import JSONSchema

/// One chat turn sent to a model.
public struct ChatMessage: Codable, Hashable, Sendable {
    public enum Role: String, Codable, Hashable, Sendable {
        case user
        case assistant
    }

    public var role: Role
    public var content: String

    public init(role: Role, content: String) {
        self.role = role
        self.content = content
    }
}

/// Everything a provider needs for one call, independent of any API's wire format.
public struct CompletionRequest: Codable, Hashable, Sendable {
    public var system: String
    public var messages: [ChatMessage]
    /// The JSON Schema the reply must satisfy, when the step wants structured output.
    public var responseSchema: JSONValue?
    /// A short identifier for the schema (OpenAI's `json_schema.name`, Anthropic's tool name).
    public var schemaName: String
    public var temperature: Double
    public var maxTokens: Int
    public var seed: Int?
    /// The reply is asked for as minified JSON (`compact_json` in `prompt.yaml`); only
    /// a grammar-constrained local model is held to it.
    public var compactJSON: Bool
    /// Which fixture and step the call belongs to: used to file recordings, never part of the request.
    public var context: CallContext?

    public init(
        system: String, messages: [ChatMessage], responseSchema: JSONValue? = nil, schemaName: String = "output",
        temperature: Double = 0, maxTokens: Int = 1024, seed: Int? = nil, compactJSON: Bool = false,
        context: CallContext? = nil
    ) {
        self.system = system
        self.messages = messages
        self.responseSchema = responseSchema
        self.schemaName = schemaName
        self.temperature = temperature
        self.maxTokens = maxTokens
        self.seed = seed
        self.compactJSON = compactJSON
        self.context = context
    }
}

/// The fixture and step a call is made for.
public struct CallContext: Codable, Hashable, Sendable {
    public var fixture: String
    /// The step's id within the fixture, e.g. `goal-options-edit-2`.
    public var step: String
    /// Hashes of the parts the request was built from, by name (`template`, `record`...).
    public var provenance: [String: String]
    /// 0 for the step's first call, then 1, 2... for each repair that follows it.
    public var repair: Int
    /// Which run of the step this is under `run --repeat N`: 1...N. Each repeat is its
    /// own call and has its own recording; never part of the request itself.
    public var repeatNumber: Int

    public init(fixture: String, step: String, provenance: [String: String] = [:], repair: Int = 0, repeatNumber: Int = 1) {
        self.fixture = fixture
        self.step = step
        self.provenance = provenance
        self.repair = repair
        self.repeatNumber = repeatNumber
    }
}

/// Tokens a call consumed, as the provider reported them.
public struct TokenUsage: Codable, Hashable, Sendable {
    public var input: Int
    /// Every billed output token, thinking included.
    public var output: Int
    /// The part of `output` the model spent thinking before it answered (Gemini's
    /// `thoughtsTokenCount`, OpenAI's `reasoning_tokens`); 0 when none is reported.
    public var reasoning: Int

    public init(input: Int = 0, output: Int = 0, reasoning: Int = 0) {
        self.input = input
        self.output = output
        self.reasoning = reasoning
    }

    public var total: Int { input + output }

    public static func + (lhs: TokenUsage, rhs: TokenUsage) -> TokenUsage {
        TokenUsage(input: lhs.input + rhs.input, output: lhs.output + rhs.output, reasoning: lhs.reasoning + rhs.reasoning)
    }

    private enum CodingKeys: String, CodingKey {
        case input, output, reasoning
    }

    // `reasoning` is written only when there is some, so recordings and results of
    // models that do not think read and write exactly as before it existed.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        input = try container.decode(Int.self, forKey: .input)
        output = try container.decode(Int.self, forKey: .output)
        reasoning = try container.decodeIfPresent(Int.self, forKey: .reasoning) ?? 0
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(input, forKey: .input)
        try container.encode(output, forKey: .output)
        if reasoning > 0 { try container.encode(reasoning, forKey: .reasoning) }
    }
}

extension TokenUsage: JSONValueReadable {
    /// The members `Decodable` reads: a large run reads every attempt's usage back from its step cache.
    public init?(json: JSONValue) {
        guard let input = json["input"]?.intValue, let output = json["output"]?.intValue else { return nil }
        let reasoning = json["reasoning"]
        guard reasoning == nil || reasoning == .null || reasoning?.intValue != nil else { return nil }
        self.init(input: input, output: output, reasoning: reasoning?.intValue ?? 0)
    }
}

/// A model's reply with what it cost.
public struct CompletionResponse: Codable, Hashable, Sendable {
    /// The reply text; for tool-based structured output, the tool input as JSON text.
    public var text: String
    /// The provider's own words for why generation stopped (`stop`, `length`, `end_turn`, `MAX_TOKENS`...).
    public var finishReason: String?
    public var usage: TokenUsage
    /// Wall time of the HTTP exchange, in seconds.
    public var latency: Double
    /// The model that answered, as the provider named it.
    public var model: String?
    /// The response body as received, for recording.
    public var rawBody: JSONValue?
    /// Failed tries before this response (rate limits, server errors, dropped connections).
    public var retries: Int = 0

    public init(
        text: String, finishReason: String? = nil, usage: TokenUsage = .init(), latency: Double = 0,
        model: String? = nil, rawBody: JSONValue? = nil
    ) {
        self.text = text
        self.finishReason = finishReason
        self.usage = usage
        self.latency = latency
        self.model = model
        self.rawBody = rawBody
    }

    /// True when the provider says it stopped because it ran out of tokens.
    public var wasCutOff: Bool {
        guard let finishReason else { return false }
        return ["length", "max_tokens", "MAX_TOKENS"].contains(finishReason)
    }
}

/// A source of completions: a real API, or recorded responses.
public protocol ModelProvider: Sendable {
    /// The provider's kind, e.g. `openai-compatible`.
    var kind: String { get }
    /// The model requests go to.
    var model: String { get }
    /// The model behind the answers, for reports: for a replay, the models the recordings came from.
    var answeringModel: String { get }
    /// True when answers come back at once, with no model to wait on (a replay): the
    /// work around each call is then not worth moving off the cooperative pool.
    var answersAtOnce: Bool { get }
    func complete(_ request: CompletionRequest) async throws -> CompletionResponse
    /// What one step's calls would be answered from when the answers are fixed in
    /// advance (a replay's recording), so a run may reuse what it concluded from the
    /// very same answers before. Nil for a live model, or when nothing would answer.
    func fixedAnswers(for context: CallContext) -> FixedAnswers?
    /// Says that a step was concluded from its `fixedAnswers` without calling: the
    /// answers were served all the same (a replay names their model in reports).
    func reused(_ answers: FixedAnswers)
}

extension ModelProvider {
    public var answeringModel: String { model }
    public var answersAtOnce: Bool { false }
    public func fixedAnswers(for context: CallContext) -> FixedAnswers? { nil }
    public func reused(_ answers: FixedAnswers) {}
}

/// The answers a step's calls would get, fixed in advance: a digest of exactly what
/// would answer (a recording's bytes, the repeat), and who answered it.
public struct FixedAnswers: Hashable, Sendable {
    /// Changes whenever anything that would answer changes.
    public var digest: String
    /// The provider and model the answers came from, as reports name them.
    public var source: String

    public init(digest: String, source: String) {
        self.digest = digest
        self.source = source
    }
}
