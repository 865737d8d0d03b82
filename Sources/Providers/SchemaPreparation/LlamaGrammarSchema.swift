import JSONSchema

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
