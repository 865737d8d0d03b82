import JSONSchema

/// Finds the JSON value in a model's reply (bare, fenced, or wrapped in prose).
enum OutputExtraction {
    static func extract(from reply: String) -> Result<JSONValue, ExtractionError> {
        JSONExtractor.extract(from: reply).map(\.value)
    }
}
