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
