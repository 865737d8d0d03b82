/// Schema documents known by URI, so `$ref` and `$schema` can reach them
/// without the network.
///
/// Adding a document indexes every schema resource (`$id`) and anchor
/// (`$anchor`, `$dynamicAnchor`) inside it, so references to embedded resources
/// resolve too. A later document with the same URI replaces an earlier one.
public struct SchemaRegistry: Sendable {
    /// Where a schema sits: the registered document and a pointer inside it.
    struct Location: Hashable, Sendable {
        var document: String
        var tokens: [String]

        func appending(_ token: String) -> Location {
            Location(document: document, tokens: tokens + [token])
        }

        func appending(_ first: String, _ second: String) -> Location {
            Location(document: document, tokens: tokens + [first, second])
        }
    }

    private(set) var documents: [String: JSONValue] = [:]
    /// Resource URI (no fragment) to the resource's root.
    private(set) var resources: [String: Location] = [:]
    /// `uri#name` to the schema carrying that `$anchor` or `$dynamicAnchor`.
    private(set) var anchors: [String: Location] = [:]
    /// Resource URI to its `$dynamicAnchor` names and their schemas.
    private(set) var dynamicAnchors: [String: [String: Location]] = [:]

    /// An empty registry (not even the meta-schemas).
    public init() {}

    /// Registers `document` under the absolute URI `uri` (a fragment is ignored).
    ///
    /// - Throws: `SchemaError` when `uri` is not absolute or an `$id` inside is unusable.
    public mutating func add(_ document: JSONValue, uri: String) throws {
        let reference = URIReference(uri)
        guard reference.isAbsolute else {
            throw SchemaError(.invalidURI(uri, reason: "a registry URI must be absolute, such as https://example.com/schema.json"), at: "")
        }
        let key = reference.withoutFragment.description
        documents[key] = document
        resources[key] = Location(document: key, tokens: [])
        try index(document, base: reference.withoutFragment, location: Location(document: key, tokens: []))
    }

    /// The 2020-12 meta-schema and its seven vocabulary meta-schemas.
    public static let withMetaSchemas: SchemaRegistry = {
        var registry = SchemaRegistry()
        for (uri, text) in MetaSchemas.documents {
            // The bundled text is fixed and known to parse.
            let document = try! JSONParser.parse(text)
            try! registry.add(document, uri: uri)
        }
        return registry
    }()

    func value(at location: Location) -> JSONValue? {
        guard let document = documents[location.document] else { return nil }
        return JSONPointer(tokens: location.tokens).resolve(in: document)
    }

    private mutating func index(_ value: JSONValue, base: URIReference, location: Location) throws {
        guard case .object(let object) = value else { return }
        var base = base
        if let id = object["$id"]?.stringValue {
            if id.hasPrefix("#") {
                // Earlier drafts named subschemas with a fragment-only `$id`.
                if id.count > 1 { anchors[base.description + id] = location }
            } else {
                base = URIReference(id).resolved(against: base).withoutFragment
                resources[base.description] = location
            }
        }
        let baseKey = base.description
        if let anchor = object["$anchor"]?.stringValue {
            anchors[baseKey + "#" + anchor] = location
        }
        if let anchor = object["$dynamicAnchor"]?.stringValue {
            anchors[baseKey + "#" + anchor] = location
            dynamicAnchors[baseKey, default: [:]][anchor] = location
        }
        for member in object {
            switch SchemaKeywords.shape(of: member.key) {
            case .schema:
                try index(member.value, base: base, location: location.appending(member.key))
            case .schemaArray:
                guard case .array(let elements) = member.value else { continue }
                for (position, element) in elements.enumerated() {
                    try index(element, base: base, location: location.appending(member.key, String(position)))
                }
            case .schemaMap:
                guard case .object(let map) = member.value else { continue }
                for entry in map {
                    try index(entry.value, base: base, location: location.appending(member.key, entry.key))
                }
            case .none:
                continue
            }
        }
    }

    static func describe(_ location: Location) -> String {
        location.document + "#" + JSONPointer(tokens: location.tokens).description
    }
}
