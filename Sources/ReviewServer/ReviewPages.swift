import Evaluation
import Foundation
import Golden
import History
import Intake
import Reports
import Storage

/// The review pages. Every text that comes from an output, a fixture or a file is
/// escaped: outputs hold hostile text by design.
struct ReviewPages: Sendable {
    let site: ReviewSite

    static let perPage = 50

    // MARK: Home

    func home() throws -> Page {
        let tracks = try site.tracks()
        let counts = tracks.map { ($0, site.index(of: $0).pending.count) }
        let runs = try site.runs()
        var body = "<h1>Review</h1><section class=\"fixture\"><h2>Pending outputs</h2><ul>"
        body += counts.map { track, count -> String in
            "<li><a \(Links.href("/queue?" + FormFields.query([("track", track.id)])))>\(HTML.escape(track.title))</a>: \(count) pending</li>"
        }.joined()
        body += "</ul><p><a href=\"/queue\">The whole queue</a> (<kbd>q</kbd>)"
        if let first = try site.queue().first { body += " · <a \(Links.href(Links.step(track: first.track, key: first.key)))>review the first</a>" }
        body += "</p></section><section class=\"fixture\"><h2>Latest runs</h2>" + runTable(Array(runs.prefix(5))) + "<p><a href=\"/runs\">Every run</a></p></section>"
        return Page(title: "Review", body: body)
    }

    // MARK: Runs

    func runs(page requested: String?) throws -> Page {
        let runs = try site.runs()
        let paging = Paging(requested: requested, perPage: Self.perPage, total: runs.count)
        let navigation = paging.navigation { "/runs?page=\($0)" }
        let body = "<h1>Runs</h1>" + (runs.isEmpty ? "<p>No run is recorded yet: <code>trainer-eval run</code> records one.</p>" : navigation + runTable(Array(runs[paging.range])) + navigation)
        return Page(title: "Runs", body: body)
    }

    private func runTable(_ runs: [RunRow]) -> String {
        guard !runs.isEmpty else { return "<p>None yet.</p>" }
        let rows = runs.map { run -> String in
            let gate = run.passesGate ? "<span class=\"ok\">passes</span>" : "<span class=\"bad\">fails</span>"
            return "<tr><td><a \(Links.href(Links.run(run.id)))>\(HTML.escape(run.id))</a></td><td>\(HTML.escape(Self.date(run.startedAt)))</td>"
                + "<td>\(HTML.escape(run.variantLabel))</td><td>\(HTML.escape(run.provider)) \(HTML.escape(run.model))</td>"
                + "<td>\(run.passed)/\(run.steps)</td><td>\(gate)\(run.interrupted ? " (interrupted)" : "")</td></tr>"
        }
        return "<div class=\"scroll checks\"><table><thead><tr><th>run</th><th>started</th><th>prompts</th><th>provider</th><th>model steps passing</th><th>gate</th></tr></thead><tbody>"
            + rows.joined() + "</tbody></table></div>"
    }

    static func date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: date)
    }

    /// A run's fixtures and steps, a page of fixtures at a time; with `attention`, only
    /// the steps that do not pass the gate.
    func run(_ reference: String, page requested: String?, attention: Bool) throws -> Page {
        let run = try site.run(reference)
        var body = "<h1>Run \(HTML.escape(run.id)) <small>\(HTML.escape(run.variantLabel)) · \(HTML.escape(Self.date(run.startedAt)))</small></h1>"
        body += "<p>\(run.passed) of \(run.steps) model steps pass the gate · \(HTML.escape(run.provider)) \(HTML.escape(run.model))"
            + (run.commit.map { " · commit <code>\(HTML.escape(String($0.prefix(12))))</code>" } ?? "") + "</p>"
        body += "<p class=\"filter\">Show: " + (attention
            ? "<a \(Links.href(Links.run(run.id)))>every step</a> · <strong>steps that need attention</strong>"
            : "<strong>every step</strong> · <a \(Links.href(Links.run(run.id) + "?filter=attention"))>steps that need attention</a>") + "</p>"
        // Listed from the history, which answers at once however large the run; the
        // report (each step's output) is read when a step is opened.
        let hasReport = site.hasReport(run)
        if !hasReport {
            body += "<p class=\"notice\">Its report folder is gone (only the newest are kept): its steps are listed without outputs.</p>"
        }
        var order: [String] = []
        var byFixture: [String: [StepRow]] = [:]
        for row in try site.steps(ofRun: run) where !attention || !Self.passesGate(row.status) {
            if byFixture[row.fixture] == nil { order.append(row.fixture) }
            byFixture[row.fixture, default: []].append(row)
        }
        let paging = Paging(requested: requested, perPage: Self.perPage, total: order.count)
        let navigation = paging.navigation { pageURL(run.id, $0, attention) }
        body += navigation
        body += order[paging.range].map { fixture -> String in
            let rows = byFixture[fixture] ?? []
            let worst = rows.compactMap { StepVerdict.Status(rawValue: $0.status) }.max { $0.severity < $1.severity } ?? .skipped
            return "<section class=\"fixture\" data-name=\"\(HTML.escape(fixture))\"><h2><span class=\"badge s-\(worst.rawValue)\">\(worst.label)</span> \(HTML.escape(fixture))</h2><ul class=\"steps\">"
                + rows.map { row -> String in
                    let status = StepVerdict.Status(rawValue: row.status)
                    let failing = row.failedChecks.split(separator: "\n").count
                    let name = hasReport
                        ? "<a \(Links.href(Links.runStep(run.id, key: StepKey(fixture: fixture, step: row.stepId))))>\(HTML.escape(row.stepId))</a>"
                        : HTML.escape(row.stepId)
                    return "<li><span class=\"badge s-\(HTML.escape(row.status))\">\(HTML.escape(status?.label ?? row.status))</span> \(name)"
                        + " <span class=\"meta\">\(HTML.escape(row.outcome))\(failing > 0 ? ", \(failing) check\(failing == 1 ? "" : "s") failing" : "")</span></li>"
                }.joined() + "</ul></section>"
        }.joined()
        body += navigation
        if order.isEmpty { body += attention ? "<p>No step needs attention.</p>" : "<p>The run produced no step.</p>" }
        return Page(title: "Run \(run.id)", body: body)
    }

    private func pageURL(_ run: String, _ page: Int, _ attention: Bool) -> String {
        Links.run(run) + "?" + FormFields.query([("page", String(page)), ("filter", attention ? "attention" : nil)])
    }

    private static func passesGate(_ status: String) -> Bool {
        StepVerdict.Status(rawValue: status).map { [.matches, .knownFailure, .unapprovedCheck].contains($0) } ?? false
    }

    /// One step of a run as it ran: its output rendered, checks, interventions, diff and
    /// prompt, with a link to the step on its golden track.
    func runStep(_ reference: String, fixture: String?, step: String?) throws -> Page {
        let run = try site.run(reference)
        guard case .success(let report) = site.report(of: run) else {
            throw PageError.notFound("Run \(run.id)'s report folder is gone (only the newest are kept), so its outputs cannot be shown.")
        }
        guard let fixtureReport = report.fixtures.first(where: { $0.name == fixture }),
            let stepReport = fixtureReport.steps.first(where: { $0.id == step })
        else {
            throw PageError.notFound("Run \(run.id) has no step \(fixture ?? "?")/\(step ?? "?").")
        }
        let key = StepKey(fixture: fixtureReport.name, step: stepReport.id)
        var body = "<h1>\(HTML.escape(key.description)) <small>run <a \(Links.href(Links.run(run.id)))>\(HTML.escape(run.id))</a></small></h1>"
        if let track = try goldenTrack(of: run, holding: key) {
            body += "<p><a \(Links.href(Links.step(track: track, key: key))) data-key=\"g\">This step on its golden track <kbd>g</kbd></a>: approve, discard or label it there.</p>"
        }
        body += "<section class=\"fixture\">" + HTMLReport.stepArticle(stepReport, fixture: fixtureReport.name, recorded: report.run.isReplay) + "</section>"
        return Page(title: key.description, body: body)
    }

    /// The golden track that holds a run's step: the run's variants' folder for the steps
    /// it holds, else the base.
    private func goldenTrack(of run: RunRow, holding key: StepKey) throws -> String? {
        let tracks = try site.tracks()
        let label = run.variantLabel
        for track in tracks where track.label == label || (track.label == nil && label == "base") {
            if site.index(of: track).steps.contains(key) { return track.id }
        }
        let base = tracks.first { $0.label == nil }
        return base.flatMap { site.index(of: $0).steps.contains(key) ? $0.id : nil }
    }

    // MARK: Queue and golden

    /// Every pending output across the tracks (or one track's), a page at a time.
    func queue(track trackID: String?, page requested: String?) throws -> Page {
        let tracks = try site.tracks()
        var queue = try site.queue()
        if let trackID {
            _ = try site.track(trackID)
            queue = queue.filter { $0.track == trackID }
        }
        let paging = Paging(requested: requested, perPage: Self.perPage, total: queue.count)
        let navigation = paging.navigation { "/queue?" + FormFields.query([("track", trackID), ("page", String($0))]) }
        var body = "<h1>Pending outputs <small>\(queue.count)\(trackID.map { " on " + HTML.escape($0) } ?? ", every track")</small></h1>"
        guard !queue.isEmpty else { return Page(title: "Queue", body: body + "<p>Nothing is pending: every output is approved.</p>") }
        let first = queue[paging.range.lowerBound]
        body += "<p><a \(Links.href(Links.step(track: first.track, key: first.key))) data-key=\"n\">Review from here <kbd>n</kbd></a></p>" + navigation
        let rows = try queue[paging.range].map { entry -> String in
            guard let track = tracks.first(where: { $0.id == entry.track }), let item = try track.review.item(entry.key) else {
                return ""
            }
            let unsafe = try site.safety.failures(of: item.pending)
            return "<tr class=\"queued\"><td>\(HTML.escape(track.title))</td><td><span class=\"badge s-\(item.kind)\">\(item.kind)</span></td>"
                + "<td><a \(Links.href(Links.step(track: entry.track, key: entry.key)))>\(HTML.escape(entry.key.description))</a></td>"
                + "<td>\(HTML.escape(item.diff.summary))\(unsafe.isEmpty ? "" : " · <span class=\"bad\">fails safety checks</span>")</td></tr>"
        }
        body += "<div class=\"scroll checks\"><table><thead><tr><th>track</th><th></th><th>step</th><th>difference</th></tr></thead><tbody>\(rows.joined())</tbody></table></div>" + navigation
        return Page(title: "Queue", body: body)
    }

    /// A track's approved outputs with their labels, a page at a time, to label
    /// outputs nothing made pending.
    func golden(track trackID: String?, page requested: String?, unlabelled: Bool) throws -> Page {
        let tracks = try site.tracks()
        let track = try site.track(trackID)
        let index = site.index(of: track)
        var keys = index.approved
        let labelled = Set(index.labelled)
        if unlabelled { keys = keys.filter { !labelled.contains($0) } }
        let paging = Paging(requested: requested, perPage: Self.perPage, total: keys.count)
        let navigation = paging.navigation { "/golden?" + FormFields.query([("track", track.id), ("page", String($0)), ("filter", unlabelled ? "unlabelled" : nil)]) }
        var body = "<h1>Approved outputs <small>\(HTML.escape(track.title))</small></h1>"
            + Self.trackList(tracks, current: track.id) { "/golden?" + FormFields.query([("track", $0)]) }
        body += "<p class=\"filter\">Show: " + (unlabelled
            ? "<a \(Links.href("/golden?" + FormFields.query([("track", track.id)])))>every output</a> · <strong>unlabelled</strong>"
            : "<strong>every output</strong> · <a \(Links.href("/golden?" + FormFields.query([("track", track.id), ("filter", "unlabelled")])))>unlabelled</a>") + "</p>"
        let rows = try keys[paging.range].map { key -> String in
            let label = try track.store.label(key)
            let approved = try track.store.approved(key)
            let state: String
            switch label {
            case nil: state = "<span class=\"meta\">not labelled</span>"
            case let label? where label.outputDigest != approved?.outputDigest:
                let onPending = try track.store.pending(key)?.outputDigest == label.outputDigest
                state = "<span class=\"meta\">\(label.verdict == .sign ? "signed" : "rejected") \(onPending ? "the pending output (counts once accepted)" : "an earlier output (stale)")</span>"
            case let label?: state = label.verdict == .sign ? "<span class=\"ok\">signed</span>" : "<span class=\"bad\">rejected</span>: " + label.reasons.map(HTML.escape).joined(separator: ", ")
            }
            return "<tr><td class=\"nowrap\"><a \(Links.href(Links.step(track: track.id, key: key)))>\(HTML.escape(key.description))</a></td><td>\(state)</td></tr>"
        }
        if keys.isEmpty {
            body += unlabelled ? "<p>Every approved output on this track is labelled.</p>" : "<p>Nothing is approved on this track yet.</p>"
            return Page(title: "Golden", body: body)
        }
        body += navigation + "<div class=\"scroll checks\"><table><thead><tr><th>step</th><th>label</th></tr></thead><tbody>\(rows.joined())</tbody></table></div>" + navigation
        return Page(title: "Golden", body: body)
    }

    /// The tracks, one a line (their labels are long), the current one in bold.
    static func trackList(_ tracks: [ReviewSite.Track], current: String, link: (String) -> String) -> String {
        "<ul class=\"tracks\">" + tracks.map { track in
            track.id == current ? "<li><strong>\(HTML.escape(track.title))</strong></li>" : "<li><a \(Links.href(link(track.id)))>\(HTML.escape(track.title))</a></li>"
        }.joined() + "</ul>"
    }

    // MARK: Agreement and comparison

    /// The checks against the reviewers' labels on a track, as `agreement` measures them.
    func agreement(track trackID: String?) async throws -> Page {
        let tracks = try site.tracks()
        let track = try site.track(trackID)
        var body = "<h1>Agreement <small>\(HTML.escape(track.title))</small></h1>"
            + Self.trackList(tracks, current: track.id, link: Links.agreement)
            + "<p class=\"meta\">Labels of approved outputs count; a label of a pending output counts once the output is accepted.</p>"
        let measure: Project.AgreementMeasure
        do {
            let measured = try await site.agreement(on: track)
            measure = measured.measure
            body += "<p class=\"meta\">" + (measured.cached
                ? "As measured earlier (a replay of \(String(format: "%.1f", measured.seconds)) s): nothing it reads has changed since."
                : "Measured now: the track replayed offline in \(String(format: "%.1f", measured.seconds)) s.") + "</p>"
        } catch {
            return Page(title: "Agreement", body: body + "<p class=\"notice error\">The agreement cannot be measured on this track: \(HTML.escape(String(describing: error)))</p>")
        }
        guard let agreement = measure.agreement else {
            return Page(title: "Agreement", body: body + "<p>No output on this track is labelled yet. Label outputs from the <a href=\"/queue\">queue</a> or the <a href=\"/golden\">approved outputs</a>.</p>")
        }
        body += HTMLReport.agreementSection(agreement) { output in
            let parts = output.split(separator: "/", maxSplits: 1).map(String.init)
            return parts.count == 2 ? Links.step(track: track.id, key: StepKey(fixture: parts[0], step: parts[1])) : "#"
        }
        for warning in measure.warnings { body += "<p class=\"meta\">warning: \(HTML.escape(warning))</p>" }
        if !measure.unreplayable.isEmpty {
            body += "<p class=\"meta\">Not replayable (stale recordings), so not counted: \(measure.unreplayable.map(HTML.escape).joined(separator: ", "))</p>"
        }
        return Page(title: "Agreement", body: body)
    }

    /// Two runs side by side with the paired verdict, as `compare --report` writes it.
    func compare(base: String?, head: String?) throws -> Page {
        let runs = try site.runs()
        guard runs.count >= 1 else { return Page(title: "Compare", body: "<h1>Compare runs</h1><p>No run is recorded yet.</p>") }
        let headID = head ?? runs[0].id
        let baseID = base ?? (runs.count > 1 ? runs[1].id : "golden")
        func options(_ selected: String, golden: Bool) -> String {
            (golden ? ["golden"] : []).map { "<option value=\"golden\"\($0 == selected ? " selected" : "")>the approved outputs</option>" }.joined()
                + runs.map { "<option value=\"\(HTML.escape($0.id))\"\($0.id == selected ? " selected" : "")>\(HTML.escape($0.id)) · \(HTML.escape($0.variantLabel))</option>" }.joined()
        }
        var body = """
            <h1>Compare runs</h1><form method="get" action="/compare" class="compare-form">\
            <label>Base <select name="base">\(options(baseID, golden: true))</select></label> \
            <label>Head <select name="head">\(options(headID, golden: false))</select></label> <button type="submit">Compare</button></form>
            """
        let loaded: (comparison: RunComparison, outputs: ComparedOutputs)
        do {
            loaded = try site.comparison(base: baseID, head: headID)
        } catch let error as PageError {
            throw error
        } catch {
            throw PageError.notFound(String(describing: error))
        }
        body += "<div class=\"comparison\">" + ComparisonReport.body(loaded.comparison, outputs: loaded.outputs) + "</div>"
        return Page(title: "Compare", body: body)
    }
}
