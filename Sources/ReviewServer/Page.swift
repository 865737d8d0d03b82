import Intake
import Reports

/// A page as the server answers it: its title and body, framed by `document`.
struct Page: Sendable {
    var title: String
    var body: String
    var status: Int = 200
    /// Shown above the body: what the last action did, or why it was refused.
    var notice: Notice?

    struct Notice: Sendable {
        var text: String
        var isError: Bool
    }

    /// The whole HTML document: the report's stylesheet, the navigation, the review
    /// script (keyboard shortcuts, and the token forms send), and the notice.
    func document() -> String {
        // Shown by the script when this browser holds no token for the server.
        let banner = """
            <p class="readonly" hidden>Read-only: accepting, discarding and labelling need the token of the address <code>trainer-eval serve</code> printed. Open that address to act.</p>
            """
        let notice = notice.map { "<p class=\"notice\(($0.isError ? " error" : ""))\" role=\"status\">\(HTML.message($0.text))</p>" } ?? ""
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTML.escape(title)) · trainer-eval</title>
            <style>\(HTMLReport.stylesheet)\n\(ComparisonReport.comparisonStylesheet)\n\(Assets.stylesheet)</style>
            <script src="/assets/review.js" defer></script></head>
            <body>
            <nav class="site"><a href="/">trainer-eval</a><a href="/runs">Runs</a><a href="/queue" data-key="q">Queue</a><a href="/golden">Golden</a>\
            <a href="/agreement">Agreement</a><a href="/compare">Compare</a><span class="keys">Keys: <kbd>?</kbd></span></nav>
            <main>\(banner)\(notice)\(body)</main>
            \(Assets.keyHelp)
            </body></html>

            """
    }
}

/// Where each page is.
enum Links {
    static func step(track: String, key: StepKey) -> String {
        "/step?" + FormFields.query([("track", track), ("fixture", key.fixture), ("step", key.step)])
    }

    static func run(_ id: String) -> String {
        "/runs/" + FormFields.encode(id)
    }

    static func runStep(_ id: String, key: StepKey) -> String {
        run(id) + "/step?" + FormFields.query([("fixture", key.fixture), ("step", key.step)])
    }

    static func agreement(track: String) -> String {
        "/agreement?" + FormFields.query([("track", track)])
    }

    /// `href="…"`, escaped.
    static func href(_ url: String) -> String {
        "href=\"\(HTML.escape(url))\""
    }
}

/// One page of a long list, and the links to the others.
struct Paging: Sendable {
    var page: Int
    var perPage: Int
    var total: Int

    init(requested: String?, perPage: Int, total: Int) {
        self.perPage = perPage
        self.total = total
        let pages = max(1, (total + perPage - 1) / perPage)
        page = min(max(1, Int(requested ?? "") ?? 1), pages)
    }

    var pages: Int { max(1, (total + perPage - 1) / perPage) }
    var range: Range<Int> { min(total, (page - 1) * perPage)..<min(total, page * perPage) }

    /// `Page 2 of 40 · first · previous · next · last`, linking with `url(page)`.
    func navigation(_ url: (Int) -> String) -> String {
        guard pages > 1 else { return "" }
        func link(_ label: String, _ target: Int, rel: String) -> String {
            target == page || target < 1 || target > pages
                ? "<span class=\"off\">\(label)</span>" : "<a \(Links.href(url(target))) rel=\"\(rel)\">\(label)</a>"
        }
        return "<nav class=\"paging\">Page \(page) of \(pages) (\(range.lowerBound + 1)–\(range.upperBound) of \(total)) "
            + [link("first", 1, rel: "first"), link("previous", page - 1, rel: "prev"), link("next", page + 1, rel: "next"), link("last", pages, rel: "last")]
            .joined(separator: " · ") + "</nav>"
    }
}

/// Hidden fields every form that changes something carries.
enum Forms {
    static func hidden(_ name: String, _ value: String) -> String {
        "<input type=\"hidden\" name=\"\(HTML.escape(name))\" value=\"\(HTML.escape(value))\">"
    }

    /// The step a form acts on. The token is added by the script as the form is sent,
    /// from the browser's storage for this server's origin: no page holds it.
    static func target(track: String, key: StepKey) -> String {
        hidden("track", track) + hidden("fixture", key.fixture) + hidden("step", key.step)
    }
}
