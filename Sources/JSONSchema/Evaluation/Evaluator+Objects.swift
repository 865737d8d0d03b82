extension Evaluator {
    /// Keywords that apply to objects. `instance` is the object itself, for
    /// `dependentSchemas`, which applies in place.
    mutating func evaluateObject(
        _ keyword: Keyword, _ node: SchemaNode, _ object: JSONObject, _ instance: JSONValue,
        _ annotations: inout Annotations, _ collecting: Bool
    ) -> Bool {
        switch keyword {
        case .minProperties(let limit):
            if object.count >= limit { return true }
            if reportsErrors { report("minProperties", node, "\(subject) has \(Describe.count(object.count, "property")); at least \(limit) required") }
            return false
        case .maxProperties(let limit):
            if object.count <= limit { return true }
            if reportsErrors { report("maxProperties", node, "\(subject) has \(Describe.count(object.count, "property")); at most \(limit) allowed") }
            return false
        case .required(let names):
            var valid = true
            for name in names.object.names where object.exactPosition(of: name) == nil {
                guard reportsErrors else { return false }
                valid = false
                report("required", node, "missing required property `\(name)`")
            }
            return valid
        case .dependentRequired(let requirements):
            var valid = true
            for entry in requirements.object.entries where object.exactPosition(of: entry.property) != nil {
                for name in entry.required where object.exactPosition(of: name) == nil {
                    guard reportsErrors else { return false }
                    valid = false
                    report("dependentRequired", node, "missing property `\(name)`, required when `\(entry.property)` is present")
                }
            }
            return valid
        case .dependentSchemas(let dependencies):
            var valid = true
            for entry in dependencies.object.entries where object.exactPosition(of: entry.property) != nil {
                if reportsErrors { keywordPath += ["dependentSchemas", JSONPointer.escape(entry.property)] }
                let passed = evaluate(entry.schema.object, instance, &annotations, collecting: collecting)
                if reportsErrors { keywordPath.removeLast(2) }
                if !passed {
                    valid = false
                    if !reportsErrors { return false }
                }
            }
            return valid
        case .members(let members):
            return evaluateMembers(members.object, object, &annotations, collecting)
        case .propertyNames(let schema):
            var valid = true
            if reportsErrors { keywordPath.append("propertyNames") }
            for (ordinal, member) in object.members.enumerated() {
                namingProperty = true
                let passed = evaluateChild(
                    schema.object, .string(member.key), key: member.key, ordinal: ordinal, keyword: "propertyNames",
                    refusal: .property, &annotations)
                namingProperty = false
                if !passed {
                    valid = false
                    if !reportsErrors { break }
                }
            }
            if reportsErrors { keywordPath.removeLast() }
            return valid
        case .unevaluatedProperties(let schema):
            guard !annotations.allProperties else { return true }
            var valid = true
            if reportsErrors { keywordPath.append("unevaluatedProperties") }
            for (ordinal, member) in object.members.enumerated() where !annotations.hasEvaluated(property: member.key) {
                let passed = evaluateChild(
                    schema.object, member.value, key: member.key, ordinal: ordinal, keyword: "unevaluatedProperties",
                    refusal: .unknownProperty, &annotations)
                if !passed {
                    valid = false
                    if !reportsErrors { break }
                }
            }
            if reportsErrors { keywordPath.removeLast() }
            annotations.allProperties = true
            return valid
        default:
            return true
        }
    }

    /// `properties`, `patternProperties` and `additionalProperties` in one pass
    /// over the members, in document order.
    private mutating func evaluateMembers(
        _ members: MemberApplicator, _ object: JSONObject, _ annotations: inout Annotations, _ collecting: Bool
    ) -> Bool {
        // Local copies: reading the arrays through the objects would retain them once per member;
        // the members are borrowed through a buffer, so a value is not retained to be read.
        let schemas = members.schemas, isRequired = members.isRequired
        let patterns = members.patterns
        return object.members.withUnsafeBufferPointer { entries in
            var valid = true
            var requiredSeen = 0
            var expected = 0
            for ordinal in entries.indices {
                let key = entries[ordinal].key
                var matched = false
                if let position = members.names.position(of: key, hint: expected) {
                    matched = true
                    expected = position + 1
                    if isRequired[position] { requiredSeen += 1 }
                    if reportsErrors { keywordPath += ["properties", JSONPointer.escape(key)] }
                    let passed = evaluateChild(
                        schemas[position].object, entries[ordinal].value, key: key, ordinal: ordinal,
                        keyword: "properties", refusal: .property, &annotations)
                    if reportsErrors { keywordPath.removeLast(2) }
                    if !passed {
                        valid = false
                        if !reportsErrors { return false }
                    }
                }
                for entry in patterns where entry.pattern.regex.matches(key) {
                    matched = true
                    if reportsErrors { keywordPath += ["patternProperties", JSONPointer.escape(entry.pattern.source)] }
                    let passed = evaluateChild(
                        entry.schema.object, entries[ordinal].value, key: key, ordinal: ordinal,
                        keyword: "patternProperties", refusal: .property, &annotations)
                    if reportsErrors { keywordPath.removeLast(2) }
                    if !passed {
                        valid = false
                        if !reportsErrors { return false }
                    }
                }
                if matched {
                    if collecting { annotations.insertProperty(key) }
                } else if let additional = members.additional {
                    if reportsErrors { keywordPath.append("additionalProperties") }
                    let passed = evaluateChild(
                        additional.object, entries[ordinal].value, key: key, ordinal: ordinal,
                        keyword: "additionalProperties", refusal: .unknownProperty, &annotations)
                    if reportsErrors { keywordPath.removeLast() }
                    if !passed {
                        valid = false
                        if !reportsErrors { return false }
                    }
                }
            }
            if collecting, members.additional != nil { annotations.allProperties = true }
            // `required` folded in (see `MemberApplicator.fold`); with errors on, `required` itself reports.
            if !reportsErrors, requiredSeen < members.requiredCount { return false }
            return valid
        }
    }
}
