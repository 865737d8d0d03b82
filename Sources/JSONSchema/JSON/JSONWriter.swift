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
        var writer = JSONTextWriter(options: options)
        writer.write(self, indent: 0)
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

    init(options: JSONWriteOptions) {
        self.options = options
        bytes.reserveCapacity(1024)
        escapedBytes = Self.escapeTables[(options.escapesAngleBrackets ? 2 : 0) + (options.escapesDelete ? 1 : 0)]
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
            let members = options.sortedKeys ? object.members.sorted(by: JSONObject.keyOrder) : object.members
            bytes.append(UInt8(ascii: "{"))
            for (position, member) in members.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                if options.pretty { newline(indent: indent + 1) }
                writeString(member.key)
                append(options.pretty ? ": " : ":")
                write(member.value, indent: indent + 1)
            }
            if options.pretty { newline(indent: indent) }
            bytes.append(UInt8(ascii: "}"))
        }
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

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func newline(indent: Int) {
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private mutating func writeString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        let escaped = escapedBytes
        var copy = value
        copy.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x80, escaped[Int(byte)] else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
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
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
