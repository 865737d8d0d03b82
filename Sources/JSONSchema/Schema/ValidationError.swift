/// One way an instance fails its schema.
public struct ValidationError: Sendable, Hashable, CustomStringConvertible {
    /// Where in the instance the problem is.
    public let instanceLocation: JSONPointer
    /// The path through the schema to the failing keyword, `$ref` hops included,
    /// for example `/properties/options/maxItems`.
    public let keywordLocation: String
    /// The failing keyword's absolute URI with a pointer fragment, when the schema has a base URI.
    public let absoluteKeywordLocation: String?
    /// The failing keyword: `maxItems`, `required`, `additionalProperties`, `type`, ...
    public let keyword: String
    /// One plain-words line naming the value and the limit.
    public let message: String

    public init(
        instanceLocation: JSONPointer, keywordLocation: String, absoluteKeywordLocation: String?,
        keyword: String, message: String
    ) {
        self.instanceLocation = instanceLocation
        self.keywordLocation = keywordLocation
        self.absoluteKeywordLocation = absoluteKeywordLocation
        self.keyword = keyword
        self.message = message
    }

    /// `instanceLocation: message`, with `(root)` for the whole document.
    public var description: String {
        "\(instanceLocation.isRoot ? "(root)" : instanceLocation.description): \(message)"
    }
}

/// The outcome of validating one instance: every error found, in instance
/// document order and then keyword order.
public struct ValidationResult: Sendable, Hashable {
    public let errors: [ValidationError]

    public init(errors: [ValidationError]) {
        self.errors = errors
    }

    public var isValid: Bool { errors.isEmpty }
}
