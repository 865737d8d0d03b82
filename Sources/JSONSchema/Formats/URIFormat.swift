/// RFC 3986 absolute URIs (`uri` format): scheme, optional authority, path,
/// query and fragment, each with only the characters the grammar allows.
enum URIFormat {
    private static let unreserved = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~".utf8)
    private static let subDelims = Set("!$&'()*+,;=".utf8)

    static func isURI(_ bytes: [UInt8]) -> Bool {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return false }
        let scheme = bytes[..<colon]
        guard isLetter(scheme.first!), scheme.allSatisfy({ isLetter($0) || isASCIIDigit($0) || "+-.".utf8.contains($0) })
        else { return false }
        var rest = bytes[(colon + 1)...]
        var fragment: ArraySlice<UInt8>?
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) {
            fragment = rest[(hash + 1)...]
            rest = rest[..<hash]
        }
        var query: ArraySlice<UInt8>?
        if let mark = rest.firstIndex(of: UInt8(ascii: "?")) {
            query = rest[(mark + 1)...]
            rest = rest[..<mark]
        }
        if rest.starts(with: "//".utf8) {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            guard isAuthority(rest[..<end]) else { return false }
            rest = rest[end...]
        }
        guard isEncoded(rest, extra: ":@/") else { return false }
        if let query, !isEncoded(query, extra: ":@/?") { return false }
        if let fragment, !isEncoded(fragment, extra: ":@/?") { return false }
        return true
    }

    private static func isAuthority(_ authority: ArraySlice<UInt8>) -> Bool {
        var host = authority
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
            guard isEncoded(authority[..<at], extra: ":") else { return false }
            host = authority[(at + 1)...]
        }
        if host.first == UInt8(ascii: "[") {
            guard let close = host.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let literal = host[(host.startIndex + 1)..<close]
            let isFuture = literal.first == UInt8(ascii: "v") || literal.first == UInt8(ascii: "V")
            guard isFuture ? isEncoded(literal, extra: ":") : NetworkFormat.isIPv6(literal) else { return false }
            return isPort(host[(close + 1)...])
        }
        if let colon = host.lastIndex(of: UInt8(ascii: ":")) {
            guard isPort(host[colon...]) else { return false }
            host = host[..<colon]
        }
        return isEncoded(host, extra: "")
    }

    private static func isPort(_ text: ArraySlice<UInt8>) -> Bool {
        if text.isEmpty { return true }
        return text.first == UInt8(ascii: ":") && text.dropFirst().allSatisfy(isASCIIDigit)
    }

    /// Only unreserved, sub-delims, `extra` and valid `%XX` escapes.
    private static func isEncoded(_ text: ArraySlice<UInt8>, extra: String) -> Bool {
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < text.endIndex,
                      URIReference.hexValue(text[index + 1]) != nil, URIReference.hexValue(text[index + 2]) != nil
                else { return false }
                index += 3
                continue
            }
            guard unreserved.contains(byte) || subDelims.contains(byte) || extra.utf8.contains(byte) else { return false }
            index += 1
        }
        return true
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
}
