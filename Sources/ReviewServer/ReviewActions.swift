import Foundation
import Golden
import Intake
import Storage

/// What the pages can change: accepting or discarding a pending output, approving
/// one that fails a safety check for a reason, and labelling an output. Each is the
/// library call its command makes (`accept`, `reject`, `accept --allow-unsafe`,
/// `label`), so the files change exactly as the command would change them.
///
/// One action runs at a time. Each names the version of the output its page showed
/// (a fingerprint); when a run, a command or another tab has changed it since, the
/// action writes nothing and says what happened.
actor ReviewActions {
    let site: ReviewSite

    init(site: ReviewSite) {
        self.site = site
    }

    /// A pending output as a page showed it: its output and its check results.
    static func fingerprint(_ entry: GoldenEntry) -> String {
        let checks = entry.checks.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n")
        return SHA256Digest.hex(of: entry.outputDigest + "\n" + checks)
    }

    /// A label as a page showed it; `none` when the output had none.
    static func fingerprint(_ label: ReviewLabel?) -> String {
        label.map { SHA256Digest.hex(of: $0.fileText) } ?? "none"
    }

    /// Accepts a pending output. One that fails a safety check is refused (only a
    /// reason approves it); one that makes passing checks fail needs `confirmed`.
    func accept(track id: String?, fixture: String?, step: String?, fingerprint: String?, confirmed: Bool) throws -> StepKey {
        try locked(id) { try acceptLocked(track: id, fixture: fixture, step: step, fingerprint: fingerprint, confirmed: confirmed) }
    }

    private func acceptLocked(track id: String?, fixture: String?, step: String?, fingerprint: String?, confirmed: Bool) throws -> StepKey {
        let (track, item) = try pendingItem(track: id, fixture: fixture, step: step, fingerprint: fingerprint)
        switch try track.review.apply(.accept, to: item, confirmed: confirmed) {
        case .accepted:
            return item.key
        case .refusedUnsafe:
            let failures = try site.safety.failures(of: item.pending)
            throw PageError.badRequest(
                "\(item.key) fails safety checks (\(failures.joined(separator: ", "))), so it stays pending. Approve it only with the reason a reviewer stands by, in the form below.")
        case .needsConfirmation:
            throw PageError.badRequest(
                "Accepting \(item.key) makes checks that pass now fail: \(item.diff.newlyFailing.joined(separator: ", ")). Tick \"accept although checks now fail\" to accept it as a known failure.")
        case .rejected, .skipped, .quit:
            return item.key
        }
    }

    /// Accepts a pending output that fails safety checks, keeping the reason beside it.
    func acceptUnsafe(
        track id: String?, fixture: String?, step: String?, fingerprint: String?, reason: String?, reviewer: String?, confirmed: Bool
    ) throws -> StepKey {
        try locked(id) {
            try acceptUnsafeLocked(track: id, fixture: fixture, step: step, fingerprint: fingerprint, reason: reason, reviewer: reviewer, confirmed: confirmed)
        }
    }

    private func acceptUnsafeLocked(
        track id: String?, fixture: String?, step: String?, fingerprint: String?, reason: String?, reviewer: String?, confirmed: Bool
    ) throws -> StepKey {
        let (track, item) = try pendingItem(track: id, fixture: fixture, step: step, fingerprint: fingerprint)
        guard try !site.safety.failures(of: item.pending).isEmpty else {
            throw PageError.badRequest("\(item.key) passes every safety check: accept it as it is, without a reason.")
        }
        guard !item.acceptsRegression || confirmed else {
            throw PageError.badRequest(
                "Approving \(item.key) also makes checks that pass now fail: \(item.diff.newlyFailing.joined(separator: ", ")). Tick \"and although checks that passed now fail\" to approve it.")
        }
        guard let reason = reason?.trimmingCharacters(in: .whitespacesAndNewlines), !reason.isEmpty else {
            throw PageError.badRequest("Give the reason a reviewer stands by, such as \"kept to show the guardrail catches it\".")
        }
        guard let reviewer = nonBlank(reviewer) ?? site.defaultReviewer else {
            throw PageError.badRequest("Who is reviewing? Fill in the reviewer, or set git's user.name.")
        }
        let approval = GoldenReview.UnsafeApproval(reason: reason, reviewer: reviewer, date: ReviewLabels.today())
        try track.review.accept(where: { $0 == item.key }, allowingUnsafe: approval)
        return item.key
    }

    /// Discards a pending output; golden stays as it is.
    func discard(track id: String?, fixture: String?, step: String?, fingerprint: String?) throws -> StepKey {
        try locked(id) {
            let (track, item) = try pendingItem(track: id, fixture: fixture, step: step, fingerprint: fingerprint)
            track.store.reject(item.key)
            return item.key
        }
    }

    /// What a label form sends.
    struct LabelForm: Sendable {
        var track: String?
        var fixture: String?
        var step: String?
        /// The pending output rather than the approved one.
        var pending: Bool
        /// The output digest the page showed.
        var outputDigest: String?
        /// The label the page showed (`fingerprint(_: ReviewLabel?)`).
        var previousLabel: String?
        var verdict: String?
        var reasons: [String]
        var note: String?
        var reviewer: String?
    }

    /// Signs or rejects an output, as `label` does.
    func label(_ form: LabelForm) throws -> ReviewLabels.Written {
        try locked(form.track) { try labelLocked(form) }
    }

    private func labelLocked(_ form: LabelForm) throws -> ReviewLabels.Written {
        let track = try site.track(form.track)
        let key = try actedOn(fixture: form.fixture, step: form.step, track: track)
        guard let verdict = form.verdict.flatMap(ReviewLabel.Verdict.init(rawValue:)) else {
            throw PageError.badRequest("Choose a verdict: sign or reject.")
        }
        let labels = try site.labels(on: track)
        let output: GoldenEntry
        do {
            output = try labels.output(of: key, pending: form.pending)
        } catch {
            throw PageError.conflict(
                "The \(form.pending ? "pending" : "approved") output of \(key) is gone since this page was opened (accepted or discarded elsewhere). Nothing was written: reload to label it as it is now.")
        }
        guard output.outputDigest == form.outputDigest else {
            throw PageError.conflict(
                "The \(form.pending ? "pending" : "approved") output of \(key) changed since this page was opened. Nothing was written: reload it and judge the output as it is now.")
        }
        let current = try track.store.label(key)
        guard Self.fingerprint(current) == form.previousLabel else {
            let who = current.map { "\($0.reviewer) \($0.verdict == .sign ? "signed" : "rejected") it on \($0.date)" } ?? "its label was removed"
            throw PageError.conflict("\(key) was labelled since this page was opened (\(who)). Nothing was written: reload to see that label, then label it again if you still disagree.")
        }
        let request = ReviewLabels.Request(
            fixture: key.fixture, step: key.step, verdict: verdict, reasons: form.reasons, note: form.note,
            reviewer: nonBlank(form.reviewer) ?? site.defaultReviewer ?? "", date: ReviewLabels.today(), pending: form.pending)
        do {
            return try labels.label(request)
        } catch {
            throw PageError.badRequest(error.description.replacingOccurrences(of: "--reason", with: "reason").replacingOccurrences(of: "--reviewer NAME", with: "a reviewer"))
        }
    }

    /// Runs an action's check and write while no other process writes the track's
    /// golden folder (`GoldenWriteLock`): what was checked is what is written.
    private func locked<T>(_ track: String?, _ body: () throws -> T) throws -> T {
        let folder = try site.folder(of: site.track(track))
        return try GoldenWriteLock.withLock(folder: folder) { try body() }
    }

    /// The pending output an action names, as its page showed it.
    private func pendingItem(track id: String?, fixture: String?, step: String?, fingerprint: String?) throws -> (ReviewSite.Track, GoldenReview.Item) {
        let track = try site.track(id)
        let key = try actedOn(fixture: fixture, step: step, track: track)
        guard let item = try track.review.item(key) else {
            throw PageError.conflict("Nothing is pending for \(key) any more: it was accepted or discarded elsewhere. Nothing was written.")
        }
        guard Self.fingerprint(item.pending) == fingerprint else {
            throw PageError.conflict(
                "The pending output of \(key) changed since this page was opened (a run wrote a new one). Nothing was written: reload to review it as it is now.")
        }
        return (track, item)
    }

    /// The step an action names. One whose output is gone (a new output discarded
    /// elsewhere leaves no file at all) is a conflict, not a wrong name.
    private func actedOn(fixture: String?, step: String?, track: ReviewSite.Track) throws -> StepKey {
        do {
            return try site.key(fixture: fixture, step: step, on: track)
        } catch PageError.notFound(let message) {
            guard let fixture, let step, site.fixtures.contains(fixture) || track.store.fixtureFolders().contains(fixture) else {
                throw PageError.notFound(message)
            }
            throw PageError.conflict("Nothing is pending for \(fixture)/\(step) any more: it was accepted or discarded elsewhere. Nothing was written.")
        }
    }

    private func nonBlank(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        return text
    }
}
