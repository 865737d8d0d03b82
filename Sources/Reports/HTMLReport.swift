import Foundation
import Golden
import Intake
import JSONSchema
import Pipeline

/// A past run's pass rate, for the history chart.
public struct PassRatePoint: Sendable, Hashable {
    public var runID: String
    /// Share of model steps that passed the gate, 0...1.
    public var rate: Double

    public init(runID: String, rate: Double) {
        self.runID = runID
        self.rate = rate
    }
}

/// `index.html`: one self-contained page (inline style, script and SVG; a
/// content security policy that forbids any network access).
public enum HTMLReport {
    public static func render(_ report: RunReport, history: [PassRatePoint] = []) -> String {
        var page = ""
        page += header(report)
        page += charts(report, history: history)
        if let repeats = report.repeats { page += repeatSection(repeats) }
        page += filterBar(report)
        page += "<main>"
        let stepCount = report.fixtures.reduce(0) { $0 + $1.steps.count }
        let brief = stepCount > detailLimit
        if brief {
            page += "<p class=\"meta\">This run has \(stepCount) steps: steps that pass are shown in brief to keep the page fast. results.json has everything.</p>"
        }
        for fixture in report.fixtures { page += section(fixture, brief: brief) }
        if !report.orphans.isEmpty {
            page += "<section class=\"fixture\" data-status=\"regression\"><h2>Orphaned golden files</h2><p>No fixture produces these any more; remove them with <code>trainer-eval accept --prune</code>.</p><ul>"
                + report.orphans.map { "<li><code>\(HTML.escape($0))</code></li>" }.joined() + "</ul></section>"
        }
        page += systemMessages(report)
        page += "</main>"
        return HTML.document(title: "trainer-eval · \(report.run.id)", body: page, script: script)
    }

    // MARK: Summary

    private static func header(_ report: RunReport) -> String {
        let run = report.run
        let totals = report.totals
        let verdict = totals.passesGate
            ? "<span class=\"verdict pass\">gate passes</span>" : "<span class=\"verdict fail\">gate fails</span>"
        let prompts = run.prompts.sorted { $0.key < $1.key }.map {
            "<span class=\"prompt\" title=\"fingerprint \(HTML.escape($0.value.fingerprint))\">\(HTML.escape($0.key)) v\($0.value.version)</span>"
        }.joined(separator: " ")
        var facts: [(String, String)] = [
            ("Provider", HTML.escape("\(run.provider) · \(run.model)")),
            ("Prompts", prompts),
            ("Commit", HTML.escape(run.commit ?? "unknown")),
            ("Started", HTML.escape(ISO8601DateFormatter().string(from: run.startedAt))),
            ("Duration", String(format: "%.1f s", run.durationSeconds)),
            ("Tokens", "\(totals.inputTokens) in · \(totals.outputTokens) out"),
            ("Cost", totals.cost.map { String(format: "$%.4f", $0) } ?? "n/a"),
            ("Validity", "\(totals.firstPassValid) of \(totals.steps) valid first time · \(totals.repaired) repaired · \(totals.calls) calls"),
            ("Checks", "\(totals.checksPassed) passed · \(totals.checksFailed) failed"),
        ]
        if run.ci { facts.append(("Mode", "CI gate (nothing recorded or written)")) }
        if run.interrupted { facts.append(("Interrupted", "yes: unfinished steps are marked not run")) }
        let warnings = run.warnings.isEmpty ? "" : "<ul class=\"warnings\">" + run.warnings.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul>"
        return """
            <header><h1>trainer-eval <small>\(HTML.escape(run.id))</small> \(verdict)</h1>
            <div class="counts">\(counts(report))</div>
            <dl class="facts">\(facts.map { "<div><dt>\($0.0)</dt><dd>\($0.1)</dd></div>" }.joined())</dl>\(warnings)</header>
            """
    }

    private static func counts(_ report: RunReport) -> String {
        var chips = StepVerdict.Status.allCases.sorted { $0.severity > $1.severity }.compactMap { status -> String? in
            let count = report.count(status)
            guard count > 0 || [.matches, .regression, .knownFailure, .stale, .error].contains(status) else { return nil }
            return "<span class=\"count s-\(status.rawValue)\(count == 0 ? " zero" : "")\"><b>\(count)</b> \(status.label)</span>"
        }
        if report.totals.orphans > 0 { chips.append("<span class=\"count s-regression\"><b>\(report.totals.orphans)</b> orphaned</span>") }
        return chips.joined()
    }

    private static func charts(_ report: RunReport, history: [PassRatePoint]) -> String {
        var latency: [String: [Double]] = [:]
        var inputTokens: [String: Double] = [:]
        var outputTokens: [String: Double] = [:]
        for step in report.fixtures.flatMap(\.steps) where !step.attempts.isEmpty {
            guard let kind = step.step?.rawValue else { continue }
            latency[kind, default: []].append(step.latencySeconds)
            inputTokens[kind, default: 0] += Double(step.inputTokens)
            outputTokens[kind, default: 0] += Double(step.outputTokens)
        }
        let kinds: [String] = PipelineStep.allCases.map(\.rawValue).filter { latency[$0] != nil }
        guard !kinds.isEmpty || !history.isEmpty else { return "" }
        var figures: [String] = []
        if !kinds.isEmpty {
            let means: [Double] = kinds.map { kind in
                let values = latency[kind] ?? []
                return values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
            }
            let peaks: [Double] = kinds.map { latency[$0]?.max() ?? 0 }
            let latencySeries: [SVGChart.Series] = [
                SVGChart.Series(name: "mean", values: means, style: "bar-a"),
                SVGChart.Series(name: "slowest", values: peaks, style: "bar-b"),
            ]
            figures.append(SVGChart.bars(title: "Latency per step (s)", labels: kinds, series: latencySeries, unit: "s"))
            let inputs: [Double] = kinds.map { inputTokens[$0] ?? 0 }
            let outputs: [Double] = kinds.map { outputTokens[$0] ?? 0 }
            let tokenSeries: [SVGChart.Series] = [
                SVGChart.Series(name: "input", values: inputs, style: "bar-a"),
                SVGChart.Series(name: "output", values: outputs, style: "bar-b"),
            ]
            figures.append(SVGChart.bars(title: "Tokens per step (all fixtures)", labels: kinds, series: tokenSeries, unit: "tokens"))
        }
        if !history.isEmpty {
            figures.append(SVGChart.rateLine(title: "Pass rate across runs", labels: history.map(\.runID), rates: history.map(\.rate)))
        }
        return "<div class=\"charts\">" + figures.joined() + "</div>"
    }

    private static func repeatSection(_ repeats: RepeatStatistics) -> String {
        let header = repeats.tableHeader.map { "<th>\(HTML.escape($0))</th>" }.joined()
        let rows = repeats.tableRows.map { "<tr>" + $0.map { "<td>\(HTML.escape($0))</td>" }.joined() + "</tr>" }.joined()
        let flaky = repeats.flakyLines.isEmpty
            ? "<p>No flaky checks: every check gave the same result in every repeat.</p>"
            : "<h3>Flaky checks</h3><ul>" + repeats.flakyLines.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul>"
        return """
            <section class="repeats"><h2>Stability over \(repeats.repeats) repeats</h2>\
            <div class="scroll checks"><table><thead><tr>\(header)</tr></thead><tbody>\(rows)</tbody></table></div>\(flaky)\
            <p class="meta">Rates are the mean over repeats, with the lowest and highest repeat in brackets. The sections below show the first repeat.</p></section>
            """
    }

    private static func filterBar(_ report: RunReport) -> String {
        let present = StepVerdict.Status.allCases.filter { report.count($0) > 0 }.sorted { $0.severity > $1.severity }
        let buttons = ["<button type=\"button\" data-filter=\"all\" aria-pressed=\"true\">all</button>",
                       "<button type=\"button\" data-filter=\"problems\" aria-pressed=\"false\">needs attention</button>"]
            + present.map { "<button type=\"button\" data-filter=\"\($0.rawValue)\" aria-pressed=\"false\">\($0.label) (\(report.count($0)))</button>" }
        return "<nav class=\"filters\" aria-label=\"Filter by status\">\(buttons.joined())<input type=\"search\" id=\"search\" placeholder=\"fixture or step\" aria-label=\"Filter by fixture or step\"></nav>"
    }

    // MARK: Fixtures and steps

    /// Above this many steps, steps that pass the gate are shown in brief.
    static let detailLimit = 400

    private static func section(_ fixture: FixtureReport, brief: Bool) -> String {
        let allPass = fixture.steps.allSatisfy(\.passesGate)
        return """
            <section class="fixture" id="\(HTML.escape(fixture.name))" data-name="\(HTML.escape(fixture.name))">
            <h2><span class="badge s-\(fixture.status.rawValue)">\(fixture.status.label)</span> \(HTML.escape(fixture.name))</h2>
            \(brief && allPass ? "" : intake(fixture.intake))
            \(fixture.steps.map { step($0, fixture: fixture.name, brief: brief && $0.passesGate) }.joined())
            </section>
            """
    }

    /// Each step's system message, once: the steps link here.
    private static func systemMessages(_ report: RunReport) -> String {
        let prompts = PipelineStep.allCases.compactMap { step in report.run.prompts[step.rawValue].map { (step.rawValue, $0) } }
        guard !prompts.isEmpty else { return "" }
        return "<section class=\"fixture\"><h2>System messages</h2>" + prompts.map { name, prompt in
            "<details id=\"system-\(name)\"><summary>\(name) v\(prompt.version)</summary><pre>\(HTML.escape(prompt.system))</pre></details>"
        }.joined() + "</section>"
    }

    static let glanceFields = ["name", "age", "goals", "timeline", "experienceLevel", "frequency", "environment", "injuries", "healthNuances", "anythingElse"]

    private static func intake(_ record: JSONValue) -> String {
        let rows = glanceFields.compactMap { field -> String? in
            guard let value = record[field], value != .null else { return nil }
            let text = value.stringValue ?? value.serialized()
            return "<div><dt>\(field)</dt><dd>\(HTML.escape(text.count > 220 ? String(text.prefix(219)) + "…" : text))</dd></div>"
        }
        return """
            <details class="intake"><summary>Intake at a glance</summary><dl>\(rows.joined())</dl>\
            <details><summary>Full record</summary><pre>\(HTML.escape(record.serialized(.prettySorted)))</pre></details></details>
            """
    }

    private static func step(_ step: StepReport, fixture: String, brief: Bool) -> String {
        var html = "<article class=\"step\" data-status=\"\(step.status.rawValue)\" data-step=\"\(HTML.escape(step.id))\">"
        html += "<h3><span class=\"badge s-\(step.status.rawValue)\">\(step.status.label)</span> \(HTML.escape(step.id))"
        html += "<span class=\"meta\">\(meta(step))</span></h3>"
        if !step.reasons.isEmpty {
            html += "<ul class=\"reasons\">" + step.reasons.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul>"
        }
        if brief { return html + "</article>" }
        html += output(step)
        if let diff = step.diff { html += diffs(diff) }
        if !step.checks.isEmpty { html += checks(step.checks) }
        if step.attempts.contains(where: { !$0.problems.isEmpty }) { html += attempts(step.attempts) }
        if let prompt = step.prompt {
            let system = step.step.map { "<p>System message: <a href=\"#system-\($0.rawValue)\">\($0.rawValue)</a> (the same for every fixture).</p>" } ?? ""
            html += "<details class=\"prompt\"><summary>Rendered prompt</summary>\(system)<h4>User</h4><pre>\(HTML.escape(prompt.user))</pre></details>"
        }
        if let output = step.output {
            html += "<details><summary>Output JSON</summary><pre>\(HTML.escape(output.serialized(.prettySorted)))</pre></details>"
        }
        return html + "</article>"
    }

    private static func meta(_ step: StepReport) -> String {
        guard !step.attempts.isEmpty else { return "" }
        var parts = [String(format: "%.1f s", step.latencySeconds), "\(step.inputTokens)→\(step.outputTokens) tok"]
        if step.attempts.count > 1 { parts.append("\(step.attempts.count) attempts") }
        if step.repaired { parts.append("repaired") }
        let retries = step.attempts.reduce(0) { $0 + $1.retries }
        if retries > 0 { parts.append("\(retries) retries") }
        if let cost = step.cost { parts.append(String(format: "$%.4f", cost)) }
        return parts.map(HTML.escape).joined(separator: " · ")
    }

    private static func output(_ step: StepReport) -> String {
        if let options = step.output?["options"]?.arrayValue {
            var html = "<div class=\"cards\">" + options.map(card).joined() + "</div>"
            if step.status != .matches, step.status != .knownFailure, let golden = step.golden?["options"]?.arrayValue {
                html += "<details><summary>Golden options</summary><div class=\"cards golden\">" + golden.map(card).joined() + "</div></details>"
            }
            return html
        }
        if let markdown = step.markdown {
            let goldenColumn = step.goldenMarkdown.map { golden in
                golden == markdown ? "" : "<div class=\"program golden\"><h4 class=\"column-title\">Golden</h4>\(MarkdownHTML.render(golden))</div>"
            } ?? ""
            let title = goldenColumn.isEmpty ? "" : "<h4 class=\"column-title\">This run</h4>"
            return "<div class=\"programs\"><div class=\"program\">\(title)\(MarkdownHTML.render(markdown))</div>\(goldenColumn)</div>"
        }
        if step.step == nil, let chosen = step.output {
            return "<div class=\"cards\">\(card(chosen))</div>"
        }
        return ""
    }

    private static func card(_ option: JSONValue) -> String {
        "<div class=\"card\"><strong>\(HTML.escape(option["summary"]?.stringValue ?? ""))</strong><p>\(HTML.escape(option["detail"]?.stringValue ?? ""))</p><code>\(HTML.escape(option["id"]?.stringValue ?? ""))</code></div>"
    }

    private static func diffs(_ diff: DiffReport) -> String {
        var html = ""
        if let output = diff.output { html += "<h4>Changes from golden</h4>" + diffLines(output) }
        if let markdown = diff.markdown { html += "<details open><summary>Markdown diff</summary>\(diffLines(markdown))</details>" }
        return html
    }

    private static func diffLines(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let style: String
            switch line.first {
            case "+" where !line.hasPrefix("+++"): style = "add"
            case "-" where !line.hasPrefix("---"): style = "del"
            case "~", "↕": style = "chg"
            case "@": style = "hunk"
            default: style = "ctx"
            }
            return "<span class=\"\(style)\">\(HTML.escape(String(line)))</span>"
        }
        return "<pre class=\"diff\">\(lines.joined(separator: "\n"))</pre>"
    }

    private static func checks(_ checks: [CheckReport]) -> String {
        let rows = checks.map { check -> String in
            let golden: String
            switch check.passedInGolden {
            case true?: golden = "passed"
            case false?: golden = "failed"
            case nil: golden = "–"
            }
            let mark = check.passed ? "<span class=\"ok\">pass</span>" : "<span class=\"bad\">fail</span>"
            return "<tr class=\"\(check.passed ? "passed" : "failed")\"><td>\(mark)</td><td><code>\(HTML.escape(check.name))</code></td><td>\(HTML.escape(check.message))</td><td>\(golden)</td></tr>"
        }
        let failed = checks.filter { !$0.passed }.count
        return """
            <details class="checks"\(failed > 0 ? " open" : "")><summary>Checks: \(checks.count - failed) passed, \(failed) failed</summary>\
            <div class="scroll"><table><thead><tr><th></th><th>check</th><th>message</th><th>golden</th></tr></thead><tbody>\(rows.joined())</tbody></table></div></details>
            """
    }

    private static func attempts(_ attempts: [AttemptReport]) -> String {
        let items = attempts.enumerated().map { index, attempt in
            "<li>attempt \(index + 1): " + (attempt.problems.isEmpty ? "valid" : attempt.problems.map(HTML.escape).joined(separator: "; "))
                + (attempt.responseText.map { "<details><summary>Reply</summary><pre>\(HTML.escape($0))</pre></details>" } ?? "") + "</li>"
        }
        return "<details class=\"attempts\"><summary>Attempts</summary><ol>\(items.joined())</ol></details>"
    }
}
