import Diff
import Foundation
import Golden
import JSONSchema
import Storage

/// `index.html` of a comparison: the page a reviewer decides "is B better than A" on.
/// The paired verdict comes first, then the discordant pairs (B wins, then A wins)
/// with both sides' outputs in two columns, then the ties, folded.
extension ComparisonReport {
    /// How the two sides of a paired case relate, in the order the page lists them.
    enum PairKind: String, CaseIterable {
        case bWins = "b-wins"
        case aWins = "a-wins"
        case bothFail = "both-fail"
        case bothPass = "both-pass"

        var title: String {
            switch self {
            case .bWins: "B wins: B passes, A fails"
            case .aWins: "A wins: A passes, B fails"
            case .bothFail: "Both fail"
            case .bothPass: "Both pass"
            }
        }

        var badge: String {
            switch self {
            case .bWins: "<span class=\"badge s-matches\">B wins</span>"
            case .aWins: "<span class=\"badge s-regression\">A wins</span>"
            case .bothFail: "<span class=\"badge s-known-failure\">both fail</span>"
            case .bothPass: "<span class=\"badge s-skipped\">both pass</span>"
            }
        }

        var isDiscordant: Bool { self == .bWins || self == .aWins }
    }

    /// A case both runs produced, with what each side shows.
    struct Pair {
        var item: RunComparison.Case
        var a: ComparedOutput
        var b: ComparedOutput

        var kind: PairKind {
            switch (a.passes, b.passes) {
            case (false, true): .bWins
            case (true, false): .aWins
            case (false, false): .bothFail
            case (true, true): .bothPass
            }
        }
    }

    /// The paired cases in the comparison's fixture and step order; cases only one run has are not pairs.
    static func pairs(_ comparison: RunComparison, outputs: ComparedOutputs) -> [Pair] {
        comparison.cases.compactMap { item in
            guard item.change != .onlyInHead, item.change != .onlyInBase,
                  let a = outputs.base[item.key], let b = outputs.head[item.key] else { return nil }
            return Pair(item: item, a: a, b: b)
        }
    }

    /// A self-contained page; ties with the same checks and output on both sides are
    /// listed by name only unless asked for.
    public static func html(_ comparison: RunComparison, outputs: ComparedOutputs, includingUnchanged: Bool = false) -> String {
        HTML.document(
            title: "trainer-eval · \(comparison.headName) vs \(comparison.baseName)",
            body: body(comparison, outputs: outputs, includingUnchanged: includingUnchanged), extraStyle: comparisonStylesheet)
    }

    /// The page's body, for a page that brings its own frame (`serve`), with
    /// `comparisonStylesheet` as its extra style.
    public static func body(_ comparison: RunComparison, outputs: ComparedOutputs, includingUnchanged: Bool = false) -> String {
        let pairs = pairs(comparison, outputs: outputs)
        let grouped = Dictionary(grouping: pairs, by: \.kind)
        let unpaired = comparison.cases.filter { $0.change == .onlyInHead || $0.change == .onlyInBase }
        var page = "<header>" + title(comparison) + "</header>"
        page += verdictSection(comparison, notes: outputs.notes)
        page += sectionLinks(grouped, unpaired: unpaired.count)
        page += "<main>"
        for kind in PairKind.allCases {
            page += group(kind, pairs: grouped[kind] ?? [], comparison: comparison, includingUnchanged: includingUnchanged)
        }
        if !unpaired.isEmpty { page += unpairedSection(unpaired, comparison: comparison) }
        page += "</main>"
        return page
    }

    // MARK: Verdict

    private static func title(_ comparison: RunComparison) -> String {
        let verdict: String
        switch comparison.verdict.verdict {
        case .better: verdict = "<span class=\"verdict pass\">B is better</span>"
        case .worse: verdict = "<span class=\"verdict fail\">B is worse</span>"
        case .noDifference: verdict = "<span class=\"verdict same\">no difference</span>"
        case .tooFewPairs: verdict = "<span class=\"verdict same\">too few pairs to decide</span>"
        }
        return """
            <h1>trainer-eval <small>\(HTML.escape(comparison.headName)) against \(HTML.escape(comparison.baseName))</small> \(verdict)</h1>\
            <p class="runs"><span class="side-tag a">A</span> <code>\(HTML.escape(comparison.baseName))</code>\(runID(comparison.baseRunID, of: comparison.baseName)) \
            <span class="side-tag b">B</span> <code>\(HTML.escape(comparison.headName))</code>\(runID(comparison.headRunID, of: comparison.headName))</p>
            """
    }

    private static func runID(_ id: String?, of name: String) -> String {
        guard let id, !name.contains(id) else { return "" }
        return " run <code>\(HTML.escape(id))</code>"
    }

    private static func verdictSection(_ comparison: RunComparison, notes: [String]) -> String {
        let verdict = comparison.verdict
        let ties = verdict.pairs - verdict.aBetter - verdict.bBetter
        let p = "p = \(format(verdict.pValue))"
        let conclusion: String
        switch verdict.verdict {
        case .better: conclusion = "\(p), below \(PairedVerdict.significance): B is better."
        case .worse: conclusion = "\(p), below \(PairedVerdict.significance): B is worse."
        case .noDifference: conclusion = "\(p), not below \(PairedVerdict.significance): no difference shown."
        case .tooFewPairs:
            conclusion = "\(p): too few pairs differ for any split of them to reach \(PairedVerdict.significance), so the evidence cannot decide."
        }
        let sentence = """
            Over the \(verdict.pairs) case\(verdict.pairs == 1 ? "" : "s") both runs produced, A passes \(verdict.aPass) and B passes \(verdict.bPass) \
            (a case passes with an output and every check passing). B wins \(verdict.bBetter), A wins \(verdict.aBetter), \
            \(ties) tie\(ties == 1 ? "" : "s"). The exact two-sided McNemar test on the \(verdict.aBetter + verdict.bBetter) pairs that differ gives \(conclusion)
            """
        let facts: [(String, String)] = [
            ("Verdict", verdict.verdict.rawValue),
            ("p-value", format(verdict.pValue) + " (exact McNemar)"),
            ("B wins", "\(verdict.bBetter)"),
            ("A wins", "\(verdict.aBetter)"),
            ("Ties", "\(ties)"),
            ("Passes", "A \(verdict.aPass) · B \(verdict.bPass) of \(verdict.pairs)"),
            ("Tokens per case", difference(verdict.tokens, digits: 0, unit: "")),
            ("Latency per case", difference(verdict.latencySeconds, digits: 2, unit: " s")),
        ]
        let factList = "<dl class=\"facts\">" + facts.map { "<div><dt>\(HTML.escape($0.0))</dt><dd>\(HTML.escape($0.1))</dd></div>" }.joined() + "</dl>"
        let shortfall = shortfallLine(comparison).map { "<p>\(HTML.escape($0.trimmingCharacters(in: .whitespaces)))</p>" } ?? ""
        let unpaired = unpairedLine(comparison).map { "<p>\(HTML.escape($0))</p>" } ?? ""
        let noteList = notes.isEmpty ? "" : "<ul class=\"warnings\">" + notes.map { "<li>\(HTML.message($0))</li>" }.joined() + "</ul>"
        return "<section class=\"run\" id=\"verdict\"><h2>Paired verdict</h2><p>\(HTML.escape(sentence))</p>\(shortfall)\(unpaired)\(factList)\(noteList)\(checkTable(verdict.checks))</section>"
    }

    /// `A 1200 → B 1000 · -200 [-260, -140] (95% paired bootstrap)`, or why there is none.
    private static func difference(_ value: PairedVerdict.Difference?, digits: Int, unit: String) -> String {
        guard let value else { return "n/a: a side has no figures (golden, or fewer than two measured pairs)" }
        func number(_ x: Double, sign: Bool = false) -> String {
            (sign && x >= 0 ? "+" : "") + String(format: "%.\(digits)f", x)
        }
        return "A \(number(value.meanA))\(unit) → B \(number(value.meanB))\(unit) · \(number(value.meanDifference, sign: true))\(unit) "
            + "[\(number(value.interval.lower, sign: true)), \(number(value.interval.upper, sign: true))] (95% paired bootstrap)"
    }

    /// Every check over the pairs where both sides report it: those whose pass count moved
    /// first, most significant first; the others folded below.
    private static func checkTable(_ checks: [PairedVerdict.CheckPairs]) -> String {
        guard !checks.isEmpty else { return "" }
        let moved = checks.filter { $0.aPass != $0.bPass }.sorted { ($0.pValue, $0.name) < ($1.pValue, $1.name) }
        let still = checks.filter { $0.aPass == $0.bPass }
        func rows(_ checks: [PairedVerdict.CheckPairs]) -> String {
            checks.map { check in
                let change = check.bPass - check.aPass
                let direction = change > 0 ? "better" : change < 0 ? "worse" : "same"
                let significant = check.pValue < PairedVerdict.significance
                let p = significant ? "<strong>\(format(check.pValue))</strong>" : format(check.pValue)
                return "<tr class=\"\(direction)\"><td><code>\(HTML.escape(check.name))</code></td><td>\(check.pairs)</td>"
                    + "<td>\(check.aPass)</td><td>\(check.bPass)</td><td>\(change > 0 ? "+" : "")\(change)</td><td>\(p)</td></tr>"
            }.joined()
        }
        let head = "<thead><tr><th>check</th><th>pairs</th><th>A passes</th><th>B passes</th><th>B − A</th><th>p</th></tr></thead>"
        var html = "<h3>Checks</h3>"
        html += moved.isEmpty
            ? "<p>No check's pass count moved.</p>"
            : "<div class=\"scroll\"><table class=\"verdict-checks\">\(head)<tbody>\(rows(moved))</tbody></table></div>"
        if !still.isEmpty {
            html += "<details><summary>\(still.count) check\(still.count == 1 ? "" : "s") with the same pass count</summary>"
                + "<div class=\"scroll\"><table class=\"verdict-checks\">\(head)<tbody>\(rows(still))</tbody></table></div></details>"
        }
        return html
    }

    private static func sectionLinks(_ grouped: [PairKind: [Pair]], unpaired: Int) -> String {
        var links = ["<a href=\"#verdict\">verdict</a>"]
        for kind in PairKind.allCases {
            let count = grouped[kind]?.count ?? 0
            links.append("<a href=\"#\(kind.rawValue)\" data-kind=\"\(kind.rawValue)\"\(count == 0 ? " class=\"zero\"" : "")>\(kind.badge) \(count)</a>")
        }
        if unpaired > 0 { links.append("<a href=\"#unpaired\">only in one run \(unpaired)</a>") }
        return "<nav class=\"sections\" aria-label=\"Sections\">\(links.joined())</nav>"
    }

    // MARK: Pairs

    private static func group(_ kind: PairKind, pairs: [Pair], comparison: RunComparison, includingUnchanged: Bool) -> String {
        var html = "<section class=\"pairs\" id=\"\(kind.rawValue)\" data-kind=\"\(kind.rawValue)\">"
        guard !pairs.isEmpty else {
            return html + "<h2>\(kind.badge) \(kind.title) (0)</h2></section>"
        }
        let shown = kind.isDiscordant || includingUnchanged ? pairs : pairs.filter { $0.item.change != .unchanged }
        let sameOnBothSides = kind.isDiscordant || includingUnchanged ? [] : pairs.filter { $0.item.change == .unchanged }
        var content = fixtures(shown)
        if !sameOnBothSides.isEmpty {
            content += "<p class=\"meta\">Same checks and the same output on both sides (<code>compare --all --report</code> shows them): "
                + sameOnBothSides.map { "<code>\(HTML.escape($0.item.key))</code>" }.joined(separator: ", ") + "</p>"
        }
        if kind.isDiscordant {
            html += "<h2>\(kind.badge) \(kind.title) (\(pairs.count))</h2>\(content)"
        } else {
            let differing = shown.count
            html += "<details><summary><h2>\(kind.badge) \(kind.title) (\(pairs.count))</h2> "
                + "<span class=\"meta\">\(differing) with different checks or output</span></summary>\(content)</details>"
        }
        return html + "</section>"
    }

    /// The pairs under their fixture, fixtures in the order they first appear.
    private static func fixtures(_ pairs: [Pair]) -> String {
        var order: [String] = []
        var byFixture: [String: [Pair]] = [:]
        for pair in pairs {
            if byFixture[pair.a.fixture] == nil { order.append(pair.a.fixture) }
            byFixture[pair.a.fixture, default: []].append(pair)
        }
        return order.map { fixture in
            "<section class=\"fixture\" data-name=\"\(HTML.escape(fixture))\"><h3>\(HTML.escape(fixture))</h3>"
                + byFixture[fixture]!.map(article).joined() + "</section>"
        }.joined()
    }

    private static let changeStyle: [RunComparison.Change: String] = [
        .regressed: "s-regression", .improved: "s-matches", .changed: "s-changed", .onlyInHead: "s-new", .onlyInBase: "s-stale", .unchanged: "s-skipped",
    ]

    private static func article(_ pair: Pair) -> String {
        let step = String(pair.item.key.drop { $0 != "/" }.dropFirst())
        var html = "<article class=\"pair\" id=\"\(HTML.escape(pair.item.key))\" data-kind=\"\(pair.kind.rawValue)\" data-change=\"\(pair.item.change.rawValue)\">"
        let change = pair.item.change == .unchanged ? "" : " <span class=\"badge \(changeStyle[pair.item.change]!)\">\(pair.item.change.rawValue)</span>"
        html += "<h4>\(pair.kind.badge) \(HTML.escape(step))\(change)</h4>"
        if !pair.item.details.isEmpty {
            html += "<ul class=\"reasons\">" + pair.item.details.map { "<li>\(HTML.message($0))</li>" }.joined() + "</ul>"
        }
        html += differingChecks(pair)
        let markdown = (pair.a.markdown, pair.b.markdown)
        // Two different programs mark their changed words in place: removed in A, added in B.
        let marked = markdown.0.flatMap { a in markdown.1.flatMap { b in a == b ? nil : ProgramChanges(golden: a, new: b) } }
        html += "<div class=\"sides\">"
        html += side(pair.a, label: "a", other: pair.b, markedProgram: marked.map { ProgramChanges.render($0.golden, tag: "del") })
        html += side(pair.b, label: "b", other: pair.a, markedProgram: marked.map { ProgramChanges.render($0.new, tag: "ins") })
        html += "</div>"
        html += structuralDiff(pair)
        return html + "</article>"
    }

    /// The checks whose result differs between the sides, as a table over both columns;
    /// none when a side has no output, since its checks never ran.
    private static func differingChecks(_ pair: Pair) -> String {
        guard pair.a.producedOutput, pair.b.producedOutput else { return "" }
        let names = Set(pair.a.checks.map(\.name)).union(pair.b.checks.map(\.name)).sorted()
        let rows = names.compactMap { name -> String? in
            let a = result(of: name, in: pair.a), b = result(of: name, in: pair.b)
            guard a != b else { return nil }
            return "<tr><td><code>\(HTML.escape(name))</code></td><td>\(mark(a))</td><td>\(mark(b))</td></tr>"
        }
        guard !rows.isEmpty else { return "" }
        return "<div class=\"scroll\"><table class=\"check-diff\"><thead><tr><th>check that differs</th>"
            + "<th><span class=\"side-tag a\">A</span></th><th><span class=\"side-tag b\">B</span></th></tr></thead>"
            + "<tbody>\(rows.joined())</tbody></table></div>"
    }

    /// `false` when any result of the check failed, nil when the side did not run it.
    private static func result(of name: String, in side: ComparedOutput) -> Bool? {
        if side.failedCheckNames.contains(name) { return false }
        return side.passedCheckNames.contains(name) ? true : nil
    }

    private static func mark(_ result: Bool?) -> String {
        switch result {
        case true?: "<span class=\"ok\">pass</span>"
        case false?: "<span class=\"bad\">fail</span>"
        case nil: "<span class=\"meta\">not run</span>"
        }
    }

    private static func side(_ side: ComparedOutput, label: String, other: ComparedOutput, markedProgram: String?) -> String {
        let state = side.passes ? "passes" : side.producedOutput ? "fails" : "no-output"
        let badge = side.passes ? "<span class=\"badge s-matches\">pass</span>"
            : side.producedOutput ? "<span class=\"badge s-regression\">fail</span>"
            : "<span class=\"badge s-error\">no output: \(HTML.escape(side.outcome))</span>"
        var html = "<div class=\"side \(label) \(state)\"><h5 class=\"column-title\"><span class=\"side-tag \(label)\">\(label.uppercased())</span> \(badge)</h5>"
        if let failure = side.failure { html += "<p class=\"failure\">\(HTML.message(failure))</p>" }
        let failed = side.checks.filter { !$0.passed }
        if !failed.isEmpty {
            let otherFailed = other.failedCheckNames
            html += "<ul class=\"failed-checks\">" + failed.map { check in
                // A failure the other side's output does not share is what tells the two apart.
                let differs = other.producedOutput && !otherFailed.contains(check.name)
                let message = check.message.isEmpty ? "" : ": " + HTML.message(check.message)
                return "<li\(differs ? " class=\"differs\"" : "")><code>\(HTML.escape(check.name))</code>\(message)</li>"
            }.joined() + "</ul>"
        } else if side.producedOutput {
            html += "<p class=\"meta\">Every check passes (\(side.checks.count)).</p>"
        }
        html += output(side, other: other, markedProgram: markedProgram)
        return html + "</div>"
    }

    private static func output(_ side: ComparedOutput, other: ComparedOutput, markedProgram: String?) -> String {
        if let reply = side.unusableReply {
            return "<details open><summary>Unusable reply</summary><pre>\(HTML.escape(reply))</pre></details>"
        }
        guard let output = side.output else {
            return side.producedOutput ? "<p class=\"meta\">The output was not kept (its report folder is gone).</p>" : ""
        }
        var html: String
        if let options = output["options"]?.arrayValue {
            html = optionList(options, other: other.output?["options"]?.arrayValue ?? [])
        } else if let markdown = side.markdown {
            html = "<div class=\"program\">\(markedProgram ?? MarkdownHTML.render(markdown))</div>"
        } else if output["summary"]?.stringValue != nil {
            // The confirm step's choice: one option.
            html = optionList([output], other: other.output.map { [$0] } ?? [])
        } else {
            return "<pre>\(HTML.escape(output.serialized(.prettySorted)))</pre>"
        }
        html += "<details><summary>Output JSON</summary><pre>\(HTML.escape(output.serialized(.prettySorted)))</pre></details>"
        return html
    }

    /// Goal options as a list; an option the other side does not have word for word is marked.
    private static func optionList(_ options: [JSONValue], other: [JSONValue]) -> String {
        "<ol class=\"options\">" + options.map { option in
            let differs = !other.contains(option)
            return "<li\(differs ? " class=\"differs\"" : "")><strong>\(HTML.escape(option["summary"]?.stringValue ?? ""))</strong>"
                + "<p>\(HTML.escape(option["detail"]?.stringValue ?? ""))</p><code>\(HTML.escape(option["id"]?.stringValue ?? ""))</code></li>"
        }.joined() + "</ol>"
    }

    /// The structural changes from A's output to B's, the program markdown left to the marked columns.
    private static func structuralDiff(_ pair: Pair) -> String {
        guard let a = pair.a.output, let b = pair.b.output, a != b else { return "" }
        let diff = JSONDiff(old: withoutMarkdown(a), new: withoutMarkdown(b))
        guard !diff.isEmpty else { return "" }
        return "<details class=\"output-diff\"\(pair.kind.isDiscordant ? " open" : "")><summary>What changed from A to B "
            + "(\(diff.changes.count) change\(diff.changes.count == 1 ? "" : "s"))</summary>\(HTML.diff(diff.rendered()))</details>"
    }

    private static func withoutMarkdown(_ value: JSONValue) -> JSONValue {
        guard case .object(var object) = value else { return value }
        object[GoldenStore.markdownKey] = nil
        return .object(object)
    }

    private static func unpairedSection(_ cases: [RunComparison.Case], comparison: RunComparison) -> String {
        let items = cases.map { item in
            let side = "only in " + (item.change == .onlyInBase ? comparison.baseName : comparison.headName)
            return "<li><span class=\"badge \(changeStyle[item.change]!)\">\(side)</span> <code>\(HTML.escape(item.key))</code></li>"
        }.joined()
        return "<section class=\"pairs\" id=\"unpaired\"><h2>Only in one run (\(cases.count))</h2>"
            + "<p class=\"meta\">Not paired, so not part of the verdict.</p><ul class=\"unpaired\">\(items)</ul></section>"
    }

    public static let comparisonStylesheet = """
        section.pairs,nav.sections{max-width:1200px;margin:0 auto;padding:6px 0}
        nav.sections{display:flex;flex-wrap:wrap;gap:6px;padding:6px 16px}
        nav.sections a{border:1px solid var(--line);background:var(--card);border-radius:14px;padding:3px 10px;color:var(--fg);text-decoration:none;font-size:.85rem}
        nav.sections a.zero{color:var(--muted)}
        .verdict.same{background:var(--skip)}
        .runs{margin:.2rem 0;overflow-wrap:anywhere}
        .side-tag{display:inline-block;min-width:1.5em;text-align:center;border-radius:4px;font-weight:700;font-size:.8rem;padding:0 4px;color:#fff}
        .side-tag.a{background:#6e40c9}.side-tag.b{background:#0969da}
        section.pairs>h2,section.pairs summary h2{display:inline}
        section.pairs>details>summary{padding:6px 0}
        .pair{border-top:1px solid var(--line);padding:10px 0}
        .pair h4{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;color:var(--fg);font-size:.95rem}
        .sides{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:12px;margin:.4rem 0}
        .side{border:1px solid var(--line);border-top-width:4px;border-radius:8px;padding:4px 10px;min-width:0;overflow-wrap:anywhere}
        .side.passes{border-top-color:var(--pass)}.side.fails{border-top-color:var(--bad)}.side.no-output{border-top-color:var(--stale)}
        .side h5{margin:.3rem 0;display:flex;gap:.4rem;align-items:center}
        .side .program{padding:2px 10px}.side pre{max-height:32rem;overflow:auto}
        .failed-checks{margin:.3rem 0;padding-left:1.2rem;font-size:.9rem}.failed-checks li{margin:.2rem 0}
        .differs{background:#fff8c5;border-radius:3px}
        .options{margin:.3rem 0;padding-left:1.4rem}.options li{margin:.3rem 0;padding:2px 4px}
        .options p{margin:.1rem 0;font-size:.9rem;white-space:pre-line}.options code{font-size:.75rem;color:var(--muted)}
        .failure{color:var(--bad);margin:.3rem 0}
        /* Not the run page's .checks tables, which drop their header row on a phone: A and B must stay labelled. */
        table.check-diff,table.verdict-checks{border-collapse:collapse;font-size:.9rem}table.verdict-checks{width:100%}
        table.check-diff th,table.check-diff td,table.verdict-checks th,table.verdict-checks td{border:1px solid var(--line);padding:3px 6px;text-align:left;vertical-align:top}
        table.verdict-checks tr.better td{background:#f0fff4}table.verdict-checks tr.worse td{background:#fff5f5}
        ul.unpaired{list-style:none;padding:0}ul.unpaired li{margin:.2rem 0}
        @media (max-width:600px){.sides{grid-template-columns:1fr}}
        """
}

extension ComparedOutput {
    /// The program markdown of the output, for program steps.
    var markdown: String? { output?[GoldenStore.markdownKey]?.stringValue }
}
