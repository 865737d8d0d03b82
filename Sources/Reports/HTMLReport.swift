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
    /// The page for a run. When the gate fails it opens on what needs attention;
    /// when it passes, on the run's facts and charts.
    public static func render(_ report: RunReport, history: [PassRatePoint] = []) -> String {
        var page = "<header>" + title(report) + safetySection(report)
        if report.totals.passesGate {
            page += facts(report) + "</header>"
        } else {
            page += "</header>" + attention(report) + "<section class=\"run\">" + facts(report) + "</section>"
        }
        page += charts(report, history: history)
        if let repeats = report.repeats { page += repeatSection(repeats) }
        if let agreement = report.agreement { page += agreementSection(agreement) }
        page += suiteSection(report)
        page += checksMatrix(report)
        page += filterBar(report)
        page += "<main>"
        let stepCount = report.fixtures.reduce(0) { $0 + $1.steps.count }
        let brief = stepCount > detailLimit
        if brief {
            page += "<p class=\"meta\">This run has \(stepCount) steps: steps that pass are shown in brief to keep the page fast. results.json has everything.</p>"
        }
        for fixture in report.fixtures {
            // A fixture read back whole brings its brief section along.
            if brief, let stored = try? fixture.storedText?.html.read() {
                page += String(decoding: stored, as: UTF8.self)
            } else {
                page += section(fixture, brief: brief, recorded: report.run.isReplay)
            }
        }
        if !report.orphans.isEmpty {
            page += "<section class=\"fixture\" id=\"orphans\" data-status=\"regression\"><h2>Orphaned golden files</h2><p>No fixture produces these any more; remove them with <code>trainer-eval accept --prune</code>.</p><ul>"
                + report.orphans.map { "<li><code>\(HTML.escape($0))</code></li>" }.joined() + "</ul></section>"
        }
        page += systemMessages(report)
        page += "</main>"
        return HTML.document(title: "trainer-eval · \(report.run.id)", body: page, script: script)
    }

    // MARK: Summary

    private static func title(_ report: RunReport) -> String {
        let verdict = report.totals.passesGate
            ? "<span class=\"verdict pass\">gate passes</span>" : "<span class=\"verdict fail\">gate fails</span>"
        return "<h1>trainer-eval <small>\(HTML.escape(report.run.id))</small> \(verdict)</h1><div class=\"counts\">\(counts(report))</div>"
    }

    private static func facts(_ report: RunReport) -> String {
        let run = report.run
        let totals = report.totals
        // A replay's latencies and tokens are the recorded calls'; only the duration is this run's.
        let recorded = run.isReplay ? " (recorded)" : ""
        let prompts = run.prompts.sorted { $0.key < $1.key }.map {
            "<span class=\"prompt\" title=\"fingerprint \(HTML.escape($0.value.fingerprint))\">\(HTML.escape($0.key)) \(HTML.escape($0.value.versionLabel))</span>"
        }.joined(separator: " ")
        var facts: [(String, String)] = [
            ("Provider", HTML.escape("\(run.providerLabel) · \(run.model)")),
            ("Prompts", prompts),
            ("Commit", HTML.escape(run.commit ?? "unknown")),
            ("Started", HTML.escape(ISO8601DateFormatter().string(from: run.startedAt))),
            ("Duration", String(format: "%.1f s", run.durationSeconds)),
            ("Tokens" + recorded, "\(totals.inputTokens) in · \(totals.outputTokens) out"),
            ("Cost" + recorded, totals.cost.map { String(format: "$%.4f", $0) } ?? "n/a"),
            ("Validity", "\(totals.firstPassValid) of \(totals.steps) valid first time · \(totals.repaired) repaired · \(totals.calls)\(run.isReplay ? " recorded" : "") calls"),
            ("Checks", "\(totals.checksPassed) passed · \(totals.checksFailed) failed"),
        ]
        if let interventions = totals.interventionSummary { facts.append(("Interventions", HTML.escape(interventions))) }
        if run.isReplay { facts.append(("Replay", "answers, latencies and tokens come from the recordings in golden/, not from this run")) }
        if run.ci { facts.append(("Mode", "CI gate (nothing recorded or written)")) }
        if run.interrupted { facts.append(("Interrupted", "yes: unfinished steps are marked not run")) }
        let warnings = run.warnings.isEmpty ? "" : "<ul class=\"warnings\">" + run.warnings.map { "<li>\(HTML.message($0))</li>" }.joined() + "</ul>"
        return "<dl class=\"facts\">\(facts.map { "<div><dt>\(HTML.escape($0.0))</dt><dd>\($0.1)</dd></div>" }.joined())</dl>\(warnings)"
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
            // A replay's figures are the recorded calls', not this run's.
            let recorded = report.run.isReplay
            figures.append(SVGChart.bars(title: recorded ? "Recorded latency per step (s)" : "Latency per step (s)", labels: kinds, series: latencySeries, unit: "s"))
            let inputs: [Double] = kinds.map { inputTokens[$0] ?? 0 }
            let outputs: [Double] = kinds.map { outputTokens[$0] ?? 0 }
            let tokenSeries: [SVGChart.Series] = [
                SVGChart.Series(name: "input", values: inputs, style: "bar-a"),
                SVGChart.Series(name: "output", values: outputs, style: "bar-b"),
            ]
            figures.append(SVGChart.bars(title: recorded ? "Recorded tokens per step (all fixtures)" : "Tokens per step (all fixtures)", labels: kinds, series: tokenSeries, unit: "tokens"))
        }
        if !history.isEmpty {
            figures.append(SVGChart.rateLine(title: "Pass rate across runs", labels: history.map(\.runID), rates: history.map(\.rate)))
        }
        return "<div class=\"charts\">" + figures.joined() + "</div>"
    }

    private static func repeatSection(_ repeats: RepeatStatistics) -> String {
        let header = repeats.tableHeader.map { "<th>\(HTML.escape($0))</th>" }.joined()
        let rows = repeats.tableRows.map { "<tr>" + $0.map { "<td>\(HTML.escape($0))</td>" }.joined() + "</tr>" }.joined()
        let shortfalls = repeats.shortfalls.map { "<p class=\"shortfall\"><strong>Below the required pass rate:</strong> \(HTML.escape($0))</p>" }.joined()
        let unstable = repeats.unstableCheckRows
        let checks = unstable.isEmpty
            ? ""
            : "<h3>Checks that did not pass every run</h3><div class=\"scroll checks\"><table><thead><tr>"
                + repeats.checkTableHeader.map { "<th>\(HTML.escape($0))</th>" }.joined() + "</tr></thead><tbody>"
                + unstable.map { "<tr>" + $0.map { "<td>\(HTML.escape($0))</td>" }.joined() + "</tr>" }.joined() + "</tbody></table></div>"
        let flaky = repeats.flakyLines.isEmpty
            ? "<p>No flaky checks: every check gave the same result in every repeat.</p>"
            : "<h3>Flaky checks</h3><ul>" + repeats.flakyLines.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul>"
        return """
            <section class="repeats" id="repeats"><h2>Stability over \(repeats.repeats) repeats</h2>\
            <div class="scroll checks"><table><thead><tr>\(header)</tr></thead><tbody>\(rows)</tbody></table></div>\(shortfalls)\(checks)\(flaky)\
            <p class="meta">\(HTML.escape(MarkdownReport.repeatNote))</p></section>
            """
    }

    /// Approved outputs that fail a safety check, at the top: each with the reason that
    /// allows it, or "not allowed".
    private static func safetySection(_ report: RunReport) -> String {
        guard let line = report.safetyLine, let failures = report.approvedSafetyFailures else { return "" }
        return "<section class=\"safety\" id=\"safety\"><p><strong>\(HTML.escape(line))</strong></p><details><summary>Each one</summary><ul>"
            + failures.map { failure in
                "<li><a href=\"#\(HTML.escape(failure.step))\">\(HTML.escape(failure.step))</a>: "
                    + failure.checks.map { "<code>\(HTML.escape($0))</code>" }.joined(separator: ", ")
                    + (failure.allowedBecause.map { " (allowed: \(HTML.escape($0)))" } ?? " <strong>(not allowed)</strong>") + "</li>"
            }.joined() + "</ul></details></section>"
    }

    /// The checks against reviewers' labels: the matrix with κ, the blind spots by
    /// reason, the false alarms by check, each check's precision. `link` is where an
    /// output (`fixture/step`) is shown: its anchor in the report by default.
    public static func agreementSection(_ agreement: Agreement, link: (String) -> String = { "#" + $0 }) -> String {
        func table(_ header: [String], _ rows: [[String]]) -> String {
            "<div class=\"scroll checks\"><table><thead><tr>" + header.map { "<th>\(HTML.escape($0))</th>" }.joined() + "</tr></thead><tbody>"
                + rows.map { "<tr>" + $0.map { "<td>\(HTML.escape($0))</td>" }.joined() + "</tr>" }.joined() + "</tbody></table></div>"
        }
        func groups(_ title: String, _ groups: [Agreement.Group]) -> String {
            "<h3>\(HTML.escape(title))</h3><ul>" + groups.map { group in
                "<li><code>\(HTML.escape(group.name))</code> (\(group.outputs.count)): "
                    + group.outputs.map { "<a href=\"\(HTML.escape(link($0)))\">\(HTML.escape($0))</a>" }.joined(separator: ", ") + "</li>"
            }.joined() + "</ul>"
        }
        var html = "<section class=\"agreement\" id=\"agreement\"><h2>Checks against reviewers</h2>"
            + table(Agreement.tableHeader, agreement.tableRows) + "<p class=\"meta\">\(HTML.escape(Agreement.legend))</p>"
        html += agreement.blindSpots.isEmpty
            ? "<p>No blind spots: every output a reviewer rejected fails a check.</p>"
            : groups("Blind spots: a reviewer rejects, every check passes (by reason)", agreement.blindSpots)
        if !agreement.falseAlarms.isEmpty { html += groups("False alarms: a reviewer signs, a check fails (by check)", agreement.falseAlarms) }
        if !agreement.stale.isEmpty {
            html += "<p><strong>Stale labels</strong> (the output changed since; not counted): "
                + agreement.stale.map { "<code>\(HTML.escape($0))</code>" }.joined(separator: ", ") + "</p>"
        }
        if !agreement.checks.isEmpty {
            html += "<details><summary>Each check against reviewer rejections</summary>" + table(Agreement.checkTableHeader, agreement.checkTableRows) + "</details>"
        }
        return html + "</section>"
    }

    /// The checks over the run's programs side by side, each once.
    private static func suiteSection(_ report: RunReport) -> String {
        guard let checks = report.suiteChecks else { return "" }
        let items = checks.map { check in
            "<li data-status=\"\(check.passed ? "pass" : "changed")\"><span class=\"badge s-\(check.passed ? "pass" : "changed")\">\(check.passed ? "pass" : "fail")</span> "
                + "<code>\(HTML.escape(check.name))</code> \(HTML.message(check.message))</li>"
        }
        return "<section class=\"suite\" id=\"suite\"><h2>Programs side by side</h2><p class=\"meta\">\(HTML.escape(RunReport.suiteNote))</p><ul>"
            + items.joined() + "</ul></section>"
    }

    private static func filterBar(_ report: RunReport) -> String {
        let present = StepVerdict.Status.allCases.filter { report.count($0) > 0 }.sorted { $0.severity > $1.severity }
        let buttons = ["<button type=\"button\" data-filter=\"all\" aria-pressed=\"true\">all</button>",
                       "<button type=\"button\" data-filter=\"problems\" aria-pressed=\"false\">needs attention</button>"]
            + present.map { "<button type=\"button\" data-filter=\"\($0.rawValue)\" aria-pressed=\"false\">\($0.label) (\(report.count($0)))</button>" }
        return "<nav class=\"filters\" aria-label=\"Filter by status\">\(buttons.joined())<input type=\"search\" id=\"search\" placeholder=\"fixture or step\" aria-label=\"Filter by fixture or step\"></nav>"
    }
}
