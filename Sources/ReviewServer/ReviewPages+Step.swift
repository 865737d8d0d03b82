import Golden
import Intake
import JSONSchema
import Reports
import Storage

extension ReviewPages {
    /// One step of a golden track: a pending output beside its approved one (the
    /// program's markdown as the person reads it, the JSON structurally), its checks,
    /// the actions on it, and its label.
    func step(track trackID: String?, fixture: String?, step: String?) throws -> Page {
        let track = try site.track(trackID)
        let key = try site.key(fixture: fixture, step: step, on: track)
        let item = try track.review.item(key)
        let approved = try track.store.approved(key)
        var body = "<header class=\"step-head\"><h1>\(HTML.escape(key.description)) <small>\(HTML.escape(track.title))</small></h1>"
        body += try queuePosition(of: Queued(track: track.id, key: key))
        body += "</header>" + personContext(key)
        if let item {
            body += try pendingSection(item, track: track)
        } else if let approved {
            body += "<section class=\"fixture\"><h2><span class=\"badge s-matches\">approved</span> Nothing pending</h2>"
                + Self.rendered(approved.output) + approvedChecks(approved) + "</section>"
        }
        body += try labelSection(key: key, track: track, pending: item?.pending, approved: approved)
        return Page(title: key.description, body: body)
    }

    typealias Queued = ReviewSite.Queued

    /// What the person answered, and for an edit what they asked: what a reviewer
    /// judges the output against. Nothing for a fixture no longer in the corpus.
    private func personContext(_ key: StepKey) -> String {
        guard let fixture = try? site.corpus.load(key.fixture) else { return "" }
        var html = HTMLReport.intake(fixture.recordJSON).replacingOccurrences(of: "<details class=\"intake\">", with: "<details class=\"intake\" open>")
        let feedback: String?
        switch key.id {
        case .optionEdit(let round)?: feedback = fixture.scenario.optionEdits.indices.contains(round - 1) ? fixture.scenario.optionEdits[round - 1].feedback : nil
        case .programEdit?: feedback = fixture.scenario.programEdit.feedback
        default: feedback = nil
        }
        if let feedback { html += "<p class=\"feedback\"><strong>They asked:</strong> \(HTML.escape(feedback))</p>" }
        return "<section class=\"fixture person\">" + html + "</section>"
    }

    /// `Pending 3 of 17 · previous · next`, with the keys that move along the queue.
    private func queuePosition(of here: Queued) throws -> String {
        let queue = try site.queue()
        let index = queue.firstIndex(of: here)
        let next = try index.map { $0 + 1 } ?? site.queueIndex(after: here, in: queue)
        let previous = (index ?? next) - 1
        func link(_ position: Int, _ label: String, rel: String, key: String) -> String {
            guard queue.indices.contains(position) else { return "<span class=\"off\">\(label)</span>" }
            return "<a \(Links.href(Links.step(track: queue[position].track, key: queue[position].key))) rel=\"\(rel)\" data-key=\"\(key)\">\(label) <kbd>\(key)</kbd></a>"
        }
        let where_ = index.map { "Pending \($0 + 1) of \(queue.count)" } ?? "\(queue.count) pending in all"
        return "<p class=\"position\">\(where_) · \(link(previous, "previous", rel: "prev", key: "p")) · \(link(next, "next", rel: "next", key: "n"))</p>"
    }

    private func pendingSection(_ item: GoldenReview.Item, track: ReviewSite.Track) throws -> String {
        let failures = try site.safety.failures(of: item.pending)
        var html = "<section class=\"fixture pending\"><h2><span class=\"badge s-\(item.kind)\">\(item.kind)</span> Pending: \(HTML.escape(item.diff.summary))</h2>"
        if !failures.isEmpty {
            html += "<p class=\"notice error\">Fails safety checks: " + failures.map { "<code>\(HTML.escape($0))</code>" }.joined(separator: ", ")
                + ". Only a reason a reviewer stands by approves it.</p>"
        }
        if item.acceptsRegression {
            html += "<p class=\"notice error\">Accepting makes checks that pass now fail: "
                + item.diff.newlyFailing.map { "<code>\(HTML.escape($0))</code>" }.joined(separator: ", ") + ".</p>"
        }
        html += actions(item, track: track, failures: failures)
        html += Self.compared(pending: item.pending.output, approved: item.approved?.output)
        if let json = item.diff.json {
            html += "<details open><summary>JSON changes</summary>\(HTML.diff(json.rendered(color: false)))</details>"
        }
        if let markdown = item.diff.markdown {
            html += "<details><summary>Markdown, line by line</summary>\(HTML.diff(markdown.unified(oldName: "approved", newName: "pending", color: false)))</details>"
        }
        html += pendingChecks(item)
        html += "<details><summary>Pending output JSON</summary><pre>\(HTML.escape(item.pending.output.serialized(.prettySorted)))</pre></details>"
        return html + "</section>"
    }

    /// Accept, discard, and (for a safety failure) approve with a reason.
    private func actions(_ item: GoldenReview.Item, track: ReviewSite.Track, failures: [String]) -> String {
        let target = Forms.target(track: track.id, key: item.key) + Forms.hidden("fingerprint", ReviewActions.fingerprint(item.pending))
        var html = "<div class=\"actions\">"
        if failures.isEmpty {
            let confirm = item.acceptsRegression
                ? "<label><input type=\"checkbox\" name=\"confirm\" value=\"yes\"> <kbd>c</kbd> accept although checks now fail</label>" : ""
            html += "<form method=\"post\" action=\"/accept\" id=\"accept\">\(target)\(confirm)<button type=\"submit\" data-key=\"a\">Accept <kbd>a</kbd></button></form>"
        }
        html += "<form method=\"post\" action=\"/reject\" id=\"discard\">\(target)<button type=\"submit\" data-key=\"x\">Discard <kbd>x</kbd></button></form>"
        if !failures.isEmpty {
            html += """
                <form method="post" action="/accept-unsafe" id="accept-unsafe" class="unsafe">\(target)\
                <label><kbd>u</kbd> Approve although it fails safety checks, because <input name="reason" required placeholder="the reason a reviewer stands by"></label>\
                \(item.acceptsRegression ? "<label><input type=\"checkbox\" name=\"confirm\" value=\"yes\"> and although checks that passed now fail</label>" : "")\
                <label>Reviewer <input name="reviewer" value="\(HTML.escape(site.defaultReviewer ?? ""))"></label>\
                <button type="submit">Approve with this reason</button></form>
                """
        }
        return html + "</div>"
    }

    /// An output as the person sees it: option cards, or the program's markdown rendered.
    static func rendered(_ output: JSONValue) -> String {
        if let options = output["options"]?.arrayValue {
            return "<div class=\"cards\">" + options.map(HTMLReport.card).joined() + "</div>"
        }
        if let markdown = output[GoldenStore.markdownKey]?.stringValue {
            return "<div class=\"programs\"><div class=\"program\">\(MarkdownHTML.render(markdown))</div></div>"
        }
        return "<pre>\(HTML.escape(output.serialized(.prettySorted)))</pre>"
    }

    /// The pending output beside the approved one.
    static func compared(pending: JSONValue, approved: JSONValue?) -> String {
        guard let approved else { return "<h3>New output</h3>" + rendered(pending) }
        if let new = pending[GoldenStore.markdownKey]?.stringValue, let old = approved[GoldenStore.markdownKey]?.stringValue {
            return HTMLReport.comparedPrograms(golden: old, new: new, newTitle: "Pending", goldenTitle: "Approved")
        }
        if pending["options"]?.arrayValue != nil, approved["options"]?.arrayValue != nil {
            return "<div class=\"side-by-side\"><div><h3>Pending</h3>\(rendered(pending))</div><div class=\"golden\"><h3>Approved</h3>\(rendered(approved))</div></div>"
        }
        return "<h3>Pending</h3>" + rendered(pending)
    }

    private func pendingChecks(_ item: GoldenReview.Item) -> String {
        let rows = item.pending.checks.sorted { ($0.value ? 1 : 0, $0.key) < ($1.value ? 1 : 0, $1.key) }.map { name, passed -> String in
            let approved = item.approved?.checks[name].map { $0 ? "passed" : "failed" } ?? "–"
            let message = passed ? "" : item.pending.failureMessages[name].map(HTML.message) ?? ""
            let mark = passed ? "<span class=\"ok\">pass</span>" : "<span class=\"bad\">fail</span>"
            return "<tr class=\"\(passed ? "passed" : "failed")\"><td>\(mark)</td><td><code>\(HTML.escape(name))</code></td><td>\(message)</td><td>\(approved)</td></tr>"
        }
        let failed = item.pending.checks.values.filter { !$0 }.count
        return """
            <details class="checks"\(failed > 0 ? " open" : "")><summary>Checks: \(item.pending.checks.count - failed) passed, \(failed) failed</summary>\
            <div class="scroll"><table><thead><tr><th></th><th>check</th><th>message</th><th>approved</th></tr></thead><tbody>\(rows.joined())</tbody></table></div></details>
            """
    }

    private func approvedChecks(_ entry: GoldenEntry) -> String {
        let failed = entry.checks.filter { !$0.value }.keys.sorted()
        return "<p>Checks: \(entry.checks.count - failed.count) passed" + (failed.isEmpty ? "" : ", failing: " + failed.map { "<code>\(HTML.escape($0))</code>" }.joined(separator: ", ")) + ".</p>"
    }

    // MARK: Label

    private func labelSection(key: StepKey, track: ReviewSite.Track, pending: GoldenEntry?, approved: GoldenEntry?) throws -> String {
        let current = try track.store.label(key)
        guard let judged = pending ?? approved else { return "" }
        let onPending = pending != nil
        var html = "<section class=\"fixture label\" id=\"label\"><h2>Reviewer's label</h2>"
        if let current {
            let fresh = current.outputDigest == judged.outputDigest
            let freshness = fresh ? "" : current.outputDigest == approved?.outputDigest ? " (on the approved output)" : " — stale: the output changed since"
            html += "<p class=\"current-label\" data-verdict=\"\(current.verdict.rawValue)\">\(current.verdict == .sign ? "Signed" : "Rejected") by \(HTML.escape(current.reviewer)) on \(HTML.escape(current.date))\(HTML.escape(freshness))"
            if !current.reasons.isEmpty { html += ": " + current.reasons.map { "<code>\(HTML.escape($0))</code>" }.joined(separator: ", ") }
            html += "</p>" + (current.note.map { "<blockquote>\(HTML.escape($0))</blockquote>" } ?? "")
        } else {
            html += "<p class=\"current-label\">Not labelled yet.</p>"
        }
        let kind = key.id?.step?.traits.output == .program ? "program" : "options"
        // Numbered by place in the vocabulary, so a digit ticks the same reason on every page.
        let boxes = try site.reasons.reasons.enumerated().filter { $0.element.appliesTo.contains(kind) }.map { index, reason -> String in
            let shortcut = index < 9 ? "<kbd>\(index + 1)</kbd> " : ""
            return "<label class=\"reason\" title=\"\(HTML.escape(reason.definition))\"><input type=\"checkbox\" name=\"reason\" value=\"\(HTML.escape(reason.id))\" data-index=\"\(index + 1)\"> \(shortcut)<code>\(HTML.escape(reason.id))</code> <span class=\"meta\">\(HTML.escape(reason.definition))</span></label>"
        }.joined()
        let replaces = current.map {
            "<p class=\"replaces\">Saving replaces the label \(HTML.escape($0.reviewer)) gave on \(HTML.escape($0.date)).</p>"
        } ?? ""
        html += """
            <form method="post" action="/label" id="label-form">\(Forms.target(track: track.id, key: key))\
            \(Forms.hidden("target", onPending ? "pending" : "approved"))\(Forms.hidden("digest", judged.outputDigest))\
            \(Forms.hidden("previous", ReviewActions.fingerprint(current)))\
            <p>Judging the \(onPending ? "pending" : "approved") output.</p>\
            <fieldset class="verdict-choice"><legend>Verdict</legend>\
            <label><input type="radio" name="verdict" value="sign" data-key="s"> <kbd>s</kbd> sign: fit to show the person as it is</label>\
            <label><input type="radio" name="verdict" value="reject" data-key="r"> <kbd>r</kbd> reject</label></fieldset>\
            <fieldset class="reasons"><legend>Reasons to reject</legend>\(boxes)</fieldset>\
            <label class="note">Note <textarea name="note" rows="2" placeholder="what a colleague should know: the faults, briefly quoted"></textarea></label>\
            <label>Reviewer <input name="reviewer" value="\(HTML.escape(site.defaultReviewer ?? ""))"></label>\
            \(replaces)<button type="submit" data-key="Enter">Save label <kbd>Enter</kbd></button></form>
            """
        return html + "</section>"
    }
}
