import Foundation
import Golden
import Intake
import JSONSchema
import Pipeline

extension HTMLReport {
    /// Above this many steps, steps that pass the gate are shown in brief.
    public static let detailLimit = 400

    public static func section(_ fixture: FixtureReport, brief: Bool, recorded: Bool) -> String {
        let allPass = fixture.steps.allSatisfy(\.passesGate)
        return """
            <section class="fixture" id="\(HTML.escape(fixture.name))" data-name="\(HTML.escape(fixture.name))">
            <h2><span class="badge s-\(fixture.status.rawValue)">\(fixture.status.label)</span> \(HTML.escape(fixture.name))</h2>
            \(brief && allPass ? "" : intake(fixture.intake))
            \(fixture.steps.map { step($0, fixture: fixture.name, brief: brief && $0.passesGate, recorded: recorded) }.joined())
            </section>
            """
    }

    /// Each step's system message, once: the steps link here.
    static func systemMessages(_ report: RunReport) -> String {
        let prompts = PipelineStep.allCases.compactMap { step in report.run.prompts[step.rawValue].map { (step.rawValue, $0) } }
        guard !prompts.isEmpty else { return "" }
        return "<section class=\"fixture\"><h2>System messages</h2>" + prompts.map { name, prompt in
            "<details id=\"system-\(name)\"><summary>\(name) \(HTML.escape(prompt.versionLabel))</summary><pre>\(HTML.escape(prompt.system))</pre></details>"
        }.joined() + "</section>"
    }

    static let glanceFields = ["name", "age", "goals", "timeline", "experienceLevel", "frequency", "environment", "injuries", "healthNuances", "anythingElse"]

    /// The intake answers a reviewer reads first, folded, with the full record below them.
    public static func intake(_ record: JSONValue) -> String {
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

    /// One step as the report shows it: status, reasons, guardrail interventions, the
    /// output rendered (a program's markdown as the person reads it), diffs, checks,
    /// attempts and the rendered prompt. `serve` shows a run's step with it.
    public static func stepArticle(_ step: StepReport, fixture: String, recorded: Bool) -> String {
        self.step(step, fixture: fixture, brief: false, recorded: recorded)
    }

    /// A program's approved and new markdown rendered side by side, each with what
    /// changed marked in place.
    public static func comparedPrograms(golden: String, new: String, newTitle: String = "This run", goldenTitle: String = "Golden") -> String {
        let changes = ProgramChanges(golden: golden, new: new)
        return """
            <div class="programs compared"><div class="program"><h4 class="column-title">\(HTML.escape(newTitle))</h4>\(ProgramChanges.render(changes.new, tag: "ins"))</div>\
            <div class="program golden"><h4 class="column-title">\(HTML.escape(goldenTitle))</h4>\(ProgramChanges.render(changes.golden, tag: "del"))</div></div>
            """
    }

    private static func step(_ step: StepReport, fixture: String, brief: Bool, recorded: Bool) -> String {
        let anchor = ListedStep.name(fixture: fixture, step: step.id)
        var html = "<article class=\"step\" id=\"\(HTML.escape(anchor))\" data-status=\"\(step.status.rawValue)\" data-step=\"\(HTML.escape(step.id))\">"
        html += "<h3><span class=\"badge s-\(step.status.rawValue)\">\(step.status.label)</span> \(HTML.escape(step.id))"
        html += "<span class=\"meta\">\(meta(step, recorded: recorded))</span></h3>"
        if !step.reasons.isEmpty {
            html += "<ul class=\"reasons\">" + step.reasons.map { "<li>\(HTML.message($0))</li>" }.joined() + "</ul>"
        }
        if brief { return html + "</article>" }
        if let interventions = step.interventions {
            html += "<ul class=\"interventions\">" + interventions.map { "<li>guardrail \(HTML.escape($0.kind)): \(HTML.message($0.detail))</li>" }.joined() + "</ul>"
        }
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

    private static func meta(_ step: StepReport, recorded: Bool) -> String {
        guard let figures = step.figures(recorded: recorded) else { return "" }
        var parts = [figures]
        if step.repaired { parts.append("repaired") }
        let retries = step.attempts.reduce(0) { $0 + $1.retries }
        if retries > 0 { parts.append("\(retries) retries") }
        if let cost = step.cost { parts.append(String(format: "$%.4f", cost)) }
        return parts.map(HTML.escape).joined(separator: " · ")
    }

    private static func output(_ step: StepReport) -> String {
        if let options = step.output?["options"]?.arrayValue {
            var html = "<div class=\"cards\">" + options.map(card).joined() + "</div>"
            if ![.matches, .knownFailure, .unapprovedCheck].contains(step.status), let golden = step.golden?["options"]?.arrayValue {
                html += "<details><summary>Golden options</summary><div class=\"cards golden\">" + golden.map(card).joined() + "</div></details>"
            }
            return html
        }
        if let markdown = step.markdown {
            guard let golden = step.goldenMarkdown, golden != markdown else {
                return "<div class=\"programs\"><div class=\"program\">\(MarkdownHTML.render(markdown))</div></div>"
            }
            return comparedPrograms(golden: golden, new: markdown)
        }
        if step.step == nil, let chosen = step.output {
            return "<div class=\"cards\">\(card(chosen))</div>"
        }
        return ""
    }

    /// A goal option as a card: its summary, detail and id.
    public static func card(_ option: JSONValue) -> String {
        "<div class=\"card\"><strong>\(HTML.escape(option["summary"]?.stringValue ?? ""))</strong><p>\(HTML.escape(option["detail"]?.stringValue ?? ""))</p><code>\(HTML.escape(option["id"]?.stringValue ?? ""))</code></div>"
    }

    private static func diffs(_ diff: DiffReport) -> String {
        var html = ""
        if let output = diff.output { html += "<h4>Changes from golden</h4>" + HTML.diff(output) }
        if let markdown = diff.markdown { html += "<details open><summary>Markdown diff</summary>\(HTML.diff(markdown))</details>" }
        return html
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
            return "<tr class=\"\(check.passed ? "passed" : "failed")\"><td>\(mark)</td><td><code>\(HTML.escape(check.name))</code></td><td>\(HTML.message(check.message))</td><td>\(golden)</td></tr>"
        }
        let failed = checks.filter { !$0.passed }.count
        return """
            <details class="checks"\(failed > 0 ? " open" : "")><summary>Checks: \(checks.count - failed) passed, \(failed) failed</summary>\
            <div class="scroll"><table><thead><tr><th></th><th>check</th><th>message</th><th>golden</th></tr></thead><tbody>\(rows.joined())</tbody></table></div></details>
            """
    }

    private static func attempts(_ attempts: [AttemptReport]) -> String {
        let items = attempts.enumerated().map { index, attempt in
            "<li>attempt \(index + 1): " + (attempt.problems.isEmpty ? "valid" : attempt.problems.map(HTML.message).joined(separator: "; "))
                + (attempt.responseText.map { "<details><summary>Reply</summary><pre>\(HTML.escape($0))</pre></details>" } ?? "") + "</li>"
        }
        return "<details class=\"attempts\"><summary>Attempts</summary><ol>\(items.joined())</ol></details>"
    }
}
