import Foundation
import JSONSchema

/// Case-insensitive, word-aware text search over model output.
public enum TextMatching {
    /// Whether `text` uses `phrase` as whole words (its plural, -ing and -ed forms too),
    /// ignoring case and accents: the checks' own matching, for code outside them that
    /// reads the same answers (the program plan).
    public static func mentions(_ phrase: String, in text: String) -> Bool {
        firstMatch(of: phrase, in: text) != nil
    }

    /// Every string in `value` (object keys excluded), one per line.
    static func text(of value: JSONValue) -> String {
        var lines: [String] = []
        func collect(_ value: JSONValue) {
            switch value {
            case .string(let text): lines.append(text)
            case .array(let elements): elements.forEach(collect)
            case .object(let object): object.members.forEach { collect($0.value) }
            default: break
            }
        }
        collect(value)
        return lines.joined(separator: "\n")
    }

    /// `value` with every string trimmed and its runs of whitespace made one space: an
    /// edit that only moves spaces changed nothing.
    static func whitespaceNormalized(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): return .string(whitespaceNormalized(text))
        case .array(let items): return .array(items.map(whitespaceNormalized))
        case .object(var object):
            for member in object.members { object[member.key] = whitespaceNormalized(member.value) }
            return .object(object)
        default: return value
        }
    }

    /// `text` trimmed, its runs of whitespace made one space; ASCII text byte by byte.
    static func whitespaceNormalized(_ text: String) -> String {
        guard isASCII(text) else { return text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                pendingSpace = !bytes.isEmpty
            } else {
                if pendingSpace { bytes.append(0x20) }
                pendingSpace = false
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Text prepared once for many word searches: folded for diacritics, and
    /// lower-cased bytes for a cheap containment test before any regular expression runs.
    struct Searchable {
        let folded: String
        let lowered: [UInt8]

        init(_ text: String) {
            folded = TextMatching.folded(text)
            lowered = TextMatching.loweredBytes(folded)
        }

        func contains(_ term: SearchTerm) -> Bool {
            TextMatching.contains(lowered, term.lowered)
        }
    }

    /// A word prepared for whole-word searches: its folded, lower-cased bytes and the pattern that confirms a match.
    struct SearchTerm: Sendable {
        let lowered: [UInt8]
        /// Compiled on the first text that contains the bytes: most of the hundreds of
        /// words the coaching rules know are never in any output.
        private let source: String?

        init(_ word: String) {
            let target = TextMatching.folded(String(word.trimmed()))
            lowered = TextMatching.loweredBytes(target)
            // Word boundaries only on a side that is a letter or digit: "{{" is found in "{{system}}".
            let isWordPart = { (character: Character?) in character.map { $0.isLetter || $0.isNumber } ?? false }
            let before = isWordPart(target.first) ? "(?<![\\p{L}\\p{N}])" : ""
            let after = isWordPart(target.last) ? "(?:\\p{L}?(?:ing|ed)|e?s)?(?![\\p{L}\\p{N}])" : ""
            source = target.isEmpty ? nil : before + NSRegularExpression.escapedPattern(for: target) + after
        }

        var pattern: NSRegularExpression? {
            source.flatMap { CompiledPatterns.shared.regex($0, options: [.caseInsensitive]) }
        }
    }

    /// The first occurrence of `word` in `text` as a whole word (so "run" does not
    /// match "brunch"), case- and diacritic-insensitive, with a little context; nil if absent.
    /// A word's plural, -ing and -ed forms count ("lunge" finds "lunges", "run" finds "running").
    static func firstMatch(of word: String, in text: String) -> String? {
        firstMatch(of: word, in: Searchable(text))
    }

    static func firstMatch(of word: String, in text: Searchable) -> String? {
        firstMatch(of: SearchTerms.shared.term(word), in: text)
    }

    static func firstMatch(of term: SearchTerm, in text: Searchable) -> String? {
        // Every match contains the word itself: most searches end here, without a regex.
        guard text.contains(term), let pattern = term.pattern else { return nil }
        let folded = text.folded
        guard let match = pattern.firstMatch(in: folded, range: NSRange(folded.startIndex..., in: folded)),
              let found = Range(match.range, in: folded)
        else { return nil }
        return excerpt(around: found, in: folded)
    }

    /// Whether every byte of `text` is ASCII, eight bytes at a time.
    static func isASCII(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable(isASCII) ?? text.utf8.allSatisfy { $0 < 0x80 }
    }

    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let words = bytes.count / 8
        var highBits: UInt64 = 0
        for index in 0..<words { highBits |= UnsafeRawPointer(base + index * 8).loadUnaligned(as: UInt64.self) }
        for index in (words * 8)..<bytes.count { highBits |= UInt64(base[index]) }
        return highBits & 0x8080_8080_8080_8080 == 0
    }

    /// `text.lowercased()`: scalar by scalar as the standard library maps them, ASCII byte by byte.
    static func lowercased(_ text: String) -> String {
        String(decoding: loweredBytes(text), as: UTF8.self)
    }

    /// `text` without diacritics ("café" → "cafe"), as Foundation's diacritic-insensitive
    /// folding gives; only the non-ASCII characters go through Foundation.
    static func folded(_ text: String) -> String {
        guard !isASCII(text) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII { bytes.append(UInt8(scalar.value)) } else { bytes.append(contentsOf: FoldedScalars.shared.fold(scalar).utf8) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The UTF-8 bytes of `text` lower-cased; ASCII text is lowered byte by byte.
    static func loweredBytes(_ text: String) -> [UInt8] {
        guard !isASCII(text) else { return text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 } }
        // Scalar by scalar, as `String.lowercased()` maps them, without lowering the ASCII through it.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                bytes.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
            } else {
                bytes.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
            }
        }
        return bytes
    }

    /// Whether `needle` occurs in `haystack`, byte for byte.
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { word in
                let first = word[0], lastStart = hay.count - word.count
                var position = 0
                while position <= lastStart {
                    // memchr finds the next candidate first byte; memcmp confirms the rest.
                    guard let hit = memchr(hay.baseAddress! + position, Int32(first), lastStart - position + 1) else { return false }
                    position = hay.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if memcmp(hay.baseAddress! + position, word.baseAddress!, word.count) == 0 { return true }
                    position += 1
                }
                return false
            }
        }
    }

    /// The pairs of adjacent bytes a text holds, as a bit set: a word with a pair the
    /// text lacks is not in it. Ruling most of a long word list out this way costs a
    /// few bit tests each, where searching the text would scan it once per word.
    struct BytePairs {
        private var bits = [UInt64](repeating: 0, count: 65536 / 64)

        init(_ bytes: [UInt8]) {
            guard bytes.count > 1 else { return }
            for index in 1..<bytes.count {
                let pair = Int(bytes[index - 1]) << 8 | Int(bytes[index])
                bits[pair >> 6] |= 1 << UInt64(pair & 63)
            }
        }

        /// False when `needle` (two bytes or more) has a pair the text lacks; true otherwise.
        func mayContain(_ needle: [UInt8]) -> Bool {
            guard needle.count > 1 else { return true }
            for index in 1..<needle.count {
                let pair = Int(needle[index - 1]) << 8 | Int(needle[index])
                if bits[pair >> 6] & (1 << UInt64(pair & 63)) == 0 { return false }
            }
            return true
        }
    }

    /// `phrase` as whole words, case-insensitive: no letter or digit right before or after it.
    static func wholePhrase(_ phrase: String) -> NSRegularExpression? {
        CompiledPatterns.shared.regex(
            "(?<![\\p{L}\\p{N}])" + NSRegularExpression.escapedPattern(for: phrase) + "(?![\\p{L}\\p{N}])", options: [.caseInsensitive])
    }

    /// Whether `text` holds a digit and one of `units` (lower-cased bytes): the cheap
    /// test before a regular expression looks for an amount ("20 lbs", "16 weeks").
    static func mayStateAmount(in text: String, units: [[UInt8]]) -> Bool {
        let lowered = loweredBytes(text)
        return lowered.contains { (0x30...0x39).contains($0) } && units.contains { contains(lowered, $0) }
    }

    /// The first match of a regular expression, with context; nil if none.
    static func firstMatch(ofPattern pattern: String, in text: String) -> String? {
        guard let regex = CompiledPatterns.shared.regex(pattern),
              let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let found = Range(match.range, in: text)
        else { return nil }
        return excerpt(around: found, in: text)
    }

    /// "…text around the match…", on one line, about 80 characters.
    static func excerpt(around range: Range<String.Index>, in text: String) -> String {
        let start = text.index(range.lowerBound, offsetBy: -30, limitedBy: text.startIndex) ?? text.startIndex
        let end = text.index(range.upperBound, offsetBy: 30, limitedBy: text.endIndex) ?? text.endIndex
        let snippet = String(decoding: text[start..<end].utf8.map { $0 == 0x0A ? 0x20 : $0 }, as: UTF8.self)
        return (start > text.startIndex ? "…" : "") + snippet + (end < text.endIndex ? "…" : "")
    }

    /// Lower-cased words of `text` longer than two letters, for similarity.
    public static func words(_ text: String) -> Set<String> {
        let lowered = loweredBytes(text)
        guard lowered.withUnsafeBufferPointer(isASCII) else {
            let isWordPart = { (scalar: Unicode.Scalar) in
                let properties = scalar.properties
                return properties.isAlphabetic || properties.numericType != nil || properties.generalCategory == .nonspacingMark
            }
            let scalars = String(decoding: lowered, as: UTF8.self).unicodeScalars
            return Set(scalars.split { !isWordPart($0) }.map { String(String.UnicodeScalarView($0)) }.filter { $0.count > 2 })
        }
        // ASCII: a word is a run of letters and digits.
        let isWordPart = { (byte: UInt8) in (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) }
        var words = Set<String>()
        for word in lowered.split(whereSeparator: { !isWordPart($0) }) where word.count > 2 {
            words.insert(String(decoding: word, as: UTF8.self))
        }
        return words
    }

    /// Jaccard similarity of two word sets, 0 to 1.
    public static func similarity(_ a: Set<String>, _ b: Set<String>) -> Double {
        guard !a.isEmpty || !b.isEmpty else { return 1 }
        return Double(a.intersection(b).count) / Double(a.union(b).count)
    }

    /// Jaccard similarity of two texts' word sets, 0 to 1.
    public static func similarity(_ left: String, _ right: String) -> Double {
        similarity(words(left), words(right))
    }
}

/// Unicode scalars without their diacritics ("é" → "e", a combining accent → ""),
/// remembered: a run meets the same few accented letters thousands of times.
final class FoldedScalars: Sendable {
    static let shared = FoldedScalars()
    private let cache = SharedCache<Unicode.Scalar, String>()

    func fold(_ scalar: Unicode.Scalar) -> String {
        cache.value(for: scalar) {
            // Alone, a combining accent survives Foundation's folding; after its letter it would not.
            scalar.properties.generalCategory == .nonspacingMark
                ? "" : String(scalar).folding(options: [.diacriticInsensitive], locale: nil)
        }
    }
}

/// Search terms by word: the same few hundred words (equipment, referrals,
/// assertions) are looked for in every output.
final class SearchTerms: Sendable {
    static let shared = SearchTerms()
    private let cache = SharedCache<String, TextMatching.SearchTerm>()

    func term(_ word: String) -> TextMatching.SearchTerm {
        cache.value(for: word) { TextMatching.SearchTerm(word) }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (and `extra` characters); Foundation's
    /// `trimmingCharacters` would copy the text through NSString.
    func trimmed(also extra: Set<Character> = []) -> SubSequence {
        let keep: (Character) -> Bool = { !(($0.isWhitespace && !$0.isNewline) || extra.contains($0)) }
        guard let first = firstIndex(where: keep), let last = lastIndex(where: keep) else { return self[endIndex...] }
        return self[first...last]
    }
}
