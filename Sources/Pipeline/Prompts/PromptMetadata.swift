/// A step's `prompt.yaml`: how its prompt is versioned and called.
public struct PromptMetadata: Codable, Hashable, Sendable {
    /// Bumped by the prompt engineer on every meaningful change.
    public var version: Int
    public var description: String?
    /// The output schema's file name in `prompts/schemas/`.
    public var schema: String
    public var temperature: Double
    public var maxTokens: Int
    public var seed: Int?

    public init(version: Int, description: String? = nil, schema: String, temperature: Double, maxTokens: Int, seed: Int? = nil) {
        self.version = version
        self.description = description
        self.schema = schema
        self.temperature = temperature
        self.maxTokens = maxTokens
        self.seed = seed
    }

    /// The keys `prompt.yaml` may use.
    static let keys = ["version", "description", "schema", "temperature", "max_tokens", "seed"]
}
