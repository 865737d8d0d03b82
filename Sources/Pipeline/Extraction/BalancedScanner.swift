import JSONSchema
/// Finds where a JSON container that starts at a `{` or `[` ends, skipping
/// brackets inside strings.
enum BalancedScanner {
    /// The index just past the container starting at `start`, or nil when the
    /// text ends first (the container was cut off). A mismatched closer ends it
    /// too, so the parser can say what is wrong there.
    static func end(of bytes: [UInt8], from start: Int) -> Int? {
        var stack: [UInt8] = []
        var inString = false
        var escaped = false
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "{"):
                stack.append(UInt8(ascii: "}"))
            case UInt8(ascii: "["):
                stack.append(UInt8(ascii: "]"))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard stack.last == byte else { return index }
                stack.removeLast()
                if stack.isEmpty { return index }
            default:
                break
            }
        }
        return nil
    }
}
