import Foundation

/// How `JSONValue.serialized` lays out text.
public struct JSONWriteOptions: Sendable {
    /// Two-space indentation and one member per line.
    public var pretty: Bool
    /// Members ordered by key: the canonical form used for hashing and golden files.
    public var sortedKeys: Bool
    /// `<` and `>` written as `\u003c` and `\u003e`, so no string can close or open a tag around the text.
    public var escapesAngleBrackets: Bool
    /// DEL (U+007F) written as `\u007f`, so no terminal or prompt sees a raw control character.
    /// Off only where the bytes must equal Foundation's `JSONEncoder` output, which leaves DEL as is.
    public var escapesDelete: Bool
    /// Long arrays (a report's thousands of fixtures) written in chunks on every core,
    /// then joined; the text is the same as when written in one pass.
    public var writesLongArraysInParallel: Bool

    public init(
        pretty: Bool = false, sortedKeys: Bool = false, escapesAngleBrackets: Bool = false, escapesDelete: Bool = true,
        writesLongArraysInParallel: Bool = false
    ) {
        self.pretty = pretty
        self.sortedKeys = sortedKeys
        self.escapesAngleBrackets = escapesAngleBrackets
        self.escapesDelete = escapesDelete
        self.writesLongArraysInParallel = writesLongArraysInParallel
    }

    public static let compact = JSONWriteOptions()
    public static let canonical = JSONWriteOptions(sortedKeys: true)
    public static let prettySorted = JSONWriteOptions(pretty: true, sortedKeys: true)
}

extension JSONValue {
    /// The value as JSON text.
    public func serialized(_ options: JSONWriteOptions = .compact) -> String {
        String(decoding: serializedBytes(options), as: UTF8.self)
    }

    /// The value as UTF-8 JSON text, for hashing or writing to a file without building a `String`.
    public func serializedBytes(_ options: JSONWriteOptions = .compact) -> [UInt8] {
        serializedBytes(options, nestedAt: 0)
    }

    /// The value's text as it reads nested `depth` levels deep in a pretty document: its
    /// own first line unindented, the lines after it indented for that depth. Lets a
    /// writer stream a long array's elements one at a time with the text one pass writes.
    public func serializedBytes(_ options: JSONWriteOptions, nestedAt depth: Int) -> [UInt8] {
        var writer = JSONTextWriter(options: options)
        writer.write(self, indent: depth)
        return writer.bytes
    }

    /// Whole numbers print without a fraction (`3`, not `3.0`); others use the
    /// shortest text that reads back as the same double.
    static func formatNumber(_ value: Double) -> String {
        if value.isWholeNumber, abs(value) < 1e15 { return String(Int64(value)) }
        guard value.isFinite else { return "null" }
        return "\(value)"
    }
}

/// Writes JSON as UTF-8 bytes; strings are copied in runs between the bytes that need escaping.
struct JSONTextWriter {
    let options: JSONWriteOptions
    var bytes: [UInt8] = []

    /// Which ASCII bytes are written escaped, by byte value.
    private let escapedBytes: [Bool]
    private let flaggedBytes: EscapeWordTest

    init(options: JSONWriteOptions) {
        self.options = options
        bytes.reserveCapacity(1024)
        escapedBytes = Self.escapeTables[(options.escapesAngleBrackets ? 2 : 0) + (options.escapesDelete ? 1 : 0)]
        flaggedBytes = EscapeWordTest(options: options)
    }

    /// Escape tables for each combination of the angle-bracket and DEL options.
    private static let escapeTables: [[Bool]] = (0..<4).map { combination in
        (0..<128).map { byte in
            byte < 0x20 || byte == Int(UInt8(ascii: "\"")) || byte == Int(UInt8(ascii: "\\"))
                || (combination & 1 == 1 && byte == 0x7F)
                || (combination & 2 == 2 && (byte == Int(UInt8(ascii: "<")) || byte == Int(UInt8(ascii: ">"))))
        }
    }

    mutating func write(_ value: JSONValue, indent: Int) {
        switch value {
        case .null: append("null")
        case .bool(let value): append(value ? "true" : "false")
        case .number(let value): append(JSONValue.formatNumber(value))
        case .string(let value): writeString(value)
        case .array(let elements):
            guard !elements.isEmpty else { return append("[]") }
            bytes.append(UInt8(ascii: "["))
            if options.writesLongArraysInParallel && elements.count >= Self.parallelArrayLength {
                writeInParallel(elements, indent: indent + 1)
            } else {
                writeElements(elements[...], indent: indent + 1)
            }
            if options.pretty { newline(indent: indent) }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.isEmpty else { return append("{}") }
            bytes.append(UInt8(ascii: "{"))
            object.members.withUnsafeBufferPointer { members in
                // Sorted by position, not by copying the members: a copy retains and releases every key and value.
                if options.sortedKeys && !Self.isSortedByKey(members) {
                    var order = Array(members.indices)
                    order.sort { Self.keyPrecedes(members[$0].key, members[$1].key) }
                    for (position, index) in order.enumerated() { writeMember(members[index], at: position, indent: indent) }
                } else {
                    for position in members.indices { writeMember(members[position], at: position, indent: indent) }
                }
            }
            if options.pretty { newline(indent: indent) }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private mutating func writeMember(_ member: JSONObject.Member, at position: Int, indent: Int) {
        if position > 0 { bytes.append(UInt8(ascii: ",")) }
        if options.pretty { newline(indent: indent + 1) }
        writeString(member.key)
        append(options.pretty ? ": " : ":")
        write(member.value, indent: indent + 1)
    }

    private static func isSortedByKey(_ members: UnsafeBufferPointer<JSONObject.Member>) -> Bool {
        var index = 1
        while index < members.count {
            guard keyPrecedes(members[index - 1].key, members[index].key) else { return false }
            index += 1
        }
        return true
    }

    /// Code point order (`JSONObject.keyOrder`), comparing the UTF-8 bytes with `memcmp`.
    static func keyPrecedes(_ left: String, _ right: String) -> Bool {
        let fast = left.utf8.withContiguousStorageIfAvailable { leftBytes in
            right.utf8.withContiguousStorageIfAvailable { rightBytes -> Bool in
                let common = Swift.min(leftBytes.count, rightBytes.count)
                let order = common == 0 ? 0 : memcmp(leftBytes.baseAddress!, rightBytes.baseAddress!, common)
                return order != 0 ? order < 0 : leftBytes.count < rightBytes.count
            }
        }
        return (fast ?? nil) ?? left.utf8.lexicographicallyPrecedes(right.utf8)
    }

    private mutating func writeElements(_ elements: ArraySlice<JSONValue>, indent: Int) {
        for position in elements.indices {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            if options.pretty { newline(indent: indent) }
            write(elements[position], indent: indent)
        }
    }

    /// Arrays at least this long are split over the cores.
    static let parallelArrayLength = 64

    /// Each chunk of `elements` written by its own writer (which writes its nested
    /// arrays in one pass), the chunks then appended in order.
    private mutating func writeInParallel(_ elements: [JSONValue], indent: Int) {
        let chunkOptions = { var options = self.options; options.writesLongArraysInParallel = false; return options }()
        let chunkCount = Swift.min(elements.count, ProcessInfo.processInfo.activeProcessorCount * 4)
        let chunks = Array(0..<chunkCount).concurrentMap { chunk in
            var writer = JSONTextWriter(options: chunkOptions)
            writer.writeElements(elements[(elements.count * chunk / chunkCount)..<(elements.count * (chunk + 1) / chunkCount)], indent: indent)
            return writer.bytes
        }
        bytes.reserveCapacity(bytes.count + chunks.reduce(0) { $0 + $1.count } + 1024)
        for chunk in chunks { bytes.append(contentsOf: chunk) }
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func newline(indent: Int) {
        bytes.append(UInt8(ascii: "\n"))
        var remaining = indent * 2
        while remaining > 0 {
            let count = Swift.min(remaining, Self.spaces.count)
            bytes.append(contentsOf: Self.spaces[..<count])
            remaining -= count
        }
    }

    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 128)

    private static let hexDigits = Array("0123456789abcdef".utf8)

    mutating func writeString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        let escaped = escapedBytes
        let flagged = flaggedBytes
        var copy = value
        copy.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return }
            let count = utf8.count
            var runStart = 0
            var index = 0
            while index < count {
                // Most text needs no escaping: skip it a machine word at a time.
                if index &+ 8 <= count {
                    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                    if !flagged.mayMatch(word) {
                        index &+= 8
                        continue
                    }
                }
                let end = Swift.min(index &+ 8, count)
                while index < end {
                    let byte = base[index]
                    if byte < 0x80, escaped[Int(byte)] {
                        bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: index - runStart))
                        runStart = index + 1
                        appendEscape(of: byte)
                    }
                    index &+= 1
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: count - runStart))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscape(of byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): append("\\\"")
        case UInt8(ascii: "\\"): append("\\\\")
        case UInt8(ascii: "\n"): append("\\n")
        case UInt8(ascii: "\r"): append("\\r")
        case UInt8(ascii: "\t"): append("\\t")
        case 0x08: append("\\b")
        case 0x0C: append("\\f")
        default:
            append("\\u00")
            bytes.append(Self.hexDigits[Int(byte >> 4)])
            bytes.append(Self.hexDigits[Int(byte & 0x0F)])
        }
    }
}

/// Writes compact JSON a value at a time, for text written so often that building a
/// `JSONValue` first would cost more than the writing (a large run's report, fixture by
/// fixture). The caller writes an object's members in the order they are to be read:
/// for the canonical text, sorted by key. Nested `JSONValue`s follow `options`.
public struct JSONStreamWriter {
    private var writer: JSONTextWriter
    /// Whether the next value follows another in its container, and needs a comma.
    private var followsValue = false

    public init(options: JSONWriteOptions = .canonical) {
        precondition(!options.pretty, "JSONStreamWriter writes compact text")
        writer = JSONTextWriter(options: options)
    }

    public var bytes: [UInt8] { writer.bytes }

    /// An object whose members `body` writes with `key(_:)` and a value each.
    public mutating func object(_ body: (inout JSONStreamWriter) throws -> Void) rethrows {
        separate()
        writer.bytes.append(UInt8(ascii: "{"))
        followsValue = false
        try body(&self)
        writer.bytes.append(UInt8(ascii: "}"))
        followsValue = true
    }

    /// An array of `elements`, each written by `body`.
    public mutating func array<Elements: Sequence>(
        _ elements: Elements, _ body: (inout JSONStreamWriter, Elements.Element) throws -> Void
    ) rethrows {
        separate()
        writer.bytes.append(UInt8(ascii: "["))
        followsValue = false
        for element in elements { try body(&self, element) }
        writer.bytes.append(UInt8(ascii: "]"))
        followsValue = true
    }

    /// The next member's key; its value comes next.
    public mutating func key(_ name: String) {
        separate()
        writer.writeString(name)
        writer.bytes.append(UInt8(ascii: ":"))
        followsValue = false
    }

    public mutating func string(_ value: String) {
        separate()
        writer.writeString(value)
        followsValue = true
    }

    public mutating func bool(_ value: Bool) {
        separate()
        writer.append(value ? "true" : "false")
        followsValue = true
    }

    /// A number as `JSONValue.number` writes it (an `Int` is a whole `Double` there too).
    public mutating func number(_ value: Double) {
        separate()
        writer.append(JSONValue.formatNumber(value))
        followsValue = true
    }

    public mutating func number(_ value: Int) {
        number(Double(value))
    }

    public mutating func value(_ value: JSONValue) {
        separate()
        writer.write(value, indent: 0)
        followsValue = true
    }

    /// Any encodable value, through `JSONValueEncoder`: for the rare parts not worth writing by hand.
    public mutating func encoded<Value: Encodable>(_ value: Value) throws {
        self.value(try JSONValueEncoder().encode(value))
    }

    // A member, key and value; a nil value leaves the member out, as `Codable` does.

    public mutating func member(_ name: String, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    public mutating func member(_ name: String, _ value: Bool?) {
        guard let value else { return }
        key(name)
        bool(value)
    }

    public mutating func member(_ name: String, _ value: Double?) {
        guard let value else { return }
        key(name)
        number(value)
    }

    public mutating func member(_ name: String, _ value: Int?) {
        guard let value else { return }
        key(name)
        number(value)
    }

    public mutating func member(_ name: String, _ value: JSONValue?) {
        guard let value else { return }
        key(name)
        self.value(value)
    }

    public mutating func member<Value: Encodable>(_ name: String, encoding value: Value?) throws {
        guard let value else { return }
        key(name)
        try encoded(value)
    }

    private mutating func separate() {
        if followsValue { writer.bytes.append(UInt8(ascii: ",")) }
    }
}

/// Tests eight bytes at once for any byte that may need escaping, with the
/// bit tricks of "Bit Twiddling Hacks" (a zero byte after XOR is a match).
/// Exact for control characters, quote and backslash; the optional bytes
/// (DEL, angle brackets) are tested only when the options escape them.
struct EscapeWordTest {
    let testsDelete: Bool
    let testsAngleBrackets: Bool

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    init(options: JSONWriteOptions) {
        testsDelete = options.escapesDelete
        testsAngleBrackets = options.escapesAngleBrackets
    }

    @inline(__always)
    func mayMatch(_ word: UInt64) -> Bool {
        Self.hasByte(below: 0x20, word) || Self.hasByte(UInt8(ascii: "\""), word) || Self.hasByte(UInt8(ascii: "\\"), word)
            || (testsDelete && Self.hasByte(0x7F, word))
            || (testsAngleBrackets && (Self.hasByte(UInt8(ascii: "<"), word) || Self.hasByte(UInt8(ascii: ">"), word)))
    }

    /// Whether any byte of `word` is below `limit` (at most 0x80).
    @inline(__always)
    static func hasByte(below limit: UInt8, _ word: UInt64) -> Bool {
        (word &- ones &* UInt64(limit)) & ~word & highBits != 0
    }

    @inline(__always)
    static func hasByte(_ byte: UInt8, _ word: UInt64) -> Bool {
        hasByte(below: 1, word ^ (ones &* UInt64(byte)))
    }
}
