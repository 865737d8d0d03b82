import Foundation

/// Renders the markdown a model writes (headings, paragraphs, lists, tables,
/// quotes, code, rules, emphasis, links) as HTML for the report.
///
/// Model output is untrusted: every piece of text is escaped, raw HTML is shown
/// as text, and only `http(s)` links become anchors. Nothing the model writes can
/// add an element, an attribute or a script to the page.
public enum MarkdownHTML {
    public static func render(_ markdown: String) -> String {
        var renderer = BlockRenderer(lines: markdown.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        return renderer.render()
    }

    /// Inline markup: code spans, bold, italics and links, over escaped text.
    static func inline(_ text: String) -> String {
        var html = ""
        var rest = Substring(text)
        while let index = rest.firstIndex(where: { "`*_[".contains($0) }) {
            html += HTML.escape(String(rest[..<index]))
            rest = rest[index...]
            if let (rendered, remainder) = span(in: rest) {
                html += rendered
                rest = remainder
            } else {
                html += HTML.escape(String(rest.prefix(1)))
                rest = rest.dropFirst()
            }
        }
        return html + HTML.escape(String(rest))
    }

    private static func span(in text: Substring) -> (String, Substring)? {
        if text.hasPrefix("`") {
            guard let end = text.dropFirst().firstIndex(of: "`") else { return nil }
            return ("<code>" + HTML.escape(String(text[text.index(after: text.startIndex)..<end])) + "</code>", text[text.index(after: end)...])
        }
        for (marker, tag) in [("**", "strong"), ("__", "strong"), ("*", "em"), ("_", "em")] where text.hasPrefix(marker) {
            let body = text.dropFirst(marker.count)
            guard let first = body.first, first != " ", let end = body.range(of: marker), end.lowerBound > body.startIndex else { continue }
            // `snake_case` words are not emphasis.
            if marker == "_", let after = body[end.upperBound...].first, after.isLetter || after.isNumber || ProgramChanges.isMark(after) { continue }
            return ("<\(tag)>" + inline(String(body[..<end.lowerBound])) + "</\(tag)>", body[end.upperBound...])
        }
        if text.hasPrefix("["), let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix("("),
           let end = text[close...].firstIndex(of: ")")
        {
            let label = String(text[text.index(after: text.startIndex)..<close])
            // A changed link is marked in its label, never inside its address.
            let url = String(text[text.index(close, offsetBy: 2)..<end].filter { !ProgramChanges.isMark($0) })
            let rendered = url.hasPrefix("https://") || url.hasPrefix("http://")
                ? "<a href=\"\(HTML.escape(url))\" rel=\"noopener noreferrer\">\(inline(label))</a>"
                : inline(label) + " (" + HTML.escape(url) + ")"
            return (rendered, text[text.index(after: end)...])
        }
        return nil
    }
}

/// Walks the lines once, emitting one block at a time.
private struct BlockRenderer {
    let lines: [String]
    var position = 0
    var html: [String] = []

    init(lines: [String]) {
        self.lines = lines
    }

    mutating func render() -> String {
        while position < lines.count {
            let line = lines[position]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty {
                position += 1
            } else if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                code(fence: String(trimmed.prefix(3)))
            } else if let (level, text) = heading(trimmed) {
                html.append("<h\(level)>\(MarkdownHTML.inline(text))</h\(level)>")
                position += 1
            } else if isRule(trimmed) {
                html.append("<hr>")
                position += 1
            } else if trimmed.hasPrefix(">") {
                quote()
            } else if trimmed.hasPrefix("|"), position + 1 < lines.count, isTableSeparator(lines[position + 1]) {
                table()
            } else if listItem(line) != nil {
                list()
            } else {
                paragraph()
            }
        }
        return html.joined(separator: "\n")
    }

    private func heading(_ line: String) -> (Int, String)? {
        let hashes = line.prefix { $0 == "#" }.count
        guard (1...6).contains(hashes), line.dropFirst(hashes).first == " " else { return nil }
        return (hashes, line.dropFirst(hashes + 1).trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "#")).trimmingCharacters(in: .whitespaces))
    }

    private func isRule(_ line: String) -> Bool {
        let compact = line.filter { $0 != " " }
        guard compact.count >= 3, let first = compact.first, "-*_".contains(first) else { return false }
        return compact.allSatisfy { $0 == first }
    }

    private func isTableSeparator(_ line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.contains("-") && trimmed.allSatisfy { "|-: ".contains($0) }
    }

    /// `(indent, ordered, text)` for a list item line.
    private func listItem(_ line: String) -> (Int, Bool, String)? {
        let indent = line.prefix { $0 == " " }.count
        let body = line.dropFirst(indent)
        if let first = body.first, "-*+".contains(first), body.dropFirst().first == " " {
            return (indent, false, String(body.dropFirst(2)))
        }
        let digits = body.prefix { $0.isNumber }
        if !digits.isEmpty, digits.count < 4, body.dropFirst(digits.count).hasPrefix(". ") || body.dropFirst(digits.count).hasPrefix(") ") {
            return (indent, true, String(body.dropFirst(digits.count + 2)))
        }
        return nil
    }

    private mutating func code(fence: String) {
        position += 1
        var body: [String] = []
        while position < lines.count, !lines[position].trimmingCharacters(in: .whitespaces).hasPrefix(fence) {
            body.append(lines[position])
            position += 1
        }
        position += 1
        html.append("<pre><code>" + HTML.escape(body.joined(separator: "\n")) + "</code></pre>")
    }

    private mutating func quote() {
        var body: [String] = []
        while position < lines.count {
            let trimmed = lines[position].trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix(">") else { break }
            body.append(String(trimmed.dropFirst()).trimmingCharacters(in: .whitespaces))
            position += 1
        }
        html.append("<blockquote>" + MarkdownHTML.render(body.joined(separator: "\n")) + "</blockquote>")
    }

    private mutating func table() {
        let header = cells(lines[position])
        let alignments = cells(lines[position + 1]).map { cell -> String in
            switch (cell.hasPrefix(":"), cell.hasSuffix(":")) {
            case (true, true): " style=\"text-align:center\""
            case (false, true): " style=\"text-align:right\""
            default: ""
            }
        }
        position += 2
        func row(_ values: [String], tag: String) -> String {
            "<tr>" + values.enumerated().map { index, value in
                "<\(tag)\(index < alignments.count ? alignments[index] : "")>\(MarkdownHTML.inline(value))</\(tag)>"
            }.joined() + "</tr>"
        }
        var body: [String] = []
        while position < lines.count, lines[position].trimmingCharacters(in: .whitespaces).hasPrefix("|") {
            body.append(row(cells(lines[position]), tag: "td"))
            position += 1
        }
        html.append("<table><thead>\(row(header, tag: "th"))</thead><tbody>\(body.joined())</tbody></table>")
    }

    private func cells(_ line: String) -> [String] {
        var trimmed = Substring(line.trimmingCharacters(in: .whitespaces))
        if trimmed.hasPrefix("|") { trimmed = trimmed.dropFirst() }
        if trimmed.hasSuffix("|") { trimmed = trimmed.dropLast() }
        return trimmed.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// A list and any lists nested in it by indentation.
    private mutating func list() {
        guard let (baseIndent, ordered, _) = listItem(lines[position]) else { return }
        let tag = ordered ? "ol" : "ul"
        var items: [String] = []
        while position < lines.count {
            let line = lines[position]
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                // A blank line ends the list unless another item follows.
                guard position + 1 < lines.count, let next = listItem(lines[position + 1]), next.0 >= baseIndent else { break }
                position += 1
                continue
            }
            if let (indent, itemOrdered, text) = listItem(line) {
                if indent < baseIndent || (indent == baseIndent && itemOrdered != ordered) { break }
                if indent > baseIndent, !items.isEmpty {
                    var nested = BlockRenderer(lines: Array(lines[position...]))
                    nested.list()
                    items[items.count - 1] += nested.html.joined()
                    position += nested.position
                    continue
                }
                items.append(MarkdownHTML.inline(text))
                position += 1
            } else if line.hasPrefix(" "), !items.isEmpty {
                // A continuation line of the item above.
                items[items.count - 1] += " " + MarkdownHTML.inline(line.trimmingCharacters(in: .whitespaces))
                position += 1
            } else {
                break
            }
        }
        html.append("<\(tag)>" + items.map { "<li>\($0)</li>" }.joined() + "</\(tag)>")
    }

    private mutating func paragraph() {
        var body: [String] = []
        while position < lines.count {
            let line = lines[position]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || heading(trimmed) != nil || isRule(trimmed) || trimmed.hasPrefix(">") || trimmed.hasPrefix("```")
                || listItem(line) != nil || (trimmed.hasPrefix("|") && position + 1 < lines.count && isTableSeparator(lines[position + 1]))
            {
                if body.isEmpty { body.append(trimmed); position += 1 }
                break
            }
            body.append(trimmed)
            position += 1
        }
        html.append("<p>" + body.map(MarkdownHTML.inline).joined(separator: "<br>\n") + "</p>")
    }
}
