/// Messages as the report files show them: a headline that fits one line, and
/// the lines after it (a prompt diff, say) kept as they are.
enum ReportText {
    /// The first line of `text`, and the lines after it when there are any.
    static func split(_ text: String) -> (headline: String, details: String?) {
        guard let newline = text.utf8.firstIndex(of: UInt8(ascii: "\n")) else { return (text, nil) }
        let details = text[text.index(after: newline)...]
        return (String(text[..<newline]), details.isEmpty ? nil : String(details))
    }

    /// The first line of `text`, cut to at most `limit` characters with an ellipsis.
    static func headline(_ text: String, limit: Int = 160) -> String {
        let line = split(text).headline
        return line.count > limit ? String(line.prefix(limit - 1)) + "…" : line
    }

    /// Whether `text` reads as a diff: every line starts like a unified or structural diff line.
    static func looksLikeDiff(_ text: String) -> Bool {
        let lines = text.split(separator: "\n")
        return !lines.isEmpty && lines.allSatisfy { line in
            line.hasPrefix("---") || line.hasPrefix("+++") || line.hasPrefix("@@") || ["+", "-", " ", "~"].contains(line.first)
        }
    }

    /// The pieces of a one-line message: code spans written with backticks, tags
    /// such as `<current_program>` (shown as code too), and plain text between them.
    static func pieces(_ text: String) -> [Piece] {
        // Most messages have neither: one piece, without walking the characters.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "`") || $0 == UInt8(ascii: "<") }) else { return text.isEmpty ? [] : [.text(text)] }
        var pieces: [Piece] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            if rest.hasPrefix("`"), let end = rest.dropFirst().firstIndex(of: "`") {
                pieces.append(.code(String(rest[rest.index(after: rest.startIndex)..<end])))
                rest = rest[rest.index(after: end)...]
            } else if let tag = tagPrefix(of: rest) {
                pieces.append(.code(String(tag)))
                rest = rest[tag.endIndex...]
            } else {
                let next = rest.dropFirst().firstIndex { $0 == "`" || $0 == "<" } ?? rest.endIndex
                if case .text(let previous)? = pieces.last {
                    pieces[pieces.count - 1] = .text(previous + rest[..<next])
                } else {
                    pieces.append(.text(String(rest[..<next])))
                }
                rest = rest[next...]
            }
        }
        return pieces
    }

    enum Piece: Equatable {
        case text(String)
        case code(String)
    }

    /// `<name>` or `</name>` at the start of `text`, as prompts use to fence their parts.
    private static func tagPrefix(of text: Substring) -> Substring? {
        guard text.hasPrefix("<") else { return nil }
        var name = text.dropFirst()
        if name.hasPrefix("/") { name = name.dropFirst() }
        let length = name.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }.count
        guard length > 0, let first = name.first, first.isLetter || first == "_",
              name.dropFirst(length).hasPrefix(">") else { return nil }
        return text[..<name.index(name.startIndex, offsetBy: length + 1)]
    }
}
