import JSONSchema

/// Words that any match of a regular expression contains, read from the pattern: a
/// text that holds none of them cannot match, and finding that out takes a byte search
/// where ICU would try the pattern at every position of the text.
///
/// The reading is deliberately small. It knows literal characters, escaped punctuation,
/// `\b`, character classes and the usual escapes for them, `.`, groups (`(` and `(?:`),
/// alternation and quantifiers; anything else (inline flags, back-references, `\p{…}`,
/// anchors, lookaround) makes it vouch for nothing.
enum PatternLiterals {
    /// Lower-case ASCII byte strings, one of which every case-insensitive match of
    /// `pattern` contains, in text `vouch(forTextIn:)` accepts; nil when the pattern
    /// vouches for none.
    static func required(by pattern: String) -> [[UInt8]]? {
        known.value(for: pattern) {
            var parser = Parser(bytes: Array(pattern.utf8))
            let literals = parser.alternation()
            return parser.failed || parser.index != parser.bytes.count ? nil : literals
        }
    }

    private static let known = SharedCache<String, [[UInt8]]?>()

    /// Whether the lower-cased, folded bytes of a text searched in `forms` (as written,
    /// and without diacritics) rule out a pattern none of whose required words they hold.
    /// In ASCII text a pattern's letter matches only itself, in either case. Other text
    /// qualifies unless it has a character that case-insensitive matching takes for
    /// ASCII letters: 'ß' matches "ss", 'ﬁ' "fi", the Kelvin sign "k".
    static func vouch(forTextIn forms: [String]) -> Bool {
        forms.allSatisfy { form in TextMatching.isASCII(form) || !form.unicodeScalars.contains(where: matchesASCIILetters) }
    }

    /// The characters whose lower, upper or case-folded form holds an ASCII letter.
    private static func matchesASCIILetters(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xDF, 0x130, 0x131, 0x149, 0x17F, 0x1F0, 0x1E96...0x1E9A, 0x1E9E, 0x212A, 0xFB00...0xFB06: true
        default: false
        }
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var failed = false

        private enum Atom {
            case literal(UInt8)
            case other
            case zeroWidth
            case group([[UInt8]]?)
        }

        /// Alternatives separated by `|`: one of their literals, whichever matches.
        mutating func alternation() -> [[UInt8]]? {
            var union: [[UInt8]]? = []
            while true {
                let literals = sequence()
                union = literals.flatMap { literals in union.map { $0 + literals } }
                guard !failed, index < bytes.count, bytes[index] == UInt8(ascii: "|") else { return failed ? nil : union }
                index += 1
            }
        }

        /// Atoms up to `|`, `)` or the end: the most telling literal they all require.
        private mutating func sequence() -> [[UInt8]]? {
            var candidates: [[[UInt8]]] = []
            var run: [UInt8] = []
            func closeRun() {
                if !run.isEmpty { candidates.append([run]) }
                run = []
            }
            while !failed, index < bytes.count, bytes[index] != UInt8(ascii: "|"), bytes[index] != UInt8(ascii: ")") {
                let atom = self.atom()
                let least = quantifierMinimum()
                guard !failed else { return nil }
                switch (atom, least) {
                case (.literal(let byte), nil):
                    run.append(byte)
                case (.literal(let byte), let least?):
                    if least > 0 { run.append(byte) }
                    closeRun()
                case (.zeroWidth, nil):
                    continue
                case (.zeroWidth, _?):
                    failed = true
                case (.other, _):
                    closeRun()
                case (.group(let literals), let least):
                    closeRun()
                    if let literals, (least ?? 1) > 0 { candidates.append(literals) }
                }
            }
            closeRun()
            // The set whose shortest word is longest rules out the most texts.
            return candidates.max { ($0.map(\.count).min() ?? 0) < ($1.map(\.count).min() ?? 0) }
        }

        private mutating func atom() -> Atom {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "("):
                if index < bytes.count, bytes[index] == UInt8(ascii: "?") {
                    guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ":") else { failed = true; return .other }
                    index += 2
                }
                let literals = alternation()
                guard !failed, index < bytes.count, bytes[index] == UInt8(ascii: ")") else { failed = true; return .other }
                index += 1
                return .group(literals)
            case UInt8(ascii: "["):
                skipClass()
                return .other
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { failed = true; return .other }
                let escaped = bytes[index]
                index += 1
                if Array("bB".utf8).contains(escaped) { return .zeroWidth }
                if Array("dDsSwWhHvVtnrfeR".utf8).contains(escaped) { return .other }
                let isAlphanumeric = (0x30...0x39).contains(escaped) || (0x41...0x5A).contains(escaped) || (0x61...0x7A).contains(escaped)
                if isAlphanumeric || escaped >= 0x80 { failed = true; return .other }
                return .literal(escaped)
            case UInt8(ascii: "."):
                return .other
            case UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "{"):
                failed = true
                return .other
            case 0x80...:
                // One character outside ASCII: ASCII text never holds it, so nothing is required of it.
                while index < bytes.count, (0x80...0xBF).contains(bytes[index]) { index += 1 }
                return .other
            default:
                return .literal((0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
            }
        }

        /// A character class's end, past nested escapes; a class inside a class is not read.
        private mutating func skipClass() {
            if index < bytes.count, bytes[index] == UInt8(ascii: "^") { index += 1 }
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1 }
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "]"):
                    index += 1
                    return
                case UInt8(ascii: "["):
                    failed = true
                    return
                case UInt8(ascii: "\\"):
                    index += 2
                default:
                    index += 1
                }
            }
            failed = true
        }

        /// The fewest repeats a quantifier after an atom allows (`?`, `*`, `+`, `{n,m}`),
        /// past its lazy or possessive mark; nil when none follows.
        private mutating func quantifierMinimum() -> Int? {
            guard index < bytes.count else { return nil }
            let least: Int
            switch bytes[index] {
            case UInt8(ascii: "?"), UInt8(ascii: "*"):
                least = 0
                index += 1
            case UInt8(ascii: "+"):
                least = 1
                index += 1
            case UInt8(ascii: "{"):
                var digits: [UInt8] = []
                index += 1
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) { digits.append(bytes[index]); index += 1 }
                while index < bytes.count, bytes[index] != UInt8(ascii: "}") {
                    guard bytes[index] == UInt8(ascii: ",") || (0x30...0x39).contains(bytes[index]) else { failed = true; return nil }
                    index += 1
                }
                guard index < bytes.count, let value = Int(String(decoding: digits, as: UTF8.self)) else { failed = true; return nil }
                index += 1
                least = value
            default:
                return nil
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "?") || bytes[index] == UInt8(ascii: "+") { index += 1 }
            return least
        }
    }
}
