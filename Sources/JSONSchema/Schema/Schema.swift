/// A compiled JSON Schema (draft 2020-12): compile once, validate many times,
/// from any number of threads.
///
/// ```swift
/// let schema = try Schema(jsonText: schemaText)
/// let result = schema.validate(try JSONParser.parse(replyText))
/// for error in result.errors { print(error) }   // "/options: `options` has 5 items; at most 4 allowed"
/// ```
///
/// References resolve against the registry only (never the network); the
/// official 2020-12 meta-schemas are registered by default. `format` is an
/// annotation unless `ValidationOptions.assertsFormat` is set or the schema's
/// meta-schema turns on the format-assertion vocabulary.
public final class Schema: Sendable {
    private let root: SchemaNode
    /// Every compiled node, resource and keyword payload: references between them are unowned.
    private let storage: Storage
    private let tracksDynamicScope: Bool
    /// The options the schema was compiled with.
    public let options: ValidationOptions

    /// Compiles `document`.
    ///
    /// - Parameters:
    ///   - baseURI: the absolute URI the document is known by, against which
    ///     its relative references resolve (its `$id` takes precedence).
    ///   - registry: the documents remote references may reach.
    /// - Throws: `SchemaError` naming the schema location when the document is
    ///   not a valid schema or a reference cannot be resolved.
    public init(
        _ document: JSONValue, baseURI: String? = nil, registry: SchemaRegistry = .withMetaSchemas,
        options: ValidationOptions = .init()
    ) throws {
        var registry = registry
        let base = URIReference(baseURI ?? SchemaCompiler.placeholderBase).withoutFragment.description
        try registry.add(document, uri: base)
        let compiler = SchemaCompiler(registry: registry, options: options, rootDocument: base)
        root = try compiler.compileRoot()
        storage = Storage(nodes: compiler.allNodes, resources: Array(compiler.resources.values), payloads: compiler.payloads)
        tracksDynamicScope = compiler.usesDynamicReferences
        self.options = options
    }

    /// Parses (strictly) and compiles the schema in `jsonText`.
    ///
    /// - Throws: `JSONParseError` when the text is not JSON, `SchemaError` when it is not a valid schema.
    public convenience init(
        jsonText: String, baseURI: String? = nil, registry: SchemaRegistry = .withMetaSchemas,
        options: ValidationOptions = .init()
    ) throws {
        try self.init(JSONParser.parse(jsonText), baseURI: baseURI, registry: registry, options: options)
    }

    /// Every way `instance` fails the schema, in instance document order and then keyword order.
    public func validate(_ instance: JSONValue) -> ValidationResult {
        var evaluator = makeEvaluator(reportsErrors: true)
        var annotations = Annotations()
        _ = evaluator.evaluate(root, instance, &annotations, collecting: false)
        return ValidationResult(errors: evaluator.orderedErrors())
    }

    /// Whether `instance` is valid; stops at the first failure and builds no messages.
    public func isValid(_ instance: JSONValue) -> Bool {
        var evaluator = makeEvaluator(reportsErrors: false)
        var annotations = Annotations()
        return evaluator.evaluate(root, instance, &annotations, collecting: false)
    }

    private func makeEvaluator(reportsErrors: Bool) -> Evaluator {
        Evaluator(reportsErrors: reportsErrors, tracksDynamicScope: tracksDynamicScope, referenceLimit: storage.nodes.count + 1)
    }

    private final class Storage: @unchecked Sendable {
        let nodes: [SchemaNode]
        let resources: [SchemaResource]
        let payloads: [AnyObject]

        init(nodes: [SchemaNode], resources: [SchemaResource], payloads: [AnyObject]) {
            self.nodes = nodes
            self.resources = resources
            self.payloads = payloads
        }
    }
}
