/// Compiles a schema document, and everything it references, into a graph of
/// `SchemaNode`s: references are resolved, regular expressions compiled and
/// keyword values checked once, so validation does no lookups by name.
final class SchemaCompiler {
    typealias Location = SchemaRegistry.Location

    /// What is in force at one location: base URI, resource and vocabularies.
    struct Scope {
        var location: Location
        var base: URIReference
        var resource: SchemaResource
        var resourceDepth: Int
        var vocabularies: Vocabularies
        var isResourceRoot: Bool
    }

    /// The base URI used when a schema has none of its own.
    static let placeholderBase = "https://trainer-eval.invalid/schema.json"

    let registry: SchemaRegistry
    let options: ValidationOptions
    let rootDocument: String
    private(set) var nodes: [Location: SchemaNode] = [:]
    private(set) var allNodes: [SchemaNode] = []
    private(set) var resources: [String: SchemaResource] = [:]
    private(set) var usesDynamicReferences = false
    var regexes: [String: ECMARegex] = [:]
    /// The keyword payloads, which keywords reference unowned.
    private(set) var payloads: [AnyObject] = []
    /// In-place edges that always run (`$ref`, `$dynamicRef`, `allOf`), for cycle detection.
    var unconditionalEdges: [ObjectIdentifier: [(target: SchemaNode, reference: String?, location: Location)]] = [:]
    private var vocabularyCache: [String: Vocabularies] = [:]

    init(registry: SchemaRegistry, options: ValidationOptions, rootDocument: String) {
        self.registry = registry
        self.options = options
        self.rootDocument = rootDocument
    }

    /// Compiles the root document and what it reaches.
    func compileRoot() throws -> SchemaNode {
        let root = try compile(at: Location(document: rootDocument, tokens: []))
        if usesDynamicReferences { try compileDynamicAnchors() }
        try CycleDetector(compiler: self).check()
        return root
    }

    /// The node for the schema at `location`, compiling it on first use.
    func compile(at location: Location) throws -> SchemaNode {
        if let node = nodes[location] { return node }
        let (value, scope) = try scope(at: location)
        return try compile(value, scope: scope)
    }

    /// Compiles `value` (already known to sit at `scope.location`).
    func compile(_ value: JSONValue, scope: Scope) throws -> SchemaNode {
        if let node = nodes[scope.location] { return node }
        let absolute: String?
        if scope.resource.uri.hasPrefix("https://trainer-eval.invalid/") {
            absolute = nil
        } else {
            let relative = JSONPointer(tokens: Array(scope.location.tokens.dropFirst(scope.resourceDepth)))
            absolute = scope.resource.uri + "#" + relative.description
        }
        let node: SchemaNode
        switch value {
        case .bool(let flag):
            node = SchemaNode(isFalse: !flag, resource: scope.resource, isResourceRoot: scope.isResourceRoot, absoluteLocation: absolute)
            register(node, at: scope.location)
        case .object(let object):
            node = SchemaNode(isFalse: false, resource: scope.resource, isResourceRoot: scope.isResourceRoot, absoluteLocation: absolute)
            register(node, at: scope.location)
            node.setKeywords(try compileKeywords(object, node: node, scope: scope))
        default:
            throw SchemaError(.notASchema(found: "\(value.typeName) \(value.preview(limit: 40))"), at: describe(scope.location))
        }
        return node
    }

    /// Keeps `object` alive for the schema's lifetime and returns an unowned reference.
    func keep<Object: AnyObject>(_ object: Object) -> Unowned<Object> {
        payloads.append(object)
        return Unowned(object)
    }

    private func register(_ node: SchemaNode, at location: Location) {
        nodes[location] = node
        allNodes.append(node)
    }

    // MARK: Scopes

    /// The value at `location` and the scope in force there, found by walking
    /// from the document's root and applying each `$id` and `$schema` on the way.
    func scope(at location: Location) throws -> (JSONValue, Scope) {
        guard var value = registry.documents[location.document] else {
            throw SchemaError(.unresolvableReference(reference: location.document, reason: "no such document"), at: describe(location))
        }
        var scope = try enter(value, parent: nil, location: Location(document: location.document, tokens: []))
        // Only schema positions can change the scope: a member named `$id` inside
        // `properties` or an `enum` value is not an identifier.
        var previous: (isSchema: Bool, shape: SchemaKeywords.Shape?) = (true, nil)
        for token in location.tokens {
            guard let next = JSONPointer(tokens: [token]).resolve(in: value) else {
                throw SchemaError(.unresolvableReference(reference: describe(location), reason: "nothing at that pointer"), at: describe(location))
            }
            let isSchema: Bool
            if previous.isSchema {
                let shape = SchemaKeywords.shape(of: token)
                isSchema = shape == .schema
                previous = (isSchema, shape)
            } else {
                isSchema = previous.shape == .schemaArray || previous.shape == .schemaMap
                previous = (isSchema, nil)
            }
            value = next
            let childLocation = scope.location.appending(token)
            if isSchema {
                scope = try enter(value, parent: scope, location: childLocation)
            } else {
                scope.location = childLocation
                scope.isResourceRoot = false
            }
        }
        return (value, scope)
    }

    /// The scope of `value` at `location`, inside `parent` (nil at a document root).
    func enter(_ value: JSONValue, parent: Scope?, location: Location) throws -> Scope {
        var base = parent?.base ?? URIReference(location.document)
        var vocabularies = parent?.vocabularies ?? .standard
        var isRoot = parent == nil
        if case .object(let object) = value {
            if let id = object["$id"]?.stringValue, !id.hasPrefix("#") {
                base = URIReference(id).resolved(against: base).withoutFragment
                isRoot = true
            }
            if let metaSchema = object["$schema"]?.stringValue {
                vocabularies = try self.vocabularies(metaSchema: metaSchema, at: location)
            }
        }
        if !isRoot, var scope = parent {
            scope.location = location
            scope.isResourceRoot = false
            return scope
        }
        return Scope(
            location: location, base: base, resource: resource(base.description),
            resourceDepth: location.tokens.count, vocabularies: vocabularies, isResourceRoot: true)
    }

    func resource(_ uri: String) -> SchemaResource {
        if let existing = resources[uri] { return existing }
        let created = SchemaResource(uri: uri)
        resources[uri] = created
        return created
    }

    private func vocabularies(metaSchema: String, at location: Location) throws -> Vocabularies {
        let key = URIReference(metaSchema).withoutFragment.description
        if let cached = vocabularyCache[key] { return cached }
        let result: Vocabularies
        switch key {
        case "https://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2019-09/schema",
             "http://json-schema.org/draft-07/schema", "http://json-schema.org/draft-06/schema",
             "http://json-schema.org/draft-04/schema":
            // Earlier drafts are read with 2020-12 semantics.
            result = .standard
        default:
            guard let root = registry.resources[key], let document = registry.value(at: root) else {
                throw SchemaError(.unknownMetaSchema(metaSchema), at: describe(location.appending("$schema")))
            }
            guard let declared = document["$vocabulary"]?.objectValue else {
                result = .standard
                break
            }
            var set: Vocabularies = .core
            for member in declared {
                if let vocabulary = Vocabularies.named(member.key) {
                    set.insert(vocabulary)
                } else if member.value == .bool(true) {
                    throw SchemaError(.unsupportedVocabulary(member.key), at: describe(location.appending("$schema")))
                }
            }
            result = set
        }
        vocabularyCache[key] = result
        return result
    }

    // MARK: References

    /// Resolves `text` (a `$ref` or `$dynamicRef` value) against the scope's base URI.
    func reference(_ text: String, scope: Scope, dynamic: Bool) throws -> NodeReference {
        let keyword = dynamic ? "$dynamicRef" : "$ref"
        let target = URIReference(text).resolved(against: scope.base)
        let key = target.withoutFragment.description
        let here = describe(scope.location.appending(keyword))
        guard let resourceRoot = registry.resources[key] else {
            throw SchemaError(.unresolvableReference(
                reference: text, reason: "no schema is registered at \(key); add it with SchemaRegistry.add(_:uri:) (remote references are never fetched)"), at: here)
        }
        let fragment = target.fragment ?? ""
        let location: Location
        var anchorName: String?
        if fragment.isEmpty {
            location = resourceRoot
        } else if fragment.hasPrefix("/") {
            guard let pointer = JSONPointer.fromURIFragment(fragment) else {
                throw SchemaError(.unresolvableReference(reference: text, reason: "\"\(fragment)\" is not a valid JSON Pointer"), at: here)
            }
            location = Location(document: resourceRoot.document, tokens: resourceRoot.tokens + pointer.tokens)
            guard registry.value(at: location) != nil else {
                throw SchemaError(.unresolvableReference(reference: text, reason: "\(key) has nothing at \(fragment)"), at: here)
            }
        } else {
            guard let anchored = registry.anchors[key + "#" + fragment] else {
                throw SchemaError(.unresolvableReference(reference: text, reason: "\(key) has no `$anchor` named \"\(fragment)\""), at: here)
            }
            location = anchored
            if dynamic, registry.value(at: anchored)?["$dynamicAnchor"]?.stringValue == fragment {
                anchorName = fragment
                usesDynamicReferences = true
            }
        }
        let node = try compile(at: location)
        return NodeReference(target: node, text: text, dynamicAnchor: anchorName)
    }

    /// Compiles every `$dynamicAnchor` of every resource in use, so `$dynamicRef`
    /// can find them in the dynamic scope.
    private func compileDynamicAnchors() throws {
        var done: Set<String> = []
        while true {
            let pending = resources.filter { !done.contains($0.key) }
            if pending.isEmpty { return }
            for (uri, resource) in pending {
                done.insert(uri)
                for (name, location) in registry.dynamicAnchors[uri] ?? [:] {
                    resource.dynamicAnchors[name] = try compile(at: location)
                }
            }
        }
    }

    func describe(_ location: Location) -> String {
        let pointer = JSONPointer(tokens: location.tokens).description
        return location.document == rootDocument ? pointer : location.document + "#" + pointer
    }
}
