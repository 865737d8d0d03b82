import Golden

extension HTMLReport {
    /// What a reviewer of a failing gate sees first: every step that fails the gate,
    /// worst first, each linking to its step; then orphans and unmet pass rates;
    /// new checks not approved yet, then known failures last, folded away.
    static func attention(_ report: RunReport) -> String {
        var items = report.attentionGroups.map { group in
            guard group.steps.count > 1 else { return item(group.status, link: link(to: group.steps[0]), summary: group.summary) }
            return "<li data-status=\"\(group.status.rawValue)\">\(badge(group.status))<strong>\(group.steps.count) steps</strong> "
                + HTML.message(group.summary) + "<br>" + group.steps.map(link).joined(separator: ", ") + "</li>"
        }
        if !report.orphans.isEmpty {
            let count = report.orphans.count
            items.append(item(.regression, label: "orphaned", link: "<a href=\"#orphans\">golden files</a>",
                              summary: "\(count) golden entr\(count == 1 ? "y" : "ies") no fixture produces"))
        }
        for gap in report.languageGaps ?? [] {
            items.append(item(.changed, label: "language", link: "<a href=\"#\(HTML.escape(ListedStep.name(fixture: gap.fixture, step: "goal-options")))\">\(HTML.escape(gap.fixture))</a>", summary: gap.consequence))
        }
        for check in report.failingSuiteChecks {
            items.append(item(.changed, label: "sameness", link: "<a href=\"#suite\"><code>\(HTML.escape(check.name))</code></a>", summary: check.message))
        }
        for shortfall in report.repeats?.shortfalls ?? [] {
            items.append(item(.regression, label: "pass rate", link: "<a href=\"#repeats\">repeats</a>", summary: shortfall))
        }
        var html = "<section class=\"attention\" id=\"needs-attention\"><h2>Needs attention (\(items.count))</h2>"
        html += items.isEmpty ? "<p>Nothing is flagged step by step; see the run below.</p>" : "<ol>\(items.joined())</ol>"
        if !report.nextSteps.isEmpty {
            html += "<p class=\"next\"><strong>Next:</strong> " + report.nextSteps.map(HTML.message).joined(separator: " ") + "</p>"
        }
        let unapproved = report.unapprovedChecks
        if !unapproved.isEmpty {
            html += "<details class=\"unapproved\"><summary>\(unapproved.count) step\(unapproved.count == 1 ? "" : "s") failing new checks, not approved yet</summary><ul>"
            html += unapproved.map { "<li>" + link(to: $0) + " " + HTML.message($0.step.fullSummary) + "</li>" }.joined()
            html += "</ul><p>" + HTML.message(RunReport.unapprovedChecksNote) + "</p></details>"
        }
        let known = report.knownFailures
        if !known.isEmpty {
            html += "<details class=\"known\"><summary>\(known.count) known failure\(known.count == 1 ? "" : "s") (failing in golden too)</summary><ul>"
            html += known.map { "<li>" + link(to: $0) + " " + HTML.message($0.step.fullSummary) + "</li>" }.joined()
            html += "</ul></details>"
        }
        return html + "</section>"
    }

    private static func item(_ status: StepVerdict.Status, label: String? = nil, link: String, summary: String) -> String {
        "<li data-status=\"\(status.rawValue)\">\(badge(status, label: label))\(link) \(HTML.message(summary))</li>"
    }

    private static func badge(_ status: StepVerdict.Status, label: String? = nil) -> String {
        "<span class=\"badge s-\(status.rawValue)\">\(HTML.escape(label ?? status.label))</span> "
    }

    /// A link to a step's article, named `fixture/step`.
    private static func link(to listed: ListedStep) -> String {
        "<a href=\"#\(HTML.escape(listed.name))\"><code>\(HTML.escape(listed.name))</code></a>"
    }
}
