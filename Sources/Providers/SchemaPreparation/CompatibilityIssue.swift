import JSONSchema

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
