/// Escaping for text and attribute values placed in HTML pages.
public enum HTML {
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// A complete self-contained page: the report stylesheet, an optional inline
    /// script, and a content security policy that forbids any network access.
    public static func document(title: String, body: String, script: String? = nil) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
        <title>\(escape(title))</title>
        <style>\(HTMLReport.stylesheet)</style></head>
        <body>
        \(body)\(script.map { "<script>\($0)</script>" } ?? "")</body></html>

        """
    }
}
