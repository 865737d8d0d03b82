import Foundation

/// Encodes `Encodable` types into a `JSONValue`, to be written by `serialized`.
///
/// The counterpart of `JSONValueDecoder`: what Foundation's `JSONEncoder` does for
/// the project's own files, several times faster on large reports. Absent
/// optionals are left out, dates are ISO 8601 (`2026-11-20T14:03:11Z`) and a
/// `JSONValue` property is taken as it is.
public struct JSONValueEncoder: Sendable {
    public init() {}

    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let root = EncodingBox()
        try root.store(value, codingPath: [])
        return root.json
    }
}

/// A value being built: encoders hand out containers that write into it later,
/// so it is a reference. Plain values go straight into their parent; only nested
/// objects and arrays get a box of their own.
private final class EncodingBox {
    enum Kind { case empty, value, object, array }

    /// A member or element: finished, or still being filled in through a container.
    enum Slot {
        case value(JSONValue)
        case box(EncodingBox)

        var json: JSONValue {
            switch self {
            case .value(let value): return value
            case .box(let box): return box.json
            }
        }
    }

    private(set) var kind = Kind.empty
    private var value = JSONValue.null
    private var keys: [String] = []
    private var slots: [Slot] = []

    var json: JSONValue {
        switch kind {
        case .empty: return .object(JSONObject())
        case .value: return value
        // `setMember` and `child` never repeat a key.
        case .object: return .object(JSONObject(uniqueMembers: zip(keys, slots).map { .init(key: $0, value: $1.json) }))
        case .array: return .array(slots.map(\.json))
        }
    }

    func set(_ value: JSONValue) {
        kind = .value
        self.value = value
    }

    func becomeObject() {
        guard kind != .object else { return }
        kind = .object
        keys = []
        slots = []
    }

    func becomeArray() {
        guard kind != .array else { return }
        kind = .array
        slots = []
    }

    func store<T: Encodable>(_ value: T, codingPath: [CodingKey]) throws {
        switch value {
        case let json as JSONValue: set(json)
        case let date as Date: set(Self.timestamp(date))
        default: try value.encode(to: TreeEncoder(box: self, codingPath: codingPath))
        }
    }

    static func timestamp(_ date: Date) -> JSONValue { .string(date.formatted(.iso8601)) }

    /// Where `key`'s member goes: a key written twice keeps its first place, as in `JSONEncoder`.
    private func memberIndex(_ key: String) -> Int? {
        becomeObject()
        return keys.lastIndex(of: key)
    }

    func setMember(_ key: String, _ value: JSONValue) {
        if let index = memberIndex(key) {
            slots[index] = .value(value)
        } else {
            keys.append(key)
            slots.append(.value(value))
        }
    }

    /// The box for `key`, made when first asked for.
    func child(_ key: String) -> EncodingBox {
        if let index = memberIndex(key) {
            if case .box(let existing) = slots[index] { return existing }
            let box = EncodingBox()
            slots[index] = .box(box)
            return box
        }
        let box = EncodingBox()
        keys.append(key)
        slots.append(.box(box))
        return box
    }

    func appendElement(_ value: JSONValue) {
        becomeArray()
        slots.append(.value(value))
    }

    func appendElement() -> EncodingBox {
        becomeArray()
        let box = EncodingBox()
        slots.append(.box(box))
        return box
    }

    var elementCount: Int { slots.count }
}

private struct TreeEncoder: Encoder {
    let box: EncodingBox
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        box.becomeObject()
        return KeyedEncodingContainer(KeyedContainer(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        box.becomeArray()
        return UnkeyedContainer(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> SingleValueEncodingContainer { self }
}

extension TreeEncoder: SingleValueEncodingContainer {
    func encodeNil() { box.set(.null) }
    func encode(_ value: Bool) { box.set(.bool(value)) }
    func encode(_ value: String) { box.set(.string(value)) }
    func encode(_ value: Double) { box.set(.number(value)) }
    func encode(_ value: Float) { box.set(.number(Double(value))) }
    func encode(_ value: Int) { box.set(.number(Double(value))) }
    func encode(_ value: Int8) { box.set(.number(Double(value))) }
    func encode(_ value: Int16) { box.set(.number(Double(value))) }
    func encode(_ value: Int32) { box.set(.number(Double(value))) }
    func encode(_ value: Int64) { box.set(.number(Double(value))) }
    func encode(_ value: UInt) { box.set(.number(Double(value))) }
    func encode(_ value: UInt8) { box.set(.number(Double(value))) }
    func encode(_ value: UInt16) { box.set(.number(Double(value))) }
    func encode(_ value: UInt32) { box.set(.number(Double(value))) }
    func encode(_ value: UInt64) { box.set(.number(Double(value))) }
    func encode<T: Encodable>(_ value: T) throws { try box.store(value, codingPath: codingPath) }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: EncodingBox
    let codingPath: [CodingKey]

    private func encoder(for key: Key) -> TreeEncoder {
        TreeEncoder(box: box.child(key.stringValue), codingPath: codingPath + [key])
    }

    mutating func encodeNil(forKey key: Key) { box.setMember(key.stringValue, .null) }
    mutating func encode(_ value: Bool, forKey key: Key) { box.setMember(key.stringValue, .bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) { box.setMember(key.stringValue, .string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) { box.setMember(key.stringValue, .number(value)) }
    mutating func encode(_ value: Float, forKey key: Key) { box.setMember(key.stringValue, .number(Double(value))) }
    mutating func encode(_ value: Int, forKey key: Key) { box.setMember(key.stringValue, .number(Double(value))) }
    mutating func encode(_ value: Int8, forKey key: Key) { box.setMember(key.stringValue, .number(Double(value))) }
    mutating func encode(_ value: Int16, forKey key: Key) { box.setMember(key.stringValue, .number(Double(value))) }
    mutating func encode(_ value: Int32, forKey key: Key) { box.setMember(key.stringValue, .number(Double(value))) }
    mutating func encode(_ value: Int64, forKey key: Key) { box.setMember(key.stringValue, .number(Double(value))) }
    mutating func encode(_ value: UInt, forKey key: Key) { box.setMember(key.stringValue, .number(Double(value))) }
    mutating func encode(_ value: UInt8, forKey key: Key) { box.setMember(key.stringValue, .number(Double(value))) }
    mutating func encode(_ value: UInt16, forKey key: Key) { box.setMember(key.stringValue, .number(Double(value))) }
    mutating func encode(_ value: UInt32, forKey key: Key) { box.setMember(key.stringValue, .number(Double(value))) }
    mutating func encode(_ value: UInt64, forKey key: Key) { box.setMember(key.stringValue, .number(Double(value))) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        switch value {
        case let string as String: box.setMember(key.stringValue, .string(string))
        case let json as JSONValue: box.setMember(key.stringValue, json)
        case let date as Date: box.setMember(key.stringValue, EncodingBox.timestamp(date))
        default: try encoder(for: key).encode(value)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        encoder(for: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer { encoder(for: key).unkeyedContainer() }
    mutating func superEncoder() -> Encoder { TreeEncoder(box: box.child("super"), codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> Encoder { encoder(for: key) }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let box: EncodingBox
    let codingPath: [CodingKey]
    var count: Int { box.elementCount }

    private func next() -> TreeEncoder {
        let index = box.elementCount
        return TreeEncoder(box: box.appendElement(), codingPath: codingPath + [IndexKey(index)])
    }

    mutating func encodeNil() { box.appendElement(.null) }
    mutating func encode(_ value: Bool) { box.appendElement(.bool(value)) }
    mutating func encode(_ value: String) { box.appendElement(.string(value)) }
    mutating func encode(_ value: Double) { box.appendElement(.number(value)) }
    mutating func encode(_ value: Float) { box.appendElement(.number(Double(value))) }
    mutating func encode(_ value: Int) { box.appendElement(.number(Double(value))) }
    mutating func encode(_ value: Int8) { box.appendElement(.number(Double(value))) }
    mutating func encode(_ value: Int16) { box.appendElement(.number(Double(value))) }
    mutating func encode(_ value: Int32) { box.appendElement(.number(Double(value))) }
    mutating func encode(_ value: Int64) { box.appendElement(.number(Double(value))) }
    mutating func encode(_ value: UInt) { box.appendElement(.number(Double(value))) }
    mutating func encode(_ value: UInt8) { box.appendElement(.number(Double(value))) }
    mutating func encode(_ value: UInt16) { box.appendElement(.number(Double(value))) }
    mutating func encode(_ value: UInt32) { box.appendElement(.number(Double(value))) }
    mutating func encode(_ value: UInt64) { box.appendElement(.number(Double(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        switch value {
        case let string as String: box.appendElement(.string(string))
        case let json as JSONValue: box.appendElement(json)
        default: try next().encode(value)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        next().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer { next().unkeyedContainer() }
    mutating func superEncoder() -> Encoder { next() }
}
