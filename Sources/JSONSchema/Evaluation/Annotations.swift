/// What adjacent keywords have evaluated, for `unevaluatedProperties` and
/// `unevaluatedItems`. Collected only under schemas that use those keywords.
struct Annotations {
    var allProperties = false
    /// Members evaluated by name; nil until the first one (keeps the empty case free).
    var properties: Set<String>?
    var allItems = false
    /// Items `0..<itemPrefix` were evaluated (by `prefixItems`).
    var itemPrefix = 0
    /// Items evaluated individually (matched by `contains`).
    var items: Set<Int>?

    mutating func merge(_ other: Annotations) {
        allProperties = allProperties || other.allProperties
        if let more = other.properties { properties = properties.map { $0.union(more) } ?? more }
        allItems = allItems || other.allItems
        itemPrefix = max(itemPrefix, other.itemPrefix)
        if let more = other.items { items = items.map { $0.union(more) } ?? more }
    }

    mutating func insertProperty(_ name: String) {
        if properties == nil { properties = [name] } else { properties!.insert(name) }
    }

    mutating func insertItem(_ index: Int) {
        if items == nil { items = [index] } else { items!.insert(index) }
    }

    func hasEvaluated(property name: String) -> Bool {
        allProperties || properties?.contains(name) == true
    }

    func hasEvaluated(item index: Int) -> Bool {
        allItems || index < itemPrefix || items?.contains(index) == true
    }
}

/// One step into the instance, kept only while errors are being reported.
struct InstanceStep {
    let token: String
    let isIndex: Bool
    /// The member's or element's position, for ordering errors by document order.
    let ordinal: Int
}

/// An error as the evaluator records it, before it is ordered and published.
struct PendingError {
    let instancePath: [InstanceStep]
    let keywordLocation: String
    let absoluteKeywordLocation: String?
    let keyword: String
    let message: String
    /// For `type` errors: the types the schema wanted (lets `anyOf` merge them).
    var expectedTypes: TypeSet?

    var published: ValidationError {
        ValidationError(
            instanceLocation: JSONPointer(tokens: instancePath.map(\.token)), keywordLocation: keywordLocation,
            absoluteKeywordLocation: absoluteKeywordLocation, keyword: keyword, message: message)
    }
}
