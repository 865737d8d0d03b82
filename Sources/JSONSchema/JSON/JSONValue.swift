/// A JSON document or any part of one.
///
/// Numbers are kept as `Double`, which is what JSON Schema's numeric keywords
/// reason about; `1` and `1.0` are the same value. Objects keep their members in
/// source order (for readable output and stable error order) but compare as
/// unordered maps.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

extension JSONValue {
    /// The JSON type name used in messages: `null`, `boolean`, `integer`,
    /// `number`, `string`, `array` or `object`.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number(let value): return value.isWholeNumber ? "integer" : "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The value as an `Int` when it is a whole number that fits.
    public var intValue: Int? {
        guard case .number(let value) = self, value.isWholeNumber,
              value >= -9_007_199_254_740_992, value <= 9_007_199_254_740_992 else { return nil }
        return Int(value)
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The member named `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// The element at `index` when this is an array and the index is in range.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// A short, single-line rendering of the value for error messages,
    /// truncated to about `limit` characters.
    public func preview(limit: Int = 60) -> String {
        let text = serialized()
        guard text.count > limit else { return text }
        return String(text.prefix(limit)) + "…"
    }
}

extension Double {
    /// True for finite numbers with no fractional part (JSON Schema's "integer").
    public var isWholeNumber: Bool {
        isFinite && rounded(.towardZero) == self
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { serialized() }
}
