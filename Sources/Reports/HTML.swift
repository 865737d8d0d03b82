/// Escaping for text and attribute values placed in HTML pages.
public enum HTML {
    public static func escape(_ text: String) -> String {
        // Most text has nothing to escape: return it without copying.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") }) else {
            return text
        }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count + 32)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): escaped.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): escaped.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): escaped.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): escaped.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): escaped.append(contentsOf: "&#39;".utf8)
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// A message from a check, a verdict or a provider, with its line breaks: code
    /// spans and tags such as `<current_program>` shown as code, and the lines after
    /// the first in a block below it (coloured when they are a diff).
    public static func message(_ text: String) -> String {
        let (headline, details) = ReportText.split(text)
        let first = ReportText.pieces(headline).map { piece in
            switch piece {
            case .text(let text): escape(text)
            case .code(let code): "<code>\(escape(code))</code>"
            }
        }.joined()
        guard let details else { return first }
        return first + (ReportText.looksLikeDiff(details) ? diff(details, className: "detail") : "<pre class=\"detail\">\(escape(details))</pre>")
    }

    /// A diff in a `pre` block, each line coloured by its kind: added, removed, changed, hunk header or context.
    public static func diff(_ text: String, className: String = "diff") -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let style: String
            switch line.first {
            case "+" where !line.hasPrefix("+++"): style = "add"
            case "-" where !line.hasPrefix("---"): style = "del"
            case "~", "↕": style = "chg"
            case "@": style = "hunk"
            default: style = "ctx"
            }
            return "<span class=\"\(style)\">\(escape(String(line)))</span>"
        }
        return "<pre class=\"\(className)\">\(lines.joined(separator: "\n"))</pre>"
    }

    /// A complete self-contained page: the report stylesheet (with any rules a page
    /// adds), an optional inline script, and a content security policy that forbids
    /// any network access.
    public static func document(title: String, body: String, script: String? = nil, extraStyle: String = "") -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
        <title>\(escape(title))</title>
        <style>\(HTMLReport.stylesheet)\(extraStyle.isEmpty ? "" : "\n" + extraStyle)</style></head>
        <body>
        \(body)\(script.map { "<script>\($0)</script>" } ?? "")</body></html>

        """
    }
}
