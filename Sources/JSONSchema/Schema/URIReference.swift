/// An RFC 3986 URI reference split into its components, with reference
/// resolution against a base.
struct URIReference: Hashable, Sendable, CustomStringConvertible {
    var scheme: String?
    var authority: String?
    var path: String
    var query: String?
    var fragment: String?

    init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// Splits `text` with the grammar of RFC 3986 appendix B (it never fails).
    init(_ text: String) {
        var rest = Substring(text)
        fragment = nil
        query = nil
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        }
        scheme = nil
        if let colon = rest.firstIndex(of: ":"), colon != rest.startIndex,
           !rest[..<colon].contains(where: { $0 == "/" || $0 == "?" || $0 == "#" })
        {
            scheme = rest[..<colon].lowercased()
            rest = rest[rest.index(after: colon)...]
        }
        authority = nil
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            authority = String(rest[..<end])
            rest = rest[end...]
        }
        path = String(rest)
    }

    var isAbsolute: Bool { scheme != nil }

    var description: String {
        var text = ""
        if let scheme { text += scheme + ":" }
        if let authority { text += "//" + authority }
        text += path
        if let query { text += "?" + query }
        if let fragment { text += "#" + fragment }
        return text
    }

    /// The same reference without its fragment.
    var withoutFragment: URIReference {
        var copy = self
        copy.fragment = nil
        return copy
    }

    /// The target URI of this reference relative to `base` (RFC 3986 section 5.2.2).
    func resolved(against base: URIReference) -> URIReference {
        if let scheme {
            return URIReference(
                scheme: scheme, authority: authority, path: Self.removingDotSegments(path),
                query: query, fragment: fragment)
        }
        var target = URIReference(scheme: base.scheme, authority: nil, path: "", query: nil, fragment: fragment)
        if let authority {
            target.authority = authority
            target.path = Self.removingDotSegments(path)
            target.query = query
            return target
        }
        target.authority = base.authority
        if path.isEmpty {
            target.path = base.path
            target.query = query ?? base.query
        } else {
            if path.hasPrefix("/") {
                target.path = Self.removingDotSegments(path)
            } else {
                target.path = Self.removingDotSegments(merge(base: base))
            }
            target.query = query
        }
        return target
    }

    private func merge(base: URIReference) -> String {
        if base.authority != nil && base.path.isEmpty { return "/" + path }
        guard let slash = base.path.lastIndex(of: "/") else { return path }
        return String(base.path[...slash]) + path
    }

    static func removingDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        var input = Substring(path)
        var outputText = ""
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                removeLastSegment(&outputText)
            } else if input == "/.." {
                input = "/"
                removeLastSegment(&outputText)
            } else if input == "." || input == ".." {
                input = ""
            } else {
                var end = input.index(after: input.startIndex)
                if input.first != "/" { end = input.startIndex }
                end = input[end...].firstIndex(of: "/") ?? input.endIndex
                outputText += input[..<end]
                input = input[end...]
            }
        }
        return outputText
    }

    private static func removeLastSegment(_ text: inout String) {
        if let slash = text.lastIndex(of: "/") {
            text.removeSubrange(slash...)
        } else {
            text = ""
        }
    }
}

extension URIReference {
    /// Decodes `%XX` escapes (invalid escapes are kept as they are).
    static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
               let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
