import JSONSchema

/// Finds the JSON value in a model's reply.
enum OutputExtraction {
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    static func extract(from reply: String) -> Result<JSONValue, Problem> {
        do {
            return .success(try JSONParser.parse(reply, options: .lenient))
        } catch {
            return .failure(Problem(description: "\(error)"))
        }
    }
}
