import Foundation

/// Decodes `Decodable` types from JSON text through `JSONParser`, or straight
/// from a `JSONValue`.
///
/// It does what Foundation's `JSONDecoder` does for the project's own files
/// (recordings, golden entries, reports) several times faster, and a
/// `JSONValue` property is taken from the parsed tree whole instead of being
/// rebuilt value by value. Errors are ordinary `DecodingError`s with their coding path.
public struct JSONValueDecoder: Sendable {
    /// Reads `snake_case` keys into `camelCase` properties, as `JSONDecoder`'s `.convertFromSnakeCase` does.
    public var convertsFromSnakeCase: Bool

    public init(convertsFromSnakeCase: Bool = false) {
        self.convertsFromSnakeCase = convertsFromSnakeCase
    }

    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decode(type, from: try JSONParser.parse(data))
    }

    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try TreeDecoder(value: value, codingPath: [], convertsFromSnakeCase: convertsFromSnakeCase).decodeValue(type)
    }

    /// `first_name` → `firstName`; leading and trailing underscores are kept. Each word
    /// after the first is capitalized (its first letter upper case, the rest lower case).
    public static func camelCase(_ key: String) -> String {
        guard key.utf8.contains(UInt8(ascii: "_")) else { return key }
        if let ascii = asciiCamelCase(key) { return ascii }
        let core = key.drop { $0 == "_" }
        guard let lastLetter = core.lastIndex(where: { $0 != "_" }) else { return key }
        let leading = key[..<core.startIndex], trailing = core[core.index(after: lastLetter)...]
        let words = core[...lastLetter].split(separator: "_")
        let joined = words.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.capitalized }.joined()
        return leading + joined + trailing
    }
}

extension JSONValueDecoder {
    /// `camelCase(_:)` byte by byte, for the ASCII keys every file of the project uses; nil for any other key.
    static func asciiCamelCase(_ key: String) -> String? {
        let bytes = Array(key.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        let underscore = UInt8(ascii: "_")
        guard let first = bytes.firstIndex(where: { $0 != underscore }), let last = bytes.lastIndex(where: { $0 != underscore }) else { return key }
        var result = Array(bytes[..<first])
        var word = 0
        var index = first
        while index <= last {
            guard bytes[index] != underscore else {
                index += 1
                continue
            }
            var end = index
            while end <= last, bytes[end] != underscore { end += 1 }
            for position in index..<end {
                let byte = bytes[position]
                let isUpper = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
                let isLower = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
                if word == 0 {
                    result.append(byte)
                } else if position == index {
                    result.append(isLower ? byte - 32 : byte)
                } else {
                    result.append(isUpper ? byte + 32 : byte)
                }
            }
            word += 1
            index = end
        }
        result += bytes[(last + 1)...]
        return String(decoding: result, as: UTF8.self)
    }
}

/// A type `JSONValueDecoder` reads straight from the parsed value, without `Decoder`'s
/// containers: one decoded by the hundred thousand (a large run's check results).
/// Other decoders use its `Decodable` conformance, which must read the same members.
public protocol JSONValueReadable: Decodable {
    /// Nil when `json` is not what `Decodable` reads: the decoder then decodes it
    /// through `Decodable`, whose error says what is wrong.
    init?(json: JSONValue)
}

extension JSONValue {
    /// An optional member as `Decodable`'s `decodeIfPresent` reads it, for `JSONValueReadable`
    /// types: absent or null is `.some(nil)`; a value `read` cannot take is nil.
    public static func readIfPresent<Value>(_ member: JSONValue?, _ read: (JSONValue) -> Value?) -> Value?? {
        guard let member, member != .null else { return .some(nil) }
        return read(member).map { .some($0) }
    }
}

/// Reads ISO 8601 timestamps such as `2026-11-20T14:03:11Z`, as `JSONEncoder`'s `.iso8601` writes them.
private let timestampStyle = Date.ISO8601FormatStyle()

private struct TreeDecoder: Decoder {
    let value: JSONValue
    let codingPath: [CodingKey]
    let convertsFromSnakeCase: Bool
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(var object) = value else { throw mismatch([String: JSONValue].self) }
        if convertsFromSnakeCase, object.members.contains(where: { $0.key.utf8.contains(UInt8(ascii: "_")) }) {
            object = JSONObject(object.members.map { .init(key: JSONValueDecoder.camelCase($0.key), value: $0.value) })
        }
        return KeyedDecodingContainer(KeyedContainer(object: object, codingPath: codingPath, convertsFromSnakeCase: convertsFromSnakeCase))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([JSONValue].self) }
        return UnkeyedContainer(elements: elements, codingPath: codingPath, convertsFromSnakeCase: convertsFromSnakeCase)
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer { self }

    func mismatch(_ expected: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(
            expected,
            .init(codingPath: codingPath, debugDescription: "Expected \(expected) but found \(value.typeName) instead."))
    }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == JSONValue.self { return value as! T }
        if let readable = T.self as? any JSONValueReadable.Type, let read = readable.init(json: value) { return read as! T }
        if T.self == Date.self {
            guard case .string(let text) = value else { throw mismatch(String.self) }
            guard let date = try? timestampStyle.parse(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Expected date string to be ISO8601-formatted."))
            }
            return date as! T
        }
        return try T(from: self)
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard case .number(let number) = value else { throw mismatch(type) }
        guard number.isWholeNumber, let exact = T(exactly: number) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Parsed JSON number <\(number)> does not fit in \(type)."))
        }
        return exact
    }
}

extension TreeDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(type) }
        return bool
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let string) = value else { throw mismatch(type) }
        return string
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard case .number(let number) = value else { throw mismatch(type) }
        return number
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let codingPath: [CodingKey]
    let convertsFromSnakeCase: Bool

    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    private func child(_ key: Key) throws -> TreeDecoder {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue)."))
        }
        return TreeDecoder(value: value, codingPath: codingPath + [key], convertsFromSnakeCase: convertsFromSnakeCase)
    }

    // Strings, booleans and numbers of the expected kind are read straight from the
    // member: a child decoder, and its coding path, are built only to report a mismatch.
    func decodeNil(forKey key: Key) throws -> Bool { try child(key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        if case .bool(let bool)? = object[key.stringValue] { return bool }
        return try child(key).decode(type)
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        if case .string(let string)? = object[key.stringValue] { return string }
        return try child(key).decode(type)
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        if case .number(let number)? = object[key.stringValue] { return number }
        return try child(key).decode(type)
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try child(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).decode(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        if T.self == String.self, case .string(let string)? = object[key.stringValue] { return string as! T }
        return try child(key).decodeValue(type)
    }

    // One look-up each, where the protocol's defaults ask `contains`, `decodeNil` and `decode` in turn.
    private func isAbsent(_ key: Key) -> Bool {
        switch object[key.stringValue] {
        case nil, .null?: return true
        default: return false
        }
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { isAbsent(key) ? nil : try decode(type, forKey: key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { isAbsent(key) ? nil : try decode(type, forKey: key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { isAbsent(key) ? nil : try decode(type, forKey: key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { isAbsent(key) ? nil : try decode(type, forKey: key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { isAbsent(key) ? nil : try decode(type, forKey: key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer { try child(key).unkeyedContainer() }
    func superDecoder() throws -> Decoder {
        TreeDecoder(value: .object(object), codingPath: codingPath, convertsFromSnakeCase: convertsFromSnakeCase)
    }
    func superDecoder(forKey key: Key) throws -> Decoder { try child(key) }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [CodingKey]
    let convertsFromSnakeCase: Bool
    private(set) var currentIndex = 0

    init(elements: [JSONValue], codingPath: [CodingKey], convertsFromSnakeCase: Bool) {
        self.elements = elements
        self.codingPath = codingPath
        self.convertsFromSnakeCase = convertsFromSnakeCase
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> TreeDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                JSONValue.self, .init(codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "Unkeyed container is at end."))
        }
        defer { currentIndex += 1 }
        return TreeDecoder(
            value: elements[currentIndex], codingPath: codingPath + [IndexKey(currentIndex)], convertsFromSnakeCase: convertsFromSnakeCase)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next().decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next().decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next().decode(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next().decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next().decode(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().decode(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().decode(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().decode(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().decode(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next().decode(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().decode(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().decode(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().decode(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().decode(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> Decoder { try next() }
}

/// The coding-path entry for an array element, named as Foundation names it (`Index 2`).
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

extension DecodingError {
    /// Where decoding stopped and why, as a path and a sentence:
    /// `interactions[0].response.latency: Expected Double but found string instead.`
    public var location: String {
        let context: Context?
        switch self {
        case .typeMismatch(_, let found), .valueNotFound(_, let found), .dataCorrupted(let found): context = found
        case .keyNotFound(let key, let found):
            return JSONPointer(tokens: Self.tokens(found.codingPath)).dottedPath + ": missing `\(key.stringValue)`"
        @unknown default: context = nil
        }
        guard let context else { return "\(self)" }
        return JSONPointer(tokens: Self.tokens(context.codingPath)).dottedPath + ": " + context.debugDescription
    }

    private static func tokens(_ path: [CodingKey]) -> [String] {
        path.map { $0.intValue.map(String.init) ?? $0.stringValue }
    }
}
