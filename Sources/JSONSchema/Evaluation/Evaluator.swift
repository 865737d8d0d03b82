/// Runs a compiled schema over one instance.
///
/// The same code serves both entry points: with `reportsErrors` false it stops
/// at the first failure and builds no paths or messages (`Schema.isValid`);
/// with it true it evaluates everything and records every error with its
/// instance and keyword locations (`Schema.validate`).
struct Evaluator {
    var reportsErrors: Bool
    let tracksDynamicScope: Bool
    /// More `$ref` hops than this without moving into the instance means a loop.
    let referenceLimit: Int

    var errors: [PendingError] = []
    var instancePath: [InstanceStep] = []
    /// Escaped JSON Pointer tokens from the root schema to the current keyword.
    var keywordPath: [String] = []
    var dynamicScope: [SchemaResource] = []
    var referenceDepth = 0
    var namingProperty = false

    init(reportsErrors: Bool, tracksDynamicScope: Bool, referenceLimit: Int) {
        self.reportsErrors = reportsErrors
        self.tracksDynamicScope = tracksDynamicScope
        self.referenceLimit = referenceLimit
    }

    /// Evaluates `node` against `instance`. When `collecting`, what the node's
    /// keywords evaluated is added to `annotations`; otherwise `annotations` is
    /// left untouched, so callers that do not collect pass along the one they
    /// have instead of making an empty one (which costs two releases per value).
    mutating func evaluate(
        _ node: SchemaNode, _ instance: JSONValue, _ annotations: inout Annotations, collecting: Bool
    ) -> Bool {
        if node.isFalse {
            if reportsErrors { reportHere("false", node, "\(subject) is not allowed here (the schema is `false`)") }
            return false
        }
        var enteredScope = false
        if tracksDynamicScope, node.isResourceRoot {
            dynamicScope.append(node.resource)
            enteredScope = true
        }
        let valid: Bool
        if reportsErrors || collecting || node.needsAnnotations {
            valid = evaluateInOrder(node, instance, &annotations, collecting: collecting)
        } else {
            valid = evaluateFast(node, instance, &annotations)
        }
        if enteredScope { dynamicScope.removeLast() }
        return valid
    }

    /// The fast path: no errors, no annotations (`none` is only passed
    /// along); the instance's payload is extracted once and only the keywords
    /// for its type run.
    private mutating func evaluateFast(_ node: SchemaNode, _ instance: JSONValue, _ none: inout Annotations) -> Bool {
        let plan = node.plan
        guard plan.pointee.passesInlineChecks(instance) else { return false }
        for keyword in plan.pointee.any where !evaluateAny(keyword, node, instance, &none, false) { return false }
        switch instance {
        case .object(let object):
            for keyword in plan.pointee.object where !evaluateObject(keyword, node, object, instance, &none, false) {
                return false
            }
        case .array(let items):
            for keyword in plan.pointee.array where !evaluateArray(keyword, node, items, &none, false) { return false }
        case .string(let text):
            for keyword in plan.pointee.string where !evaluateString(keyword, node, text, instance) { return false }
        case .number(let value):
            for keyword in plan.pointee.number where !evaluateNumber(keyword, node, value) { return false }
        case .null, .bool:
            break
        }
        return true
    }

    /// Every keyword in schema order, with errors and annotations as asked.
    private mutating func evaluateInOrder(
        _ node: SchemaNode, _ instance: JSONValue, _ annotations: inout Annotations, collecting: Bool
    ) -> Bool {
        var local = Annotations()
        let wants = collecting || node.needsAnnotations
        var valid = true
        for keyword in node.keywords {
            let passed: Bool
            switch (keyword.category, instance) {
            case (.any, _): passed = evaluateAny(keyword, node, instance, &local, wants)
            case (.object, .object(let object)): passed = evaluateObject(keyword, node, object, instance, &local, wants)
            case (.array, .array(let items)): passed = evaluateArray(keyword, node, items, &local, wants)
            case (.string, .string(let text)): passed = evaluateString(keyword, node, text, instance)
            case (.number, .number(let value)): passed = evaluateNumber(keyword, node, value)
            default: passed = true
            }
            if !passed {
                valid = false
                if !reportsErrors { break }
            }
        }
        if collecting { annotations.merge(local) }
        return valid
    }

    /// How a `false` subschema of a member or element is reported.
    enum Refusal {
        /// `property `x` is not allowed`
        case property
        /// `unknown property `x``
        case unknownProperty
        /// `item 3 is not allowed`
        case item
        /// `unexpected item at index 3` (beyond `prefixItems`, or unevaluated)
        case extraItem(allowed: Int?)

        func message(_ token: String) -> String {
            switch self {
            case .property: return "property `\(token)` is not allowed"
            case .unknownProperty: return "unknown property `\(token)`"
            case .item: return "item \(token) is not allowed"
            case .extraItem(let allowed):
                guard let allowed else { return "unexpected item at index \(token)" }
                return "unexpected item at index \(token); at most \(Describe.count(allowed, "item")) allowed"
            }
        }
    }

    /// Evaluates `node` against a member or element of the current instance.
    /// A `false` subschema is reported with `refusal` (as `keyword`) instead of
    /// the generic message.
    ///
    /// `key` names an object member; nil means an array element at index `ordinal`.
    /// `annotations` is the parent's, left untouched (the child collects nothing for it).
    mutating func evaluateChild(
        _ node: SchemaNode, _ value: JSONValue, key: String?, ordinal: Int, keyword: String, refusal: Refusal,
        _ annotations: inout Annotations
    ) -> Bool {
        if !reportsErrors, node.plan.pointee.isLeaf { return node.plan.pointee.passesInlineChecks(value) }
        let savedDepth = referenceDepth
        referenceDepth = 0
        if reportsErrors {
            instancePath.append(InstanceStep(token: key ?? String(ordinal), isIndex: key == nil, ordinal: ordinal))
        }
        let valid: Bool
        if node.isFalse {
            if reportsErrors { reportHere(keyword, node, refusal.message(key ?? String(ordinal))) }
            valid = false
        } else {
            valid = evaluate(node, value, &annotations, collecting: false)
        }
        if reportsErrors { instancePath.removeLast() }
        referenceDepth = savedDepth
        return valid
    }

    /// Evaluates `node` with errors switched off (for `if`, `not`, `contains`).
    mutating func evaluateSilently(
        _ node: SchemaNode, _ instance: JSONValue, _ annotations: inout Annotations, collecting: Bool
    ) -> Bool {
        let saved = reportsErrors
        reportsErrors = false
        defer { reportsErrors = saved }
        return evaluate(node, instance, &annotations, collecting: collecting)
    }

    /// Follows a `$ref` or `$dynamicRef` to `target`.
    mutating func follow(
        _ target: SchemaNode, keyword: String, from node: SchemaNode, _ instance: JSONValue,
        _ annotations: inout Annotations, collecting: Bool
    ) -> Bool {
        if referenceDepth >= referenceLimit {
            if reportsErrors {
                report(keyword, node, "the schema loops through `\(keyword)` without ever applying to a smaller part of \(subject)")
            }
            return false
        }
        referenceDepth += 1
        var enteredScope = false
        if tracksDynamicScope, !target.isResourceRoot, dynamicScope.last !== target.resource {
            dynamicScope.append(target.resource)
            enteredScope = true
        }
        if reportsErrors { keywordPath.append(keyword) }
        let valid = evaluate(target, instance, &annotations, collecting: collecting)
        if reportsErrors { keywordPath.removeLast() }
        if enteredScope { dynamicScope.removeLast() }
        referenceDepth -= 1
        return valid
    }

    // MARK: Reporting

    /// Records an error for `keyword` of `node` at the current instance location.
    mutating func report(_ keyword: String, _ node: SchemaNode, _ message: String, expectedTypes: TypeSet? = nil) {
        var location = ""
        for token in keywordPath { location += "/" + token }
        location += "/" + keyword
        errors.append(PendingError(
            instancePath: instancePath, keywordLocation: location,
            absoluteKeywordLocation: node.absoluteLocation.map { $0 + "/" + keyword },
            keyword: keyword, message: message, expectedTypes: expectedTypes))
    }

    /// Records an error whose keyword location is the current path itself (a `false` subschema).
    mutating func reportHere(_ keyword: String, _ node: SchemaNode, _ message: String) {
        var location = ""
        for token in keywordPath { location += "/" + token }
        errors.append(PendingError(
            instancePath: instancePath, keywordLocation: location, absoluteKeywordLocation: node.absoluteLocation,
            keyword: keyword, message: message))
    }

    /// How messages name the current value: `` `age` ``, `` `options[2]` ``, `item 3`, or `the value`.
    var subject: String {
        guard let last = instancePath.last else { return "the value" }
        if namingProperty { return "property name `\(last.token)`" }
        if last.isIndex {
            if instancePath.count >= 2, !instancePath[instancePath.count - 2].isIndex {
                return "`\(instancePath[instancePath.count - 2].token)[\(last.token)]`"
            }
            return "item \(last.token)"
        }
        return "`\(last.token)`"
    }

    /// The recorded errors in instance document order, then keyword order.
    func orderedErrors() -> [ValidationError] {
        let indexed = errors.enumerated().map { ($0.offset, $0.element) }
        let sorted = indexed.sorted { lhs, rhs in
            let left = lhs.1.instancePath, right = rhs.1.instancePath
            for (a, b) in zip(left, right) where a.ordinal != b.ordinal { return a.ordinal < b.ordinal }
            if left.count != right.count { return left.count < right.count }
            return lhs.0 < rhs.0
        }
        return sorted.map(\.1.published)
    }
}
