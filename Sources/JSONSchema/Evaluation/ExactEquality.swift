import Foundation

extension String {
    /// The same code points. Swift's `==` also equates canonically equivalent
    /// strings ("ñ" and "n" + U+0303), which JSON Schema keeps apart.
    @inline(__always)
    func hasSameScalars(as other: String) -> Bool {
        let left = utf8, right = other.utf8
        guard left.count == right.count else { return false }
        let fast = left.withContiguousStorageIfAvailable { leftBytes in
            right.withContiguousStorageIfAvailable { rightBytes in
                leftBytes.count == 0 || bytesEqual(leftBytes.baseAddress!, rightBytes.baseAddress!, count: leftBytes.count)
            }
        }
        if let fast, let result = fast { return result }
        return left.elementsEqual(right)
    }
}

/// Whether the `count` bytes at `left` and `right` are equal, compared inline a
/// word at a time: the strings schemas compare are short, and calling `memcmp`
/// costs more than comparing them.
@inline(__always)
func bytesEqual(_ left: UnsafeRawPointer, _ right: UnsafeRawPointer, count: Int) -> Bool {
    var offset = 0
    while offset + 8 <= count {
        let a = left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        let b = right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        if a != b { return false }
        offset += 8
    }
    while offset < count {
        if left.load(fromByteOffset: offset, as: UInt8.self) != right.load(fromByteOffset: offset, as: UInt8.self) { return false }
        offset += 1
    }
    return true
}

extension String {
    /// The number of Unicode code points, which is what `minLength` and
    /// `maxLength` count (not UTF-16 units, not grapheme clusters).
    @inline(__always)
    var codePointCount: Int {
        let counted = utf8.withContiguousStorageIfAvailable { bytes -> Int in
            var count = 0
            for byte in bytes where byte & 0xC0 != 0x80 { count += 1 }
            return count
        }
        return counted ?? unicodeScalars.count
    }
}

extension JSONObject {
    /// The position of the member named exactly `key` (code point equality).
    @inline(__always)
    func exactPosition(of key: String) -> Int? {
        if count <= 12 {
            for index in members.indices where members[index].key.hasSameScalars(as: key) { return index }
            return nil
        }
        guard let index = position(of: key), members[index].key.hasSameScalars(as: key) else { return nil }
        return index
    }
}

extension JSONValue {
    /// JSON Schema equality: numbers by value (1 equals 1.0), strings by code
    /// points, arrays in order, objects as unordered maps.
    func isIdentical(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let left), .bool(let right)): return left == right
        case (.number(let left), .number(let right)): return left == right
        case (.string(let left), .string(let right)): return left.hasSameScalars(as: right)
        case (.array(let left), .array(let right)):
            guard left.count == right.count else { return false }
            for index in left.indices where !left[index].isIdentical(to: right[index]) { return false }
            return true
        case (.object(let left), .object(let right)):
            guard left.count == right.count else { return false }
            for member in left.members {
                guard let position = right.exactPosition(of: member.key),
                      member.value.isIdentical(to: right.members[position].value) else { return false }
            }
            return true
        default:
            return false
        }
    }
}
