extension Evaluator {
    /// `anyOf` and `oneOf`. When they fail, one error summarises the failure
    /// with the reasons of the alternative that came closest.
    mutating func evaluateAlternatives(
        _ schemas: [Unowned<SchemaNode>], keyword: String, in node: SchemaNode, _ instance: JSONValue,
        _ annotations: inout Annotations, _ collecting: Bool
    ) -> Bool {
        let exactlyOne = keyword == "oneOf"
        let mark = errors.count
        var passCount = 0, firstPass = 0, secondPass = 0
        var branchErrors: [[PendingError]] = []
        for (position, schema) in schemas.enumerated() {
            var branchAnnotations = Annotations()
            if reportsErrors { keywordPath += [keyword, String(position)] }
            let passed = evaluate(schema.object, instance, &branchAnnotations, collecting: collecting)
            if reportsErrors {
                keywordPath.removeLast(2)
                branchErrors.append(Array(errors[mark...]))
                errors.removeSubrange(mark...)
            }
            guard passed else { continue }
            passCount += 1
            if passCount == 1 { firstPass = position } else if passCount == 2 { secondPass = position }
            if collecting { annotations.merge(branchAnnotations) }
            if !collecting && (!exactlyOne || passCount > 1) { break }
        }
        if exactlyOne ? passCount == 1 : passCount > 0 { return true }
        guard reportsErrors else { return false }
        if passCount > 1 {
            report(keyword, node, "\(subject) matches both alternative #\(firstPass + 1) and #\(secondPass + 1) of `oneOf`; exactly one must match")
            return false
        }
        report(keyword, node, summary(of: branchErrors, keyword: keyword, instance))
        return false
    }

    private func summary(of branchErrors: [[PendingError]], keyword: String, _ instance: JSONValue) -> String {
        let depth = instancePath.count
        // All alternatives rejected only the type here: name the types they accept.
        let typeOnly = branchErrors.allSatisfy {
            $0.count == 1 && $0[0].expectedTypes != nil && $0[0].instancePath.count == depth
        }
        if typeOnly {
            let allowed = branchErrors.reduce(TypeSet()) { $0.union($1[0].expectedTypes!) }
            return "expected \(allowed.phrase), got \(Describe.value(instance))"
        }
        func score(_ errors: [PendingError]) -> (Int, Int) {
            let wrongType = errors.contains { $0.expectedTypes != nil && $0.instancePath.count == depth }
            return (wrongType ? 1 : 0, errors.count)
        }
        var best = 0
        for index in branchErrors.indices.dropFirst() where score(branchErrors[index]) < score(branchErrors[best]) {
            best = index
        }
        let reasons = branchErrors[best]
        var text = "\(subject) matches none of the \(branchErrors.count) alternatives in `\(keyword)`"
        guard let first = reasons.first else { return text }
        text += "; closest is #\(best + 1): \(first.message)"
        if reasons.count > 1 { text += " (and \(reasons.count - 1) more)" }
        return text
    }
}

/// Plain-words renderings of values for messages.
enum Describe {
    /// `string "forty"`, `integer 7`, `an object`, `an array of 3 items`, `null`.
    static func value(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return "boolean \(flag)"
        case .number(let number): return "\(value.typeName) \(Self.number(number))"
        case .string: return "string \(value.preview(limit: 40))"
        case .array(let items): return "an array of \(count(items.count, "item"))"
        case .object: return "an object"
        }
    }

    static func number(_ number: Double) -> String {
        JSONValue.number(number).serialized()
    }

    /// `1 item`, `3 items`, `1 property`, `2 properties`.
    static func count(_ count: Int, _ noun: String) -> String {
        if count == 1 { return "1 \(noun)" }
        if noun.hasSuffix("y") { return "\(count) \(noun.dropLast())ies" }
        return "\(count) \(noun)s"
    }

    static func enumFailure(_ subject: String, _ instance: JSONValue, _ allowed: [JSONValue]) -> String {
        let shown = allowed.prefix(6).map { $0.preview(limit: 30) }.joined(separator: ", ")
        let more = allowed.count > 6 ? ", … (\(allowed.count) values)" : ""
        return "\(subject) is \(instance.preview(limit: 40)); expected one of \(shown)\(more)"
    }
}
