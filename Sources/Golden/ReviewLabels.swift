import Foundation
import Intake
import Storage

/// Reviewers' verdicts on outputs: giving one (`trainer-eval label`, `review`) and
/// telling a fresh label from a stale one.
///
/// A label is tied to the output it judged by the output's SHA-256. Once the output
/// changes (a new approval, a re-recording), the label is stale: shown as such and never
/// counted, until a reviewer labels the new output.
public struct ReviewLabels: Sendable {
    public let golden: any GoldenStorage
    public let reasons: ReviewReasons
    /// The fixtures of the corpus, for telling a mistyped name.
    public let fixtures: [String]

    public init(golden: any GoldenStorage, reasons: ReviewReasons, fixtures: [String]) {
        self.golden = golden
        self.reasons = reasons
        self.fixtures = fixtures
    }

    /// What a reviewer asks for: a verdict on one fixture step's output.
    public struct Request: Sendable {
        public var fixture: String
        public var step: String
        public var verdict: ReviewLabel.Verdict
        public var reasons: [String]
        public var note: String?
        public var reviewer: String
        /// `YYYY-MM-DD`.
        public var date: String
        /// Label the step's pending output (the one `accept` would approve) rather than its approved one.
        public var pending: Bool

        public init(
            fixture: String, step: String, verdict: ReviewLabel.Verdict, reasons: [String], note: String?, reviewer: String,
            date: String, pending: Bool = false
        ) {
            (self.fixture, self.step, self.verdict, self.reasons) = (fixture, step, verdict, reasons)
            (self.note, self.reviewer, self.date, self.pending) = (note, reviewer, date, pending)
        }
    }

    /// What `label` wrote.
    public struct Written: Sendable, Hashable {
        public var key: StepKey
        public var label: ReviewLabel
        /// The output labelled was the pending one.
        public var labelledPending: Bool
        /// The label this one replaced, if any.
        public var replaced: ReviewLabel?
    }

    /// Today, as a label's date: `YYYY-MM-DD`, in UTC.
    public static func today(_ now: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: now)
    }

    /// Checks the request, finds the output it judges, and keeps the label beside it.
    public func label(_ request: Request) throws(LabelError) -> Written {
        let key = try resolve(fixture: request.fixture, step: request.step)
        let (reasons, note) = try checked(request)
        let made = ReviewLabel(
            verdict: request.verdict, reasons: reasons, note: note, reviewer: request.reviewer, date: request.date,
            outputDigest: try output(of: key, pending: request.pending).outputDigest)
        do {
            let replaced = try golden.label(key)
            try golden.writeLabel(made, for: key)
            return Written(key: key, label: made, labelledPending: request.pending, replaced: replaced)
        } catch {
            throw LabelError.golden(error)
        }
    }

    /// A request's reasons (each once) and note (nil when blank), checked against the
    /// vocabulary and the verdict; a reviewer must be named.
    func checked(_ request: Request) throws(LabelError) -> (reasons: [String], note: String?) {
        try reasons.validate(request.reasons)
        switch request.verdict {
        case .sign where !request.reasons.isEmpty:
            throw LabelError.reasonsOnSign(request.reasons)
        case .reject where request.reasons.isEmpty:
            throw LabelError.rejectWithoutReason(known: reasons.ids)
        default:
            break
        }
        guard !request.reviewer.trimmingCharacters(in: .whitespaces).isEmpty else { throw LabelError.noReviewer }
        var unique: [String] = []
        for reason in request.reasons where !unique.contains(reason) { unique.append(reason) }
        let note = request.note?.trimmingCharacters(in: .whitespacesAndNewlines)
        return (unique, note?.isEmpty == false ? note : nil)
    }

    /// The fixture step a reviewer named, with a did-you-mean for a name that is not one.
    public func resolve(fixture: String, step: String) throws(LabelError) -> StepKey {
        let known = Set(fixtures).union(golden.fixtureFolders()).sorted()
        guard known.contains(fixture) else {
            throw LabelError.unknownFixture(fixture, suggestion: ClosestMatch.suggestion(for: fixture, among: known))
        }
        let steps = Set((golden.entries(pending: false) + golden.entries(pending: true)).filter { $0.fixture == fixture }.map(\.step))
        let ordered = steps.sorted { lhs, rhs in
            switch (StepID(lhs), StepID(rhs)) {
            case let (left?, right?) where left != right: return left < right
            default: return lhs < rhs
            }
        }
        let key = StepKey(fixture: fixture, step: step)
        guard steps.contains(step) else {
            if let id = StepID(step) {
                throw LabelError.noOutput(key, why: id.callsModel
                    ? "it has no approved or pending output yet: run it first (`\(Invocation.command) run --fixture \(fixture)`)"
                    : "\(step) calls no model and makes no output of its own; its choice is program-draft's input")
            }
            throw LabelError.unknownStep(step, fixture: fixture, suggestion: ClosestMatch.suggestion(for: step, among: ordered), known: ordered)
        }
        return key
    }

    /// The output a label judges: the approved one, or with `pending` the pending one.
    public func output(of key: StepKey, pending: Bool) throws(LabelError) -> GoldenEntry {
        let entry: GoldenEntry?
        do {
            entry = pending ? try golden.pending(key) : try golden.approved(key)
        } catch {
            throw LabelError.golden(error)
        }
        guard let entry else {
            throw LabelError.noOutput(key, why: pending
                ? "nothing is pending for it; leave out --pending to label its approved output"
                : "it has no approved output, only a pending one: label that with --pending, or accept it first")
        }
        return entry
    }
}

/// A label and the output it was given for, as the golden files hold it now.
public struct Labelled: Sendable, Hashable {
    public var key: StepKey
    public var label: ReviewLabel
    /// The SHA-256 of the step's approved output now; nil when none is approved.
    public var approvedDigest: String?

    public init(key: StepKey, label: ReviewLabel, approvedDigest: String?) {
        self.key = key
        self.label = label
        self.approvedDigest = approvedDigest
    }

    /// The label judges the approved output as it is now.
    public var isFresh: Bool { approvedDigest == label.outputDigest }
}

/// A label that cannot be given, or a label file or vocabulary that cannot be read.
public enum LabelError: Error, Equatable, CustomStringConvertible {
    case vocabulary(path: String, problem: String)
    case unknownReason(String, suggestion: String?, known: [String])
    case unknownFixture(String, suggestion: String?)
    case unknownStep(String, fixture: String, suggestion: String?, known: [String])
    case noOutput(StepKey, why: String)
    case reasonsOnSign([String])
    case rejectWithoutReason(known: [String])
    case noReviewer
    case golden(GoldenError)

    public var description: String {
        switch self {
        case .vocabulary(let path, let problem):
            return "The reason vocabulary \(path) cannot be used: \(problem)."
        case .unknownReason(let reason, let suggestion, let known):
            return "Unknown reason \"\(reason)\"" + (suggestion.map { ": did you mean \"\($0)\"?" } ?? ".")
                + " The reasons are: \(known.joined(separator: ", ")) (prompts/coaching/review-reasons.yaml)."
        case .unknownFixture(let fixture, let suggestion):
            return "No fixture \"\(fixture)\"" + (suggestion.map { ": did you mean \"\($0)\"?" } ?? ".")
                + " `\(Invocation.command) fixtures list` lists them."
        case .unknownStep(let step, let fixture, let suggestion, let known):
            return "\(fixture) has no step \"\(step)\"" + (suggestion.map { ": did you mean \"\($0)\"?" } ?? ".")
                + (known.isEmpty ? " It has no outputs yet." : " Its steps with outputs: \(known.joined(separator: ", ")).")
        case .noOutput(let key, let why):
            return "\(key) has no output to label: \(why)."
        case .reasonsOnSign(let reasons):
            return "A signed output has no reasons to reject it; drop --reason \(reasons.joined(separator: " --reason ")), or reject it."
        case .rejectWithoutReason(let known):
            return "A rejection needs at least one --reason, so that the checks' blind spots can be told by reason: \(known.joined(separator: ", "))."
        case .noReviewer:
            return "Who is reviewing? Pass --reviewer NAME, or set git's user.name."
        case .golden(let error):
            return error.description
        }
    }
}
