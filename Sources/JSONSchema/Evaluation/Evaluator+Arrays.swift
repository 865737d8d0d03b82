extension Evaluator {
    /// Keywords that apply to arrays.
    mutating func evaluateArray(
        _ keyword: Keyword, _ node: SchemaNode, _ items: [JSONValue], _ annotations: inout Annotations,
        _ collecting: Bool
    ) -> Bool {
        switch keyword {
        case .minItems(let limit):
            if items.count >= limit { return true }
            if reportsErrors { report("minItems", node, "\(subject) has \(Describe.count(items.count, "item")); at least \(limit) required") }
            return false
        case .maxItems(let limit):
            if items.count <= limit { return true }
            if reportsErrors { report("maxItems", node, "\(subject) has \(Describe.count(items.count, "item")); at most \(limit) allowed") }
            return false
        case .uniqueItems:
            guard let (first, second) = Self.firstDuplicate(items) else { return true }
            if reportsErrors {
                report("uniqueItems", node, "\(subject) has duplicate items at \(first) and \(second) (\(items[first].preview(limit: 40))); items must be unique")
            }
            return false
        case .elements(let elements):
            return evaluateElements(elements.object, items, &annotations, collecting)
        case .contains(let contains):
            return evaluateContains(contains.object, in: node, items, &annotations, collecting)
        case .unevaluatedItems(let schema):
            guard !annotations.allItems else { return true }
            var valid = true
            if reportsErrors { keywordPath.append("unevaluatedItems") }
            for index in items.indices where !annotations.hasEvaluated(item: index) {
                let passed = evaluateChild(
                    schema.object, items[index], key: nil, ordinal: index, keyword: "unevaluatedItems",
                    refusal: .extraItem(allowed: nil), &annotations)
                if !passed {
                    valid = false
                    if !reportsErrors { break }
                }
            }
            if reportsErrors { keywordPath.removeLast() }
            annotations.allItems = true
            return valid
        default:
            return true
        }
    }

    private mutating func evaluateElements(
        _ elements: ElementApplicator, _ items: [JSONValue], _ annotations: inout Annotations, _ collecting: Bool
    ) -> Bool {
        items.withUnsafeBufferPointer { items in
            var valid = true
            let prefixCount = elements.prefix.count
            for index in items.indices {
                let passed: Bool
                if index < prefixCount {
                    if reportsErrors { keywordPath += ["prefixItems", String(index)] }
                    passed = evaluateChild(
                        elements.prefix[index].object, items[index], key: nil, ordinal: index, keyword: "prefixItems",
                        refusal: .item, &annotations)
                    if reportsErrors { keywordPath.removeLast(2) }
                } else if let rest = elements.rest {
                    if reportsErrors { keywordPath.append("items") }
                    passed = evaluateChild(
                        rest.object, items[index], key: nil, ordinal: index, keyword: "items",
                        refusal: .extraItem(allowed: prefixCount), &annotations)
                    if reportsErrors { keywordPath.removeLast() }
                } else {
                    break
                }
                if !passed {
                    valid = false
                    if !reportsErrors { return false }
                }
            }
            if collecting {
                if elements.rest != nil {
                    annotations.allItems = true
                } else {
                    annotations.itemPrefix = max(annotations.itemPrefix, min(prefixCount, items.count))
                }
            }
            return valid
        }
    }

    private mutating func evaluateContains(
        _ contains: ContainsApplicator, in node: SchemaNode, _ items: [JSONValue],
        _ annotations: inout Annotations, _ collecting: Bool
    ) -> Bool {
        var matches = 0
        for index in items.indices {
            let savedDepth = referenceDepth
            referenceDepth = 0
            let passed = evaluateSilently(contains.schema.object, items[index], &annotations, collecting: false)
            referenceDepth = savedDepth
            guard passed else { continue }
            matches += 1
            if collecting {
                annotations.insertItem(index)
            } else if let maximum = contains.maximum {
                if matches > maximum, !reportsErrors { break }
            } else if matches >= contains.minimum {
                break
            }
        }
        if matches < contains.minimum {
            if reportsErrors {
                if contains.minimum == 1 {
                    report("contains", node, "\(subject) has no item matching the `contains` schema")
                } else {
                    report("minContains", node, "\(subject) has \(Describe.count(matches, "matching item")); at least \(contains.minimum) required")
                }
            }
            return false
        }
        if let maximum = contains.maximum, matches > maximum {
            if reportsErrors { report("maxContains", node, "\(subject) has \(matches) matching items; at most \(maximum) allowed") }
            return false
        }
        return true
    }

    static func firstDuplicate(_ items: [JSONValue]) -> (Int, Int)? {
        guard items.count > 1 else { return nil }
        if items.count <= 16 {
            for second in 1..<items.count {
                for first in 0..<second where items[first].isIdentical(to: items[second]) { return (first, second) }
            }
            return nil
        }
        // Hashing groups canonically equal values; each group is then compared exactly.
        var seen: [JSONValue: [Int]] = [:]
        for (position, item) in items.enumerated() {
            if let earlier = seen[item]?.first(where: { items[$0].isIdentical(to: item) }) { return (earlier, position) }
            seen[item, default: []].append(position)
        }
        return nil
    }
}
