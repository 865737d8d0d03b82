/// The outcome of validating one instance document against a schema: the
/// validation result, or why the document could not be parsed or read.
public struct InstanceResult: Sendable, Hashable {
    /// What became of the document.
    public enum Outcome: Sendable, Hashable {
        /// The document parsed and was validated.
        case validated(ValidationResult)
        /// The document is not valid JSON.
        case unparseable(JSONParseError)
        /// The file could not be read.
        case unreadable(String)
    }

    /// The path exactly as given (`-` for standard input).
    public let path: String
    public let outcome: Outcome

    public init(path: String, outcome: Outcome) {
        self.path = path
        self.outcome = outcome
    }

    /// Validates the document in `bytes` (strict JSON) against `schema`.
    public init(path: String, bytes: [UInt8], schema: Schema) {
        self.path = path
        do {
            let instance = try JSONParser.parse(bytes)
            // The fast check first: most documents are valid and need no messages.
            outcome = .validated(schema.isValid(instance) ? ValidationResult(errors: []) : schema.validate(instance))
        } catch let error as JSONParseError {
            outcome = .unparseable(error)
        } catch {
            outcome = .unreadable("\(error)")
        }
    }

    /// Reads the file at `path` and validates it against `schema`; a file that
    /// cannot be read is reported as such.
    public init(path: String, schema: Schema) {
        do {
            self.init(path: path, bytes: try FileContents.bytes(of: path), schema: schema)
        } catch {
            self.init(path: path, outcome: .unreadable(error.reason))
        }
    }

    /// Valid, invalid, or not readable or parsable.
    public enum Verdict: Sendable, Hashable {
        case valid, invalid, badInput
    }

    public var verdict: Verdict {
        switch outcome {
        case .validated(let result): return result.isValid ? .valid : .invalid
        case .unparseable, .unreadable: return .badInput
        }
    }

    public var isValid: Bool {
        if case .validated(let result) = outcome { return result.isValid }
        return false
    }

    /// True when the document could not be read or parsed.
    public var isBadInput: Bool {
        if case .validated = outcome { return false }
        return true
    }
}
