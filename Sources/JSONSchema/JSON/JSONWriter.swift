/// How `JSONValue.serialized` lays out text.
public struct JSONWriteOptions: Sendable {
    /// Two-space indentation and one member per line.
    public var pretty: Bool
    /// Members ordered by key: the canonical form used for hashing and golden files.
    public var sortedKeys: Bool

    public init(pretty: Bool = false, sortedKeys: Bool = false) {
        self.pretty = pretty
        self.sortedKeys = sortedKeys
    }

    public static let compact = JSONWriteOptions()
    public static let canonical = JSONWriteOptions(sortedKeys: true)
    public static let prettySorted = JSONWriteOptions(pretty: true, sortedKeys: true)
}

extension JSONValue {
    /// The value as JSON text.
    public func serialized(_ options: JSONWriteOptions = .compact) -> String {
        var output = ""
        write(to: &output, options: options, indent: 0)
        return output
    }

    private func write(to output: inout String, options: JSONWriteOptions, indent: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let value): output += Self.formatNumber(value)
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let elements):
            guard !elements.isEmpty else {
                output += "[]"
                return
            }
            output += "["
            for (position, element) in elements.enumerated() {
                if position > 0 { output += "," }
                if options.pretty { Self.newline(&output, indent: indent + 1) }
                element.write(to: &output, options: options, indent: indent + 1)
            }
            if options.pretty { Self.newline(&output, indent: indent) }
            output += "]"
        case .object(let object):
            guard !object.isEmpty else {
                output += "{}"
                return
            }
            let members = options.sortedKeys ? object.sortedByKey().members : object.members
            output += "{"
            for (position, member) in members.enumerated() {
                if position > 0 { output += "," }
                if options.pretty { Self.newline(&output, indent: indent + 1) }
                Self.writeString(member.key, to: &output)
                output += options.pretty ? ": " : ":"
                member.value.write(to: &output, options: options, indent: indent + 1)
            }
            if options.pretty { Self.newline(&output, indent: indent) }
            output += "}"
        }
    }

    private static func newline(_ output: inout String, indent: Int) {
        output += "\n"
        output += String(repeating: "  ", count: indent)
    }

    /// Whole numbers print without a fraction (`3`, not `3.0`); others use the
    /// shortest text that reads back as the same double.
    static func formatNumber(_ value: Double) -> String {
        if value.isWholeNumber, abs(value) < 1e15 { return String(Int64(value)) }
        guard value.isFinite else { return "null" }
        return "\(value)"
    }

    static func writeString(_ value: String, to output: inout String) {
        output += "\""
        // Runs that need no escaping are copied whole. Escaped bytes are ASCII, so
        // run boundaries are scalar boundaries (not always character boundaries:
        // a quote can carry a combining mark), hence the copy through the scalar view.
        let utf8 = value.utf8
        var runStart = utf8.startIndex
        var index = runStart
        while index != utf8.endIndex {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F else {
                utf8.formIndex(after: &index)
                continue
            }
            output.unicodeScalars.append(contentsOf: value.unicodeScalars[runStart..<index])
            switch byte {
            case UInt8(ascii: "\""): output += "\\\""
            case UInt8(ascii: "\\"): output += "\\\\"
            case UInt8(ascii: "\n"): output += "\\n"
            case UInt8(ascii: "\r"): output += "\\r"
            case UInt8(ascii: "\t"): output += "\\t"
            case 0x08: output += "\\b"
            case 0x0C: output += "\\f"
            default: output += "\\u" + String(byte, radix: 16).leftPadded(to: 4)
            }
            utf8.formIndex(after: &index)
            runStart = index
        }
        output.unicodeScalars.append(contentsOf: value.unicodeScalars[runStart..<utf8.endIndex])
        output += "\""
    }
}
