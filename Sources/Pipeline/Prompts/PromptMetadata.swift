import Diff
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
    /// How this step's outputs are compared with golden; not part of the request.
    public var golden: GoldenComparisonSettings
    /// Where a program step's markdown comes from; nil is `.model`.
    public var markdown: MarkdownSource?
    /// The program schema sent is fitted to the person's intake (`prompts/intake-limits.yaml`).
    public var schemaFromIntake: Bool?

    public init(
        version: Int, description: String? = nil, schema: String, temperature: Double, maxTokens: Int, seed: Int? = nil,
        golden: GoldenComparisonSettings = .standard, markdown: MarkdownSource? = nil, schemaFromIntake: Bool? = nil
    ) {
        self.version = version
        self.description = description
        self.schema = schema
        self.temperature = temperature
        self.maxTokens = maxTokens
        self.seed = seed
        self.golden = golden
        self.markdown = markdown
        self.schemaFromIntake = schemaFromIntake
    }

    /// The keys `prompt.yaml` may use.
    static let keys = ["version", "description", "schema", "temperature", "max_tokens", "seed", "golden", "markdown", "schema_from_intake"]

    /// The markdown is rendered from the program's JSON rather than written by the model.
    public var rendersMarkdown: Bool { markdown == .rendered }
}

/// `markdown:` in a program step's `prompt.yaml`: the model writes `program_markdown`
/// beside `program_json`, or the harness renders it from the JSON (`ProgramMarkdown`).
public enum MarkdownSource: String, Codable, Hashable, Sendable, CaseIterable {
    case model
    case rendered
}

/// The `golden:` block of a `prompt.yaml`: what the structural diff treats as the
/// same array element and the same number when it compares an output with golden.
public struct GoldenComparisonSettings: Codable, Hashable, Sendable {
    /// Keys that identify the elements of an array of objects, tried in order: an
    /// array is matched by the first key every element has, with unique values.
    public var arrayKeys: [String]
    /// Numbers whose absolute difference is at most this count as equal.
    public var numericTolerance: Double

    public init(arrayKeys: [String], numericTolerance: Double) {
        self.arrayKeys = arrayKeys
        self.numericTolerance = numericTolerance
    }

    /// Without a `golden:` block: the keys of the pipeline's outputs, exact numbers.
    public static let standard = GoldenComparisonSettings(
        arrayKeys: JSONDiff.Options().arrayKeys, numericTolerance: JSONDiff.Options().numericTolerance)

    /// The keys the `golden:` block may use.
    static let keys = ["array_keys", "numeric_tolerance"]
}
