/// Why a schema cannot be compiled: it is not a valid draft 2020-12 schema, a
/// reference in it cannot be resolved, or a registry document is unusable.
public struct SchemaError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: Hashable, Sendable {
        /// A keyword's value has the wrong type or an impossible value.
        case invalidKeyword(keyword: String, reason: String)
        /// Something that must be a schema (an object or a boolean) is not.
        case notASchema(found: String)
        /// `$ref` or `$dynamicRef` names something no registered document defines.
        case unresolvableReference(reference: String, reason: String)
        /// References that loop back to themselves without ever reaching a value.
        case referenceCycle(reference: String)
        /// `$schema` names a meta-schema that is not registered.
        case unknownMetaSchema(String)
        /// The meta-schema requires a vocabulary this validator does not implement.
        case unsupportedVocabulary(String)
        /// `pattern` or `patternProperties` holds a regular expression that does not compile.
        case invalidPattern(pattern: String, reason: String)
        /// A URI given to the registry or in `$id` is not usable.
        case invalidURI(String, reason: String)
    }

    public let kind: Kind
    /// Where in the schema: a JSON Pointer within the compiled document, or an
    /// absolute URI with a pointer fragment for other registered documents.
    public let location: String

    public init(_ kind: Kind, at location: String) {
        self.kind = kind
        self.location = location
    }

    /// What is wrong, without the location.
    public var reason: String {
        switch kind {
        case .invalidKeyword(let keyword, let reason):
            return "`\(keyword)` \(reason)"
        case .notASchema(let found):
            return "expected a schema (an object or true/false), found \(found)"
        case .unresolvableReference(let reference, let reason):
            return "cannot resolve reference \"\(reference)\": \(reason)"
        case .referenceCycle(let reference):
            return "reference \"\(reference)\" loops back to itself without ever applying to a value; break the cycle"
        case .unknownMetaSchema(let uri):
            return "unknown meta-schema \"\(uri)\" in `$schema`; register it with SchemaRegistry.add(_:uri:) or use https://json-schema.org/draft/2020-12/schema"
        case .unsupportedVocabulary(let uri):
            return "the meta-schema requires vocabulary \"\(uri)\", which this validator does not implement"
        case .invalidPattern(let pattern, let reason):
            return "invalid regular expression \"\(pattern)\": \(reason)"
        case .invalidURI(let uri, let reason):
            return "invalid URI \"\(uri)\": \(reason)"
        }
    }

    public var description: String {
        let place = location.isEmpty ? "(root)" : location
        return "schema \(place): \(reason)"
    }
}
