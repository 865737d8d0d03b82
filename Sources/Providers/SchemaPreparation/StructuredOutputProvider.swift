import JSONSchema

/// A model provider's structured-output mode, whose schema dialect is a subset
/// of JSON Schema.
public enum StructuredOutputProvider: String, CaseIterable, Sendable {
    /// OpenAI Structured Outputs (`strict: true`).
    case openai
    /// Anthropic strict tool use (`strict: true` on the tool).
    case anthropic
    /// Google Gemini structured output (`responseJsonSchema`).
    case gemini
    /// llama.cpp's grammar-constrained decoding from a JSON Schema, as llama-cpp-python
    /// serves it for `{"type": "json_object", "schema": ...}`; judged on the schema as
    /// this project sends it (see `LlamaGrammarSchema`).
    case llamaCppGrammar = "llama-cpp"
}

/// How this project prepares a schema for llama.cpp's grammar: shared by the request
/// (which applies it) and the compatibility rules (which judge what it leaves unenforced).
public enum LlamaGrammarSchema {
    /// Longer `minLength`/`maxLength` bounds are not sent: llama.cpp refuses bounds over
    /// 2,000 (and llama-cpp-python then crashes), and long bounded strings make slow grammars.
    public static let lengthLimit = 1000
    /// An integer range with fewer values than this is also sent as an `enum`.
    public static let enumLimit = 400

    /// Whether a `minLength`/`maxLength` value stays in the schema sent to the grammar.
    public static func keepsLength(_ value: JSONValue) -> Bool {
        value.intValue.map { $0 <= lengthLimit } ?? false
    }

    /// The values an integer schema's range is spelled out as, when it is small enough
    /// and has no `enum` already; nil otherwise.
    public static func spelledOutRange(of schema: JSONObject) -> ClosedRange<Int>? {
        guard schema["type"] == "integer", schema["enum"] == nil,
              let low = schema["minimum"]?.intValue, let high = schema["maximum"]?.intValue,
              low <= high, high - low < enumLimit
        else { return nil }
        return low...high
    }
}

/// One thing in a schema that a provider's structured-output mode will not honour.
public struct CompatibilityIssue: Hashable, Sendable, CustomStringConvertible {
    /// What the provider does with it.
    public enum Severity: String, Hashable, Sendable {
        /// The request is refused: the schema must change.
        case rejected
        /// Accepted but not enforced: the output may break the rule.
        case ignored
    }

    /// The schema location (JSON Pointer into the schema document).
    public let location: JSONPointer
    public let keyword: String
    public let severity: Severity
    /// One line saying what is wrong and what to do.
    public let message: String

    public init(location: JSONPointer, keyword: String, severity: Severity, message: String) {
        self.location = location
        self.keyword = keyword
        self.severity = severity
        self.message = message
    }

    /// `/properties/age/minimum: rejected: ...`
    public var description: String {
        let place = location.isRoot ? "(root)" : location.description
        return "\(place): \(severity.rawValue): \(message)"
    }
}
