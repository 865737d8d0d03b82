import Foundation

/// An ECMA-262 regular expression, the dialect JSON Schema's `pattern` uses,
/// run by ICU (NSRegularExpression) after translating what differs: `\d`, `\w`
/// and `\s` keep their ECMA meaning, `$` matches only at the end, and
/// characters ICU treats as syntax but ECMA as literals are escaped. Unicode
/// property classes (`\p{L}`, `\p{Script=Greek}`) work as in ECMA's `u` mode.
/// Matching searches anywhere in the text, as `pattern` requires.
final class ECMARegex: @unchecked Sendable {
    struct CompileError: Error {
        let reason: String
    }

    let source: String
    private let simple: SimpleRegex?
    private let expression: NSRegularExpression?

    init(_ source: String) throws {
        self.source = source
        simple = SimpleRegex(source)
        do {
            expression = try NSRegularExpression(pattern: try ECMATranslator.translate(source), options: [])
        } catch {
            guard simple != nil else {
                throw CompileError(reason: "not a valid ECMA-262 regular expression")
            }
            expression = nil
        }
    }

    /// True when the expression matches somewhere in `text`.
    func matches(_ text: String) -> Bool {
        if let simple, let found = simple.matches(text) { return found }
        guard let expression else { return false }
        let range = NSRange(location: 0, length: text.utf16.count)
        return expression.firstMatch(in: text, options: [], range: range) != nil
    }
}

/// Rewrites ECMA-262 syntax into ICU syntax with the same meaning.
enum ECMATranslator {
    static let whitespace = #"\t\n\x{0B}\f\r\x{20}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}"#

    static func translate(_ source: String) throws -> String {
        var output = ""
        let characters = Array(source.unicodeScalars)
        var index = 0
        var inClass = false
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "\\":
                guard index + 1 < characters.count else {
                    throw ECMARegex.CompileError(reason: "it ends with a lone backslash")
                }
                let next = characters[index + 1]
                index += 2
                switch next {
                case "d": output += inClass ? "0-9" : "[0-9]"
                case "D": output += "[^0-9]"
                case "w": output += inClass ? "a-zA-Z0-9_" : "[a-zA-Z0-9_]"
                case "W": output += "[^a-zA-Z0-9_]"
                case "s": output += inClass ? whitespace : "[\(whitespace)]"
                case "S": output += "[^\(whitespace)]"
                case "b" where inClass: output += #"\x{08}"#
                case "u" where index < characters.count && characters[index] == "{",
                     "p" where index < characters.count && characters[index] == "{",
                     "P" where index < characters.count && characters[index] == "{":
                    // \u{1F600} is ICU's \x{1F600}; \p{…} and \P{…} pass through whole.
                    output += next == "u" ? #"\x"# : "\\" + String(next)
                    while index < characters.count {
                        output.unicodeScalars.append(characters[index])
                        index += 1
                        if characters[index - 1] == "}" { break }
                    }
                case "c" where index < characters.count:
                    output += "\\c"
                    output.unicodeScalars.append(characters[index])
                    index += 1
                default:
                    output += "\\"
                    output.unicodeScalars.append(next)
                }
                continue
            case "[" where !inClass:
                if characters[safe: index + 1] == "^", characters[safe: index + 2] == "]" {
                    output += #"[\x{0}-\x{10FFFF}]"#
                    index += 3
                    continue
                }
                if characters[safe: index + 1] == "]" {
                    output += "(?!)"
                    index += 2
                    continue
                }
                inClass = true
                output += "["
                if characters[safe: index + 1] == "^" {
                    output += "^"
                    index += 1
                }
            case "]" where inClass:
                inClass = false
                output += "]"
            case "[" where inClass, "&" where inClass:
                output += "\\"
                output.unicodeScalars.append(character)
            case "$" where !inClass:
                output += #"\z"#
            case "{" where !inClass:
                if isQuantifier(characters, from: index) {
                    output += "{"
                } else {
                    output += "\\{"
                }
            case "}" where !inClass:
                if closesQuantifier(characters, at: index) {
                    output += "}"
                } else {
                    output += "\\}"
                }
            default:
                output.unicodeScalars.append(character)
            }
            index += 1
        }
        if inClass { throw ECMARegex.CompileError(reason: "a character class `[` is never closed") }
        return output
    }

    /// `{n}`, `{n,}` or `{n,m}` starting at `index`.
    private static func isQuantifier(_ characters: [Unicode.Scalar], from index: Int) -> Bool {
        var position = index + 1
        var digits = 0
        while position < characters.count, characters[position].properties.numericType == .decimal,
              characters[position].isASCII
        {
            position += 1
            digits += 1
        }
        guard digits > 0, position < characters.count else { return false }
        if characters[position] == "}" { return true }
        guard characters[position] == "," else { return false }
        position += 1
        while position < characters.count, characters[position].isASCII,
              characters[position].properties.numericType == .decimal
        {
            position += 1
        }
        return position < characters.count && characters[position] == "}"
    }

    private static func closesQuantifier(_ characters: [Unicode.Scalar], at index: Int) -> Bool {
        var position = index - 1
        while position >= 0, characters[position] != "{" {
            guard characters[position].isASCII,
                  characters[position].properties.numericType == .decimal || characters[position] == ","
            else { return false }
            position -= 1
        }
        return position >= 0 && isQuantifier(characters, from: position)
            && (position == 0 || characters[position - 1] != "\\")
    }
}

extension Array {
    subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
