extension Evaluator {
    /// Keywords that apply to every instance type: `type`, `enum`, `const`,
    /// references and the in-place applicators.
    mutating func evaluateAny(
        _ keyword: Keyword, _ node: SchemaNode, _ instance: JSONValue, _ annotations: inout Annotations,
        _ collecting: Bool
    ) -> Bool {
        switch keyword {
        case .type(let allowed):
            if allowed.rawValue & TypeSet.of(instance).rawValue != 0 { return true }
            if reportsErrors {
                report("type", node, "expected \(allowed.phrase), got \(Describe.value(instance))", expectedTypes: allowed)
            }
            return false
        case .enumeration(let values):
            if values.object.contains(instance) { return true }
            if reportsErrors { report("enum", node, Describe.enumFailure(subject, instance, values.object.values)) }
            return false
        case .constant(let constant):
            let expected = constant.object.value
            if instance.isIdentical(to: expected) { return true }
            if reportsErrors {
                report("const", node, "\(subject) must be \(expected.preview(limit: 50)); got \(instance.preview(limit: 40))")
            }
            return false
        case .ref(let reference):
            return follow(reference.object.target, keyword: "$ref", from: node, instance, &annotations, collecting: collecting)
        case .dynamicRef(let reference):
            var target = reference.object.target
            if let name = reference.object.dynamicAnchor {
                for resource in dynamicScope {
                    if let found = resource.dynamicAnchors[name] {
                        target = found
                        break
                    }
                }
            }
            return follow(target, keyword: "$dynamicRef", from: node, instance, &annotations, collecting: collecting)
        case .allOf(let list):
            var valid = true
            for (position, schema) in list.object.nodes.enumerated() {
                if reportsErrors { keywordPath += ["allOf", String(position)] }
                let passed = evaluate(schema.object, instance, &annotations, collecting: collecting)
                if reportsErrors { keywordPath.removeLast(2) }
                if !passed {
                    valid = false
                    if !reportsErrors { return false }
                }
            }
            return valid
        case .anyOf(let list):
            return evaluateAlternatives(list.object.nodes, keyword: "anyOf", in: node, instance, &annotations, collecting)
        case .oneOf(let list):
            return evaluateAlternatives(list.object.nodes, keyword: "oneOf", in: node, instance, &annotations, collecting)
        case .not(let schema):
            guard evaluateSilently(schema.object, instance, &annotations, collecting: false) else { return true }
            if reportsErrors { report("not", node, "\(subject) must not match the schema in `not`") }
            return false
        case .conditional(let conditional):
            let conditional = conditional.object
            if !collecting, conditional.then == nil, conditional.otherwise == nil { return true }
            var conditionAnnotations = Annotations()
            let holds = evaluateSilently(conditional.condition.object, instance, &conditionAnnotations, collecting: collecting)
            if holds, collecting { annotations.merge(conditionAnnotations) }
            guard let branch = holds ? conditional.then : conditional.otherwise else { return true }
            if reportsErrors { keywordPath.append(holds ? "then" : "else") }
            let valid = evaluate(branch.object, instance, &annotations, collecting: collecting)
            if reportsErrors { keywordPath.removeLast() }
            return valid
        default:
            return true
        }
    }
}
