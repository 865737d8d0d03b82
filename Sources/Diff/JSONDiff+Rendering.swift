import JSONSchema

extension JSONDiff {
    /// The changes as lines for a reader, one per change; empty when there are none.
    ///
    /// Lines read `~ path: old → new`, `+ path: new`, `- path: old` and
    /// `↕ path: moved from 2 to 0`, with values previewed to about 80
    /// characters. A long string that changed shows only the words around the
    /// region that differs. With `color`, additions are green, removals red,
    /// and changes and moves yellow.
    public func rendered(color: Bool = false) -> String {
        changes.map { change in
            let line = change.description
            guard color else { return line }
            let code: String
            switch change.kind {
            case .added: code = "32"
            case .removed: code = "31"
            case .changed, .moved: code = "33"
            }
            return "\u{1B}[\(code)m\(line)\u{1B}[0m"
        }.joined(separator: "\n")
    }

    static let previewLimit = 80

    static func path(_ parent: String, key: String) -> String {
        if isIdentifier(key) { return parent.isEmpty ? key : parent + "." + key }
        return parent + "[" + JSONValue.string(key).serialized() + "]"
    }

    static func path(_ parent: String, index: Int) -> String {
        parent + "[\(index)]"
    }

    static func path(_ parent: String, key: String, id: JSONValue) -> String {
        let name = isIdentifier(key) ? key : JSONValue.string(key).serialized()
        return parent + "[" + name + "=" + id.serialized() + "]"
    }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.first, !first.isNumber else { return false }
        return key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }
}

extension JSONDiff.Change: CustomStringConvertible {
    /// The change as one line, such as `~ options[id="run-5k"].summary: "Run" → "Jog"`.
    public var description: String {
        let limit = JSONDiff.previewLimit
        switch kind {
        case .added:
            return "+ \(path): \(newValue?.preview(limit: limit) ?? "")"
        case .removed:
            return "- \(path): \(oldValue?.preview(limit: limit) ?? "")"
        case .moved:
            return "↕ \(path): moved from \(move?.from ?? 0) to \(move?.to ?? 0)"
        case .changed:
            if case .string(let old)? = oldValue, case .string(let new)? = newValue,
               let hint = WordHint(old: old, new: new, limit: limit)
            {
                return "~ \(path): \(hint.old) → \(hint.new)"
            }
            let old = oldValue?.preview(limit: limit) ?? ""
            let new = newValue?.preview(limit: limit) ?? ""
            return "~ \(path): \(old) → \(new)"
        }
    }
}

/// The region where two long strings differ, by whole words, with a few words of context.
struct WordHint {
    static let contextWords = 3
    static let regionLimit = 40
    static let contextLimit = 24

    let old: String
    let new: String

    /// Nil when both strings are short enough to preview whole.
    init?(old: String, new: String, limit: Int) {
        guard JSONValue.string(old).serialized().count > limit || JSONValue.string(new).serialized().count > limit
        else { return nil }
        let before = Self.tokens(old), after = Self.tokens(new)
        let (head, tail) = commonAffixLengths(before, after)
        let leading = Self.context(before[..<head].reversed()).reversed()
        let trailing = Self.context(before[(before.count - tail)...])
        var prefix = Self.clip(String(leading.joined()), to: Self.contextLimit, keepingStart: false)
        if leading.count < head, !prefix.hasPrefix("…") { prefix = "…" + prefix }
        var suffix = Self.clip(trailing.joined(), to: Self.contextLimit, keepingStart: true)
        if trailing.count < tail, !suffix.hasSuffix("…") { suffix += "…" }
        func side(_ tokens: [Substring]) -> String {
            let middle = tokens[head..<(tokens.count - tail)].joined()
            let region = Self.clip(middle, to: Self.regionLimit, keepingStart: true)
            return JSONValue.string(prefix + region + suffix).serialized()
        }
        self.old = side(before)
        self.new = side(after)
    }

    /// Runs of whitespace and runs of anything else, in order.
    private static func tokens(_ text: String) -> [Substring] {
        var tokens: [Substring] = []
        var start = text.startIndex
        for index in text.indices.dropFirst() where text[index].isWhitespace != text[start].isWhitespace {
            tokens.append(text[start..<index])
            start = index
        }
        if start < text.endIndex { tokens.append(text[start...]) }
        return tokens
    }

    /// Tokens nearest the region, up to a few words, never starting with whitespace at the far end.
    private static func context<S: Sequence<Substring>>(_ tokens: S) -> [Substring] {
        var taken: [Substring] = []
        var words = 0
        for token in tokens {
            let isSpace = token.first?.isWhitespace ?? false
            if !isSpace, words == contextWords { break }
            taken.append(token)
            if !isSpace { words += 1 }
        }
        if words == contextWords, taken.last?.first?.isWhitespace == true { taken.removeLast() }
        return taken
    }

    /// Text cut to about `limit` characters, keeping its start or its end.
    private static func clip(_ text: String, to limit: Int, keepingStart: Bool) -> String {
        guard text.count > limit else { return text }
        return keepingStart ? String(text.prefix(limit)) + "…" : "…" + String(text.suffix(limit))
    }
}
