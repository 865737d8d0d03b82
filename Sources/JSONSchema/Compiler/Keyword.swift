/// One compiled keyword (or a group of keywords evaluated together, such as
/// `properties` + `patternProperties` + `additionalProperties`).
///
/// Every payload is a plain value or an unowned reference (the schema owns the
/// objects), so copying a keyword costs no reference counting.
enum Keyword {
    case type(TypeSet)
    case enumeration(Unowned<EnumValues>)
    case constant(Unowned<Constant>)
    case multipleOf(Double)
    case minimum(Double)
    case maximum(Double)
    case exclusiveMinimum(Double)
    case exclusiveMaximum(Double)
    case minLength(Int)
    case maxLength(Int)
    case pattern(Unowned<Pattern>)
    case format(StringFormat)
    case minItems(Int)
    case maxItems(Int)
    case uniqueItems
    case elements(Unowned<ElementApplicator>)
    case contains(Unowned<ContainsApplicator>)
    case unevaluatedItems(Unowned<SchemaNode>)
    case minProperties(Int)
    case maxProperties(Int)
    case required(Unowned<Names>)
    case dependentRequired(Unowned<DependentRequirements>)
    case dependentSchemas(Unowned<DependentSchemas>)
    case members(Unowned<MemberApplicator>)
    case propertyNames(Unowned<SchemaNode>)
    case unevaluatedProperties(Unowned<SchemaNode>)
    case ref(Unowned<NodeReference>)
    case dynamicRef(Unowned<NodeReference>)
    case allOf(Unowned<NodeList>)
    case anyOf(Unowned<NodeList>)
    case oneOf(Unowned<NodeList>)
    case not(Unowned<SchemaNode>)
    case conditional(Unowned<Conditional>)

    /// Which instances a keyword can reject.
    enum Category {
        case any, number, string, array, object
    }

    var category: Category {
        switch self {
        case .multipleOf, .minimum, .maximum, .exclusiveMinimum, .exclusiveMaximum: return .number
        case .minLength, .maxLength, .pattern, .format: return .string
        case .minItems, .maxItems, .uniqueItems, .elements, .contains, .unevaluatedItems: return .array
        case .minProperties, .maxProperties, .required, .dependentRequired, .dependentSchemas, .members,
             .propertyNames, .unevaluatedProperties:
            return .object
        case .type, .enumeration, .constant, .ref, .dynamicRef, .allOf, .anyOf, .oneOf, .not, .conditional:
            return .any
        }
    }
}

/// A reference that costs no reference counting to copy; the schema keeps the object alive.
struct Unowned<Object: AnyObject> {
    unowned(unsafe) let object: Object

    init(_ object: Object) {
        self.object = object
    }
}

/// The JSON types a `type` keyword allows.
struct TypeSet: OptionSet, Sendable {
    let rawValue: UInt8

    static let null = TypeSet(rawValue: 1 << 0)
    static let boolean = TypeSet(rawValue: 1 << 1)
    static let integer = TypeSet(rawValue: 1 << 2)
    static let number = TypeSet(rawValue: 1 << 3)
    static let string = TypeSet(rawValue: 1 << 4)
    static let array = TypeSet(rawValue: 1 << 5)
    static let object = TypeSet(rawValue: 1 << 6)
    static let all = TypeSet(rawValue: (1 << 7) - 1)

    static let names: [(String, TypeSet)] = [
        ("null", .null), ("boolean", .boolean), ("integer", .integer), ("number", .number),
        ("string", .string), ("array", .array), ("object", .object),
    ]

    init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The type named `name` in a schema (`number` also admits integers).
    init?(name: String) {
        guard let entry = Self.names.first(where: { $0.0 == name }) else { return nil }
        self = entry.1 == .number ? [.number, .integer] : entry.1
    }

    /// The types `value` belongs to (a whole number is both integer and number).
    @inline(__always)
    static func of(_ value: JSONValue) -> TypeSet {
        switch value {
        case .null: return .null
        case .bool: return .boolean
        case .number(let number): return number.isWholeNumber ? [.integer, .number] : .number
        case .string: return .string
        case .array: return .array
        case .object: return .object
        }
    }

    /// `string or null`, in the schema's own words.
    var phrase: String {
        var words: [String] = []
        for (name, type) in Self.names {
            if type == .integer, contains(.number) { continue }
            if contains(type) { words.append(name) }
        }
        if words.count <= 2 { return words.joined(separator: " or ") }
        return words.dropLast().joined(separator: ", ") + " or " + words.last!
    }
}
