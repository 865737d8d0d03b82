import Golden

extension HTMLReport {
    /// What a reviewer of a failing gate sees first: every step that fails the gate,
    /// worst first, each linking to its step; then orphans and unmet pass rates;
    /// known failures last, folded away.
    static func attention(_ report: RunReport) -> String {
        var items = report.attentionGroups.map { group in
            guard group.steps.count > 1 else {
                return item(status: group.status, link: group.steps[0].name, name: group.steps[0].name, summary: group.summary)
            }
            return "<li data-status=\"\(group.status.rawValue)\">\(badge(group.status))<strong>\(group.steps.count) steps</strong> "
                + HTML.message(group.summary) + "<br>" + group.steps.map { link($0.name, to: $0.name) }.joined(separator: ", ") + "</li>"
        }
        if !report.orphans.isEmpty {
            let count = report.orphans.count
            items.append(item(status: .regression, label: "orphaned", link: "orphans", name: "golden",
                              summary: "\(count) golden entr\(count == 1 ? "y" : "ies") no fixture produces"))
        }
        for shortfall in report.repeats?.shortfalls ?? [] {
            items.append(item(status: .regression, label: "pass rate", link: "repeats", name: "repeats", summary: shortfall))
        }
        var html = "<section class=\"attention\" id=\"needs-attention\"><h2>Needs attention (\(items.count))</h2>"
        html += items.isEmpty ? "<p>Nothing is flagged step by step; see the run below.</p>" : "<ol>\(items.joined())</ol>"
        let known = report.knownFailures
        if !known.isEmpty {
            html += "<details class=\"known\"><summary>\(known.count) known failure\(known.count == 1 ? "" : "s") (failing in golden too)</summary><ul>"
            html += known.map { "<li>" + link($0.name, to: $0.name) + " " + HTML.message($0.step.fullSummary) + "</li>" }.joined()
            html += "</ul></details>"
        }
        return html + "</section>"
    }

    private static func item(status: StepVerdict.Status, label: String? = nil, link target: String, name: String, summary: String) -> String {
        "<li data-status=\"\(status.rawValue)\">\(badge(status, label: label))" + link(name, to: target) + " " + HTML.message(summary) + "</li>"
    }

    private static func badge(_ status: StepVerdict.Status, label: String? = nil) -> String {
        "<span class=\"badge s-\(status.rawValue)\">\(HTML.escape(label ?? status.label))</span> "
    }

    private static func link(_ name: String, to target: String) -> String {
        "<a href=\"#\(HTML.escape(target))\"><code>\(HTML.escape(name))</code></a>"
    }
}
