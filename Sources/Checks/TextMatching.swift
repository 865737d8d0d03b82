import Foundation
import JSONSchema

/// Case-insensitive, word-aware text search over model output.
enum TextMatching {
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

    /// Text prepared once for many word searches: folded for diacritics, and
    /// lower-cased for a cheap containment test before any regular expression runs.
    struct Searchable {
        let folded: String
        let lowered: String

        init(_ text: String) {
            folded = text.folding(options: [.diacriticInsensitive], locale: nil)
            lowered = folded.lowercased()
        }
    }

    /// The first occurrence of `word` in `text` as a whole word (so "run" does not
    /// match "brunch"), case- and diacritic-insensitive, with a little context; nil if absent.
    /// A word's plural, -ing and -ed forms count ("lunge" finds "lunges", "run" finds "running").
    static func firstMatch(of word: String, in text: String) -> String? {
        firstMatch(of: word, in: Searchable(text))
    }

    static func firstMatch(of word: String, in text: Searchable) -> String? {
        let target = word.trimmingCharacters(in: .whitespaces).folding(options: [.diacriticInsensitive], locale: nil)
        // Every match contains the word itself: most searches end here, without a regex.
        guard !target.isEmpty, text.lowered.contains(target.lowercased()),
              let pattern = CompiledPatterns.shared.regex(
                "(?<![\\p{L}\\p{N}])\(NSRegularExpression.escapedPattern(for: target))(?:\\p{L}?(?:ing|ed)|e?s)?(?![\\p{L}\\p{N}])",
                options: [.caseInsensitive])
        else { return nil }
        let folded = text.folded
        guard let match = pattern.firstMatch(in: folded, range: NSRange(folded.startIndex..., in: folded)),
              let found = Range(match.range, in: folded)
        else { return nil }
        return excerpt(around: found, in: folded)
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
        let snippet = text[start..<end].replacingOccurrences(of: "\n", with: " ")
        return (start > text.startIndex ? "…" : "") + snippet + (end < text.endIndex ? "…" : "")
    }

    /// Lower-cased words of `text`, for similarity.
    static func words(_ text: String) -> Set<String> {
        Set(text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init).filter { $0.count > 2 })
    }

    /// Jaccard similarity of two texts' word sets, 0 to 1.
    static func similarity(_ left: String, _ right: String) -> Double {
        let a = words(left), b = words(right)
        guard !a.isEmpty || !b.isEmpty else { return 1 }
        return Double(a.intersection(b).count) / Double(a.union(b).count)
    }
}

/// Compiled regular expressions by pattern. Compiling dominates the checks'
/// cost (the same few hundred patterns run against every output), and a
/// compiled `NSRegularExpression` is safe to share across threads.
final class CompiledPatterns: @unchecked Sendable {
    static let shared = CompiledPatterns()

    private struct Key: Hashable {
        var pattern: String
        var options: UInt
    }

    private let lock = NSLock()
    private var compiled: [Key: NSRegularExpression?] = [:]

    /// The compiled pattern, or nil when it does not compile.
    func regex(_ pattern: String, options: NSRegularExpression.Options = []) -> NSRegularExpression? {
        let key = Key(pattern: pattern, options: options.rawValue)
        if let cached = lock.withLock({ compiled[key] }) { return cached }
        let regex = try? NSRegularExpression(pattern: pattern, options: options)
        lock.withLock { compiled[key] = .some(regex) }
        return regex
    }
}
