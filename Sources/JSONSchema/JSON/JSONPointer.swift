import Foundation

/// An RFC 6901 JSON Pointer such as `/options/2/summary`.
public struct JSONPointer: Hashable, Sendable, Comparable, CustomStringConvertible {
    public private(set) var tokens: [String]

    public init(tokens: [String] = []) {
        self.tokens = tokens
    }

    /// Parses the pointer text (`""` is the whole document).
    public init?(_ text: String) {
        guard !text.isEmpty else {
            self.init()
            return
        }
        guard text.hasPrefix("/") else { return nil }
        var tokens: [String] = []
        for raw in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard let token = Self.unescape(raw) else { return nil }
            tokens.append(token)
        }
        self.init(tokens: tokens)
    }

    /// Parses a URI fragment (the text after `#`, as in `"$ref": "#/$defs/a%20b"`),
    /// decoding its `%XX` escapes first; nil when it is not a JSON Pointer.
    public static func fromURIFragment(_ fragment: String) -> JSONPointer? {
        JSONPointer(URIReference.percentDecoded(fragment))
    }

    public static let root = JSONPointer()

    public var isRoot: Bool { tokens.isEmpty }

    public func appending(_ key: String) -> JSONPointer {
        var copy = self
        copy.tokens.append(key)
        return copy
    }

    public func appending(_ index: Int) -> JSONPointer {
        appending(String(index))
    }

    public var parent: JSONPointer? {
        guard !tokens.isEmpty else { return nil }
        return JSONPointer(tokens: Array(tokens.dropLast()))
    }

    public var description: String {
        tokens.map { "/" + Self.escape($0) }.joined()
    }

    /// A reader-friendly form for messages: `options[2].summary`, or `(root)`.
    public var dottedPath: String {
        guard !tokens.isEmpty else { return "(root)" }
        var text = ""
        for token in tokens {
            if let index = Int(token), index >= 0, String(index) == token {
                text += "[\(index)]"
            } else if !token.isEmpty, token.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
                text += text.isEmpty ? token : "." + token
            } else {
                text += "[\"\(token)\"]"
            }
        }
        return text
    }

    /// `dottedPath` shortened to about `limit` characters, keeping its start and end.
    public func dottedPath(limit: Int) -> String {
        let full = dottedPath
        guard full.count > limit, limit > 10 else { return full }
        return String(full.prefix(limit / 2)) + "…" + String(full.suffix(limit / 2))
    }

    /// The value this pointer designates inside `document`, if any.
    public func resolve(in document: JSONValue) -> JSONValue? {
        var current = document
        for token in tokens {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let elements):
                guard let index = Int(token), index >= 0, String(index) == token || token == "0",
                      index < elements.count else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    public static func < (lhs: JSONPointer, rhs: JSONPointer) -> Bool {
        for (left, right) in zip(lhs.tokens, rhs.tokens) where left != right {
            if let leftIndex = Int(left), let rightIndex = Int(right) { return leftIndex < rightIndex }
            return left < right
        }
        return lhs.tokens.count < rhs.tokens.count
    }

    public static func escape(_ token: String) -> String {
        guard token.contains(where: { $0 == "~" || $0 == "/" }) else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    static func unescape<S: StringProtocol>(_ token: S) -> String? {
        guard token.contains("~") else { return String(token) }
        var result = ""
        var iterator = token.makeIterator()
        while let character = iterator.next() {
            guard character == "~" else {
                result.append(character)
                continue
            }
            switch iterator.next() {
            case "0": result.append("~")
            case "1": result.append("/")
            default: return nil
            }
        }
        return result
    }
}
