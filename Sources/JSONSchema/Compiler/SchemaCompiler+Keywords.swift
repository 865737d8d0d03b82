extension SchemaCompiler {
    /// Compiles the keywords of one object schema, in the schema's order, with
    /// grouped keywords placed where the first of their group appears and the
    /// unevaluated keywords last.
    func compileKeywords(_ object: JSONObject, node: SchemaNode, scope: Scope) throws -> [Keyword] {
        var keywords: [Keyword] = []
        var trailing: [Keyword] = []
        var placedMembers = false, placedElements = false, placedContains = false
        let vocabularies = scope.vocabularies
        let formatAsserts = options.assertsFormat || vocabularies.contains(.formatAssertion)

        for member in object {
            let name = member.key
            let value = member.value
            if let owner = Vocabularies.owner(of: name), !vocabularies.contains(owner) { continue }
            let here = { self.describe(scope.location.appending(name)) }
            switch name {
            case "$ref":
                let reference = try reference(try string(value, name, here), scope: scope, dynamic: false)
                noteEdge(from: node, to: reference.target, reference: reference.text, location: scope.location)
                keywords.append(.ref(keep(reference)))
            case "$dynamicRef":
                let reference = try reference(try string(value, name, here), scope: scope, dynamic: true)
                if reference.dynamicAnchor == nil {
                    noteEdge(from: node, to: reference.target, reference: reference.text, location: scope.location)
                }
                keywords.append(.dynamicRef(keep(reference)))
            case "$defs", "definitions":
                // Compiled eagerly so mistakes in unused definitions surface too.
                guard case .object(let definitions) = value else {
                    throw invalid(name, "must be an object of schemas", here)
                }
                for definition in definitions {
                    _ = try child(definition.value, scope, name, definition.key)
                }

            // Validation
            case "type":
                keywords.append(.type(try typeSet(value, here)))
            case "enum":
                guard case .array(let values) = value else { throw invalid(name, "must be an array", here) }
                keywords.append(.enumeration(keep(EnumValues(values))))
            case "const":
                keywords.append(.constant(keep(Constant(value))))
            case "multipleOf":
                let divisor = try number(value, name, here)
                guard divisor > 0 else { throw invalid(name, "must be greater than 0", here) }
                keywords.append(.multipleOf(divisor))
            case "minimum": keywords.append(.minimum(try number(value, name, here)))
            case "maximum": keywords.append(.maximum(try number(value, name, here)))
            case "exclusiveMinimum": keywords.append(.exclusiveMinimum(try number(value, name, here)))
            case "exclusiveMaximum": keywords.append(.exclusiveMaximum(try number(value, name, here)))
            case "minLength": keywords.append(.minLength(try count(value, name, here)))
            case "maxLength": keywords.append(.maxLength(try count(value, name, here)))
            case "pattern":
                keywords.append(.pattern(keep(try pattern(try string(value, name, here), here))))
            case "minItems": keywords.append(.minItems(try count(value, name, here)))
            case "maxItems": keywords.append(.maxItems(try count(value, name, here)))
            case "uniqueItems":
                guard case .bool(let flag) = value else { throw invalid(name, "must be true or false", here) }
                if flag { keywords.append(.uniqueItems) }
            case "minProperties": keywords.append(.minProperties(try count(value, name, here)))
            case "maxProperties": keywords.append(.maxProperties(try count(value, name, here)))
            case "required":
                let names = try stringArray(value, name, here)
                if !names.isEmpty { keywords.append(.required(keep(Names(names)))) }
            case "dependentRequired":
                guard case .object(let map) = value else { throw invalid(name, "must be an object of string arrays", here) }
                let requirements = try map.map { (property: $0.key, required: try stringArray($0.value, name, here)) }
                keywords.append(.dependentRequired(keep(DependentRequirements(requirements))))
            case "format":
                let format = try string(value, name, here)
                if formatAsserts, let checked = StringFormat(rawValue: format) { keywords.append(.format(checked)) }

            // Applicators
            case "allOf":
                let nodes = try schemaArray(value, scope, name, here)
                for target in nodes { noteEdge(from: node, to: target, reference: nil, location: scope.location) }
                keywords.append(.allOf(keep(NodeList(nodes))))
            case "anyOf":
                keywords.append(.anyOf(keep(NodeList(try schemaArray(value, scope, name, here)))))
            case "oneOf":
                keywords.append(.oneOf(keep(NodeList(try schemaArray(value, scope, name, here)))))
            case "not":
                keywords.append(.not(Unowned(try child(value, scope, name))))
            case "if":
                let condition = try child(value, scope, name)
                let then = try object["then"].map { try child($0, scope, "then") }
                let otherwise = try object["else"].map { try child($0, scope, "else") }
                // Kept even without `then`/`else`: a passing `if` still yields annotations.
                keywords.append(.conditional(keep(Conditional(condition: condition, then: then, otherwise: otherwise))))
            case "dependentSchemas":
                guard case .object(let map) = value else { throw invalid(name, "must be an object of schemas", here) }
                let entries = try map.map { (property: $0.key, schema: try child($0.value, scope, name, $0.key)) }
                keywords.append(.dependentSchemas(keep(DependentSchemas(entries))))
            case "properties", "patternProperties", "additionalProperties":
                if !placedMembers {
                    placedMembers = true
                    keywords.append(.members(keep(try members(object, scope))))
                }
            case "propertyNames":
                keywords.append(.propertyNames(Unowned(try child(value, scope, name))))
            case "prefixItems", "items":
                if !placedElements {
                    placedElements = true
                    let prefix = try object["prefixItems"].map { try schemaArray($0, scope, "prefixItems", here) } ?? []
                    let rest = try object["items"].map { try child($0, scope, "items") }
                    keywords.append(.elements(keep(ElementApplicator(prefix: prefix, rest: rest))))
                }
            case "contains", "minContains", "maxContains":
                if !placedContains, let schema = object["contains"], vocabularies.contains(.applicator) {
                    placedContains = true
                    let useBounds = vocabularies.contains(.validation)
                    let minimum = try useBounds ? object["minContains"].map { try count($0, "minContains", here) } ?? 1 : 1
                    let maximum = try useBounds ? object["maxContains"].map { try count($0, "maxContains", here) } : nil
                    keywords.append(.contains(keep(ContainsApplicator(
                        schema: try child(schema, scope, "contains"), minimum: minimum, maximum: maximum))))
                }
            case "unevaluatedProperties":
                trailing.append(.unevaluatedProperties(Unowned(try child(value, scope, name))))
            case "unevaluatedItems":
                trailing.insert(.unevaluatedItems(Unowned(try child(value, scope, name))), at: 0)
            case "contentSchema":
                _ = try child(value, scope, name)
            default:
                continue
            }
        }
        foldRequired(into: keywords)
        return keywords + trailing
    }

    /// Lets the `properties` pass check `required` when it can (see `MemberApplicator.fold`).
    private func foldRequired(into keywords: [Keyword]) {
        var members: MemberApplicator?
        var names: Names?
        for keyword in keywords {
            switch keyword {
            case .members(let applicator): members = applicator.object
            case .required(let required): names = required.object
            default: break
            }
        }
        if let members, let names { names.isFolded = members.fold(names) }
    }

    // MARK: Subschemas

    func child(_ value: JSONValue, _ scope: Scope, _ tokens: String...) throws -> SchemaNode {
        var location = scope.location
        for token in tokens { location = location.appending(token) }
        if let existing = nodes[location] { return existing }
        return try compile(value, scope: try enter(value, parent: scope, location: location))
    }

    private func schemaArray(_ value: JSONValue, _ scope: Scope, _ name: String, _ here: () -> String) throws -> [SchemaNode] {
        guard case .array(let elements) = value, !elements.isEmpty else {
            throw invalid(name, "must be a non-empty array of schemas", here)
        }
        return try elements.enumerated().map { try child($0.element, scope, name, String($0.offset)) }
    }

    private func members(_ object: JSONObject, _ scope: Scope) throws -> MemberApplicator {
        var properties: [(String, SchemaNode)] = []
        if let value = object["properties"] {
            guard case .object(let map) = value else {
                throw invalid("properties", "must be an object of schemas", { self.describe(scope.location.appending("properties")) })
            }
            for entry in map { properties.append((entry.key, try child(entry.value, scope, "properties", entry.key))) }
        }
        var patterns: [(pattern: Pattern, schema: SchemaNode)] = []
        if let value = object["patternProperties"] {
            let here = { self.describe(scope.location.appending("patternProperties")) }
            guard case .object(let map) = value else { throw invalid("patternProperties", "must be an object of schemas", here) }
            for entry in map {
                patterns.append((try pattern(entry.key, here), try child(entry.value, scope, "patternProperties", entry.key)))
            }
        }
        let additional = try object["additionalProperties"].map { try child($0, scope, "additionalProperties") }
        return MemberApplicator(properties: properties, patterns: patterns, additional: additional)
    }

    func noteEdge(from node: SchemaNode, to target: SchemaNode, reference: String?, location: Location) {
        unconditionalEdges[ObjectIdentifier(node), default: []].append((target, reference, location))
    }

    // MARK: Keyword values

    private func invalid(_ keyword: String, _ reason: String, _ here: () -> String) -> SchemaError {
        SchemaError(.invalidKeyword(keyword: keyword, reason: reason), at: here())
    }

    private func string(_ value: JSONValue, _ name: String, _ here: () -> String) throws -> String {
        guard case .string(let text) = value else { throw invalid(name, "must be a string, got \(value.typeName) \(value.preview(limit: 30))", here) }
        return text
    }

    private func number(_ value: JSONValue, _ name: String, _ here: () -> String) throws -> Double {
        guard case .number(let number) = value else { throw invalid(name, "must be a number, got \(value.typeName) \(value.preview(limit: 30))", here) }
        return number
    }

    private func count(_ value: JSONValue, _ name: String, _ here: () -> String) throws -> Int {
        guard case .number(let number) = value, number.isWholeNumber, number >= 0 else {
            throw invalid(name, "must be a non-negative integer, got \(value.preview(limit: 30))", here)
        }
        return number > Double(Int.max / 2) ? Int.max / 2 : Int(number)
    }

    private func stringArray(_ value: JSONValue, _ name: String, _ here: () -> String) throws -> [String] {
        guard case .array(let elements) = value else { throw invalid(name, "must be an array of strings", here) }
        return try elements.map {
            guard case .string(let text) = $0 else { throw invalid(name, "must contain only strings, found \($0.preview(limit: 30))", here) }
            return text
        }
    }

    private func typeSet(_ value: JSONValue, _ here: () -> String) throws -> TypeSet {
        let names: [JSONValue]
        switch value {
        case .string: names = [value]
        case .array(let elements): names = elements
        default: throw invalid("type", "must be a type name or an array of type names", here)
        }
        var set: TypeSet = []
        for name in names {
            guard let text = name.stringValue, let type = TypeSet(name: text) else {
                throw invalid("type", "has unknown type \(name.preview(limit: 30)); use null, boolean, integer, number, string, array or object", here)
            }
            set.formUnion(type)
        }
        return set
    }

    private func pattern(_ source: String, _ here: () -> String) throws -> Pattern {
        if let cached = regexes[source] { return Pattern(source: source, regex: cached) }
        do {
            let regex = try ECMARegex(source)
            regexes[source] = regex
            return Pattern(source: source, regex: regex)
        } catch let error as ECMARegex.CompileError {
            throw SchemaError(.invalidPattern(pattern: source, reason: error.reason), at: here())
        }
    }
}
