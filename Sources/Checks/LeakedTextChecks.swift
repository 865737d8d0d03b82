import JSONSchema

/// Text that belongs to the prompt or the tooling, not to the person: template
/// placeholders (`<notes>`, `{{name}}`), the prompt's own data tags, and code fences.
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
}
