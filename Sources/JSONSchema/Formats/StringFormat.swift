/// The `format` values this validator can assert. Others stay annotations.
enum StringFormat: String, CaseIterable, Sendable {
    case date
    case dateTime = "date-time"
    case time
    case duration
    case email
    case uuid
    case uri
    case ipv4
    case ipv6
    case jsonPointer = "json-pointer"

    /// True when `text` has this format. Non-strings always pass (`format`
    /// applies to strings only).
    func accepts(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        switch self {
        case .date: return DateTimeFormat.isDate(bytes[...])
        case .dateTime: return DateTimeFormat.isDateTime(bytes)
        case .time: return DateTimeFormat.isTime(bytes[...])
        case .duration: return DateTimeFormat.isDuration(bytes)
        case .email: return NetworkFormat.isEmail(bytes)
        case .uuid: return Self.isUUID(bytes)
        case .uri: return URIFormat.isURI(bytes)
        case .ipv4: return NetworkFormat.isIPv4(bytes[...])
        case .ipv6: return NetworkFormat.isIPv6(bytes[...])
        case .jsonPointer: return text.isEmpty || (text.hasPrefix("/") && JSONPointer(text) != nil)
        }
    }

    /// `a valid email address`, for messages.
    var noun: String {
        switch self {
        case .date: return "date (YYYY-MM-DD)"
        case .dateTime: return "date-time (RFC 3339, e.g. 2024-05-01T09:30:00Z)"
        case .time: return "time (HH:MM:SS with an offset, e.g. 09:30:00Z)"
        case .duration: return "duration (ISO 8601, e.g. P3W or PT45M)"
        case .email: return "email address"
        case .uuid: return "UUID"
        case .uri: return "absolute URI"
        case .ipv4: return "IPv4 address"
        case .ipv6: return "IPv6 address"
        case .jsonPointer: return "JSON Pointer"
        }
    }

    private static func isUUID(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 36 else { return false }
        for (position, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(position) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else if URIReference.hexValue(byte) == nil {
                return false
            }
        }
        return true
    }
}

@inline(__always)
func isASCIIDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
}
