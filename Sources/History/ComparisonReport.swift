import Foundation
import Reports

/// A comparison as text for a terminal, markdown for a pull request, and a
/// self-contained HTML page.
public enum ComparisonReport {
    /// `improved 3 · regressed 1 · changed 4 · unchanged 40`.
    public static func summaryLine(_ comparison: RunComparison) -> String {
        RunComparison.Change.allCases.compactMap { change in
            comparison.count(change) == 0 ? nil : "\(change.rawValue) \(comparison.count(change))"
        }.joined(separator: " · ")
    }

    /// Every case that is not unchanged, worst first, one line each with its details indented.
    public static func lines(_ comparison: RunComparison) -> [String] {
        comparison.cases.filter { $0.change != .unchanged }.sorted { ($0.change, $0.key) < ($1.change, $1.key) }.flatMap { item in
            ["\(item.change.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(item.key)"] + item.details.map { "          \($0)" }
        }
    }

    public static func markdown(_ comparison: RunComparison) -> String {
        var text = [
            "## trainer-eval: `\(comparison.headName)` against `\(comparison.baseName)`", "",
            summaryLine(comparison), "",
        ]
        let interesting = comparison.cases.filter { $0.change != .unchanged }.sorted { ($0.change, $0.key) < ($1.change, $1.key) }
        if interesting.isEmpty {
            text.append("Every case is unchanged.")
        } else {
            text += ["| change | case | details |", "|---|---|---|"]
            text += interesting.map { "| \($0.change.rawValue) | `\($0.key)` | \($0.details.joined(separator: "; ").replacingOccurrences(of: "|", with: "\\|")) |" }
        }
        return text.joined(separator: "\n") + "\n"
    }

    public static func html(_ comparison: RunComparison) -> String {
        let style: [RunComparison.Change: String] = [
            .regressed: "s-regression", .improved: "s-matches", .changed: "s-changed", .added: "s-new", .removed: "s-stale", .unchanged: "s-skipped",
        ]
        let chips = RunComparison.Change.allCases.map { change in
            "<span class=\"count \(style[change]!)\(comparison.count(change) == 0 ? " zero" : "")\"><b>\(comparison.count(change))</b> \(change.rawValue)</span>"
        }.joined()
        let rows = comparison.cases.sorted { ($0.change, $0.key) < ($1.change, $1.key) }.map { item in
            "<tr><td><span class=\"badge \(style[item.change]!)\">\(item.change.rawValue)</span></td><td><code>\(HTML.escape(item.key))</code></td><td>\(item.details.map(HTML.escape).joined(separator: "<br>"))</td></tr>"
        }.joined()
        let body = """
            <header><h1>trainer-eval <small>\(HTML.escape(comparison.headName)) against \(HTML.escape(comparison.baseName))</small></h1>
            <div class="counts">\(chips)</div></header>
            <main><section class="fixture"><div class="scroll checks"><table><thead><tr><th>change</th><th>case</th><th>details</th></tr></thead>\
            <tbody>\(rows)</tbody></table></div></section></main>
            """
        return HTML.document(title: "trainer-eval · \(comparison.headName) vs \(comparison.baseName)", body: body)
    }

    /// Writes `report.md` and `index.html` into `folder`, atomically.
    public static func write(_ comparison: RunComparison, to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(markdown(comparison).utf8).write(to: folder.appendingPathComponent("report.md"), options: .atomic)
        try Data(html(comparison).utf8).write(to: folder.appendingPathComponent("index.html"), options: .atomic)
    }
}
