import JSONSchema
/// A JSON value found in a model's reply.
public struct Extraction: Hashable, Sendable {
    /// Where in the reply the JSON was found.
    public enum Origin: String, Hashable, Sendable {
        /// A fenced code block (```json preferred).
        case fencedBlock
        /// The reply was the JSON, give or take surrounding white space.
        case wholeReply
        /// A balanced `{...}` or `[...]` inside prose.
        case embedded
    }

    public let value: JSONValue
    /// The JSON text as it appeared in the reply.
    public let text: String
    public let origin: Origin
    /// Where the JSON text starts in the reply.
    public let location: SourceLocation

    public init(value: JSONValue, text: String, origin: Origin, location: SourceLocation) {
        self.value = value
        self.text = text
        self.origin = origin
        self.location = location
    }
}

/// Why no JSON value could be taken from a reply.
public struct ExtractionError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// The reply has no JSON object or array at all.
        case noJSON
        /// The JSON stops before it is complete (the reply was cut off).
        case truncated(JSONParseError)
        /// The JSON is malformed.
        case invalid(JSONParseError)
    }

    public let kind: Kind
    /// Where the problem is, as line and column of the reply.
    public let location: SourceLocation?

    public init(kind: Kind, location: SourceLocation?) {
        self.kind = kind
        self.location = location
    }

    /// True when the reply was cut off in the middle of the JSON.
    public var isTruncated: Bool {
        if case .truncated = kind { return true }
        return false
    }

    /// The parser's error, when there was JSON to parse.
    public var parseError: JSONParseError? {
        switch kind {
        case .noJSON: return nil
        case .truncated(let error), .invalid(let error): return error
        }
    }

    public var description: String {
        let place = location.map { "line \($0.line), column \($0.column) of the reply: " } ?? ""
        switch kind {
        case .noJSON:
            return "the reply contains no JSON object or array; reply with the JSON only, or in a ```json block"
        case .truncated(let error):
            return "\(place)\(error.reason) (was the reply cut off by the token limit?)"
        case .invalid(let error):
            let path = error.path.isRoot ? "" : " (at \(error.path.dottedPath))"
            return "\(place)\(error.reason)\(path)"
        }
    }
}
