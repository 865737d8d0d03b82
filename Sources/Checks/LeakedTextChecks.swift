import Foundation
import JSONSchema

/// Text that belongs to the prompt or the tooling, not to the person: template
/// placeholders (`<notes>`, `<detail>`, `[insert name]`, `{{name}}`), the prompt's own data tags, code fences,
/// and the system prompt's own sentences.
enum LeakedTextChecks {
    /// `output.no-leaked-text` over every string of an output, `text` (`TextMatching.text(of:)`).
    static func check(text: String) -> CheckResult {
        var found: [String] = []
        // Every pattern needs one of these characters: most outputs have none and are done here.
        let suspicious = text.utf8.contains { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "`") || $0 == UInt8(ascii: "[") }
        for pattern in patterns where suspicious {
            if let match = TextMatching.firstMatch(ofPattern: pattern.regex, in: text) {
                found.append("\(pattern.label): \(match)")
            }
        }
        return found.isEmpty
            ? .pass("output.no-leaked-text", "no placeholders, prompt tags or code fences")
            : .fail("output.no-leaked-text", found.joined(separator: "; "))
    }

    private static let patterns: [(label: String, regex: String)] = [
        ("a template placeholder", #"<(?!(?:br|b|i|p|em|strong|ul|ol|li|hr|sup|sub|small|u|span|div)\s*/?>)[A-Za-z_][A-Za-z_ -]{0,30}>|<\d+\s*min>|(?i)\[(?:insert\w*|your|tu|add|añad\w*|exercise|ejercicio|name|nombre|detail|detalle)\b[^\]]{0,30}\]"#),
        ("a mustache tag", #"\{\{[^}]*\}\}"#),
        ("a prompt tag", #"</?(?:intake_data|current_program|current_options|user_feedback|earlier_feedback|confirmed_goal|skipped_fields)>"#),
        ("a code fence", #"```"#),
    ]

    /// Words in a row that make a copied sentence: long enough that a note which only
    /// echoes the prompt's advice ("check with your doctor or a qualified professional
    /// before starting") is not counted, short enough to catch a copied rule or list.
    static let copiedRun = 10

    /// `output.no-prompt-text`: no run of `copiedRun` words of `systemPrompt`, or of the
    /// request's other instructions (`request`: the user message's own sentences, the
    /// health cautions it shows), in `text`.
    static func promptText(text: String, systemPrompt: String, request: String = "") -> CheckResult {
        let name = "output.no-prompt-text"
        let runs = promptRuns.value(for: systemPrompt) { Set(runHashes(wordHashes(systemPrompt))) }
        let requestRuns = request.isEmpty ? [] : promptRuns.value(for: request) { Set(runHashes(wordHashes(request))) }
        let hashes = runHashes(wordHashes(text))
        for (source, runs) in [("the system prompt", runs), ("the request's instructions", requestRuns)] {
            guard let start = hashes.indices.first(where: { runs.contains(hashes[$0]) }) else { continue }
            var end = start + copiedRun
            while end - copiedRun + 1 < hashes.count, runs.contains(hashes[end - copiedRun + 1]) { end += 1 }
            return .fail(name, "repeats \(source): \"\(words(text)[start..<end].joined(separator: " "))\"")
        }
        return .pass(name, "no run of \(copiedRun) words from the system prompt\(request.isEmpty ? "" : " or the request's instructions")")
    }

    /// A template's own words: every `{{tag}}` and `{{{tag}}}` made a break, so the data it
    /// fills in is never taken for an instruction.
    static func withoutTemplateTags(_ template: String) -> String {
        guard let regex = CompiledPatterns.shared.regex(#"\{\{\{?[^}]*\}?\}\}"#) else { return template }
        return regex.stringByReplacingMatches(in: template, range: NSRange(template.startIndex..., in: template), withTemplate: "\n")
    }

    private static let promptRuns = SharedCache<String, Set<UInt64>>()

    /// Lower-cased words without accents, as byte runs: letters and digits (any byte
    /// outside ASCII counts as a letter). A gate asks this of every output.
    private static func wordRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start: Int?
        for (index, byte) in bytes.enumerated() {
            let isWordPart = byte >= 0x80 || (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x7A)
            if isWordPart {
                if start == nil { start = index }
            } else if let first = start {
                ranges.append(first..<index)
                start = nil
            }
        }
        if let first = start { ranges.append(first..<bytes.count) }
        return ranges
    }

    /// Each word's FNV-1a hash: cheap, and 64 bits leave collisions to chance alone.
    private static func wordHashes(_ text: String) -> [UInt64] {
        let bytes = TextMatching.loweredBytes(TextMatching.folded(text))
        return wordRanges(bytes).map { range in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes[range] { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return hash
        }
    }

    private static func words(_ text: String) -> [String] {
        let bytes = TextMatching.loweredBytes(TextMatching.folded(text))
        return wordRanges(bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    /// The hash of every run of `copiedRun` words, by the position it starts at.
    private static func runHashes(_ words: [UInt64]) -> [UInt64] {
        guard words.count >= copiedRun else { return [] }
        return (0...(words.count - copiedRun)).map { start in
            var hash: UInt64 = 0
            for word in words[start..<(start + copiedRun)] { hash = (hash &* 0x9E37_79B9_7F4A_7C15) ^ word }
            return hash
        }
    }
}
