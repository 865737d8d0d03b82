import JSONSchema

/// Text that belongs to the prompt or the tooling, not to the person: template
/// placeholders (`<notes>`, `{{name}}`), the prompt's own data tags, code fences,
/// and the system prompt's own sentences.
enum LeakedTextChecks {
    /// `output.no-leaked-text` over every string of an output, `text` (`TextMatching.text(of:)`).
    static func check(text: String) -> CheckResult {
        var found: [String] = []
        // Every pattern needs one of these characters: most outputs have none and are done here.
        let suspicious = text.utf8.contains { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "`") }
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
        ("a template placeholder", #"(?i)<(?:notes|name|exercise|session|minutes|reps|sets|rest|day|focus|goal|title|weeks?)>|<\d+\s*min>"#),
        ("a mustache tag", #"\{\{[^}]*\}\}"#),
        ("a prompt tag", #"</?(?:intake_data|current_program|current_options|user_feedback|earlier_feedback|confirmed_goal|skipped_fields)>"#),
        ("a code fence", #"```"#),
    ]

    /// Words in a row that make a copied sentence: long enough that a note which only
    /// echoes the prompt's advice ("check with your doctor or a qualified professional
    /// before starting") is not counted, short enough to catch a copied rule or list.
    static let copiedRun = 10

    /// `output.no-prompt-text`: no run of `copiedRun` words of `systemPrompt` in `text`.
    static func promptText(text: String, systemPrompt: String) -> CheckResult {
        let name = "output.no-prompt-text"
        let runs = promptRuns.value(for: systemPrompt) { Set(runHashes(words(systemPrompt))) }
        let outputWords = words(text)
        let hashes = runHashes(outputWords)
        guard let start = hashes.indices.first(where: { runs.contains(hashes[$0]) }) else {
            return .pass(name, "no run of \(copiedRun) words from the system prompt")
        }
        var end = start + copiedRun
        while end - copiedRun + 1 < hashes.count, runs.contains(hashes[end - copiedRun + 1]) { end += 1 }
        return .fail(name, "repeats the system prompt: \"\(outputWords[start..<end].joined(separator: " "))\"")
    }

    private static let promptRuns = SharedCache<String, Set<Int>>()

    /// Lower-cased words without accents: runs of letters and digits.
    private static func words(_ text: String) -> [String] {
        TextMatching.folded(text).lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    /// The hash of every run of `copiedRun` words, by the position it starts at.
    private static func runHashes(_ words: [String]) -> [Int] {
        guard words.count >= copiedRun else { return [] }
        return (0...(words.count - copiedRun)).map { start in
            var hasher = Hasher()
            for word in words[start..<(start + copiedRun)] { hasher.combine(word) }
            return hasher.finalize()
        }
    }
}
