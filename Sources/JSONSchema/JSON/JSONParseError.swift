/// Why a document is not valid JSON, and where.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// The input has no content at all (or only white space).
        case empty
        /// The input stopped in the middle of a value: it was cut off.
        case truncated(expected: String)
        case unexpectedCharacter(found: String, expected: String)
        case invalidUTF8
        case invalidEscape(String)
        case invalidNumber(String)
        /// `NaN`, `Infinity` or a number too large for a double.
        case nonFiniteNumber(String)
        case controlCharacterInString(UInt8)
        case duplicateKey(String)
        case tooDeep(limit: Int)
        case trailingContent(found: String)
    }

    public var kind: Kind
    public var location: SourceLocation
    /// Where in the document the problem is, as far as the parser got.
    public var path: JSONPointer

    public init(kind: Kind, location: SourceLocation, path: JSONPointer) {
        self.kind = kind
        self.location = location
        self.path = path
    }

    /// True when the document was cut off rather than malformed.
    public var isTruncated: Bool {
        if case .truncated = kind { return true }
        return false
    }

    /// What went wrong, without the location.
    public var reason: String {
        switch kind {
        case .empty:
            return "the document is empty; expected a JSON value"
        case .truncated(let expected):
            return "the document is truncated: it ends where \(expected) was expected"
        case .unexpectedCharacter(let found, let expected):
            return "expected \(expected), found \(found)"
        case .invalidUTF8:
            return "the text is not valid UTF-8 (is this a binary file?)"
        case .invalidEscape(let escape):
            return "invalid escape sequence \(escape) in a string"
        case .invalidNumber(let text):
            return "invalid number \(text)"
        case .nonFiniteNumber(let text):
            return "\(text) is not a JSON number (JSON has no NaN or Infinity; use null or a finite number)"
        case .controlCharacterInString(let byte):
            return "raw control character U+\(String(byte, radix: 16, uppercase: true).leftPadded(to: 4)) inside a string; escape it (for example \\n)"
        case .duplicateKey(let key):
            return "duplicate key \"\(key)\" in the same object; each key may appear once"
        case .tooDeep(let limit):
            return "nesting deeper than \(limit) levels"
        case .trailingContent(let found):
            return "unexpected \(found) after the end of the JSON value"
        }
    }

    public var description: String {
        let place = path.isRoot ? "" : " (at \(path.dottedPath(limit: 80)))"
        return "line \(location.line), column \(location.column): \(reason)\(place)"
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
