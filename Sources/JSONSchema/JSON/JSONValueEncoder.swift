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
/// so it is a reference.
private final class EncodingBox {
    enum Kind { case empty, value, object, array }

    private(set) var kind = Kind.empty
    private var value = JSONValue.null
    private var keys: [String] = []
    private var members: [String: EncodingBox] = [:]
    private var elements: [EncodingBox] = []

    var json: JSONValue {
        switch kind {
        case .empty: return .object(JSONObject())
        case .value: return value
        case .object: return .object(JSONObject(keys.map { .init(key: $0, value: members[$0]!.json) }))
        case .array: return .array(elements.map(\.json))
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
        members = [:]
    }

    func becomeArray() {
        guard kind != .array else { return }
        kind = .array
        elements = []
    }

    func store<T: Encodable>(_ value: T, codingPath: [CodingKey]) throws {
        switch value {
        case let json as JSONValue: set(json)
        case let date as Date: set(.string(date.formatted(.iso8601)))
        default: try value.encode(to: TreeEncoder(box: self, codingPath: codingPath))
        }
    }

    /// The box for `key`, made when first asked for.
    func child(_ key: String) -> EncodingBox {
        becomeObject()
        if let existing = members[key] { return existing }
        let box = EncodingBox()
        keys.append(key)
        members[key] = box
        return box
    }

    func appendElement() -> EncodingBox {
        becomeArray()
        let box = EncodingBox()
        elements.append(box)
        return box
    }

    var elementCount: Int { elements.count }
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

    mutating func encodeNil(forKey key: Key) { encoder(for: key).encodeNil() }
    mutating func encode(_ value: Bool, forKey key: Key) { encoder(for: key).encode(value) }
    mutating func encode(_ value: String, forKey key: Key) { encoder(for: key).encode(value) }
    mutating func encode(_ value: Double, forKey key: Key) { encoder(for: key).encode(value) }
    mutating func encode(_ value: Float, forKey key: Key) { encoder(for: key).encode(value) }
    mutating func encode(_ value: Int, forKey key: Key) { encoder(for: key).encode(value) }
    mutating func encode(_ value: Int8, forKey key: Key) { encoder(for: key).encode(value) }
    mutating func encode(_ value: Int16, forKey key: Key) { encoder(for: key).encode(value) }
    mutating func encode(_ value: Int32, forKey key: Key) { encoder(for: key).encode(value) }
    mutating func encode(_ value: Int64, forKey key: Key) { encoder(for: key).encode(value) }
    mutating func encode(_ value: UInt, forKey key: Key) { encoder(for: key).encode(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) { encoder(for: key).encode(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) { encoder(for: key).encode(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) { encoder(for: key).encode(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) { encoder(for: key).encode(value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encoder(for: key).encode(value) }

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

    mutating func encodeNil() { next().encodeNil() }
    mutating func encode(_ value: Bool) { next().encode(value) }
    mutating func encode(_ value: String) { next().encode(value) }
    mutating func encode(_ value: Double) { next().encode(value) }
    mutating func encode(_ value: Float) { next().encode(value) }
    mutating func encode(_ value: Int) { next().encode(value) }
    mutating func encode(_ value: Int8) { next().encode(value) }
    mutating func encode(_ value: Int16) { next().encode(value) }
    mutating func encode(_ value: Int32) { next().encode(value) }
    mutating func encode(_ value: Int64) { next().encode(value) }
    mutating func encode(_ value: UInt) { next().encode(value) }
    mutating func encode(_ value: UInt8) { next().encode(value) }
    mutating func encode(_ value: UInt16) { next().encode(value) }
    mutating func encode(_ value: UInt32) { next().encode(value) }
    mutating func encode(_ value: UInt64) { next().encode(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try next().encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        next().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer { next().unkeyedContainer() }
    mutating func superEncoder() -> Encoder { next() }
}
