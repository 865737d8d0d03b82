import Checks
import Foundation
import Intake
import JSONSchema

/// What an option edit's feedback asks, read clause by clause by the backend: wants to
/// leave out, wishes for one option or for the whole set, a new date or session
/// length, what a trainer never sets (declined), and text aimed at the model (left unanswered).
struct OptionFeedback: Sendable, Hashable {
    struct Wish: Sendable, Hashable {
        /// The clause, in the person's words.
        var text: String
        /// Wants it names.
        var wants: [String]
        var wholeSet: Bool
    }

    var dropped: Set<String> = []
    /// The clauses that ask to leave something out, in the person's words.
    var leaveOut: [String] = []
    var wishes: [Wish] = []
    /// " by December" when the feedback moves the date.
    var by: String?
    var minutes: Int?
    var declined: [String] = []
    var ignored: [String] = []

    /// The clauses of a feedback text.
    static func clauses(_ text: String) -> [String] {
        text.split(whereSeparator: { ".!?;,\n".contains($0) }).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

/// How an option edit reads the person's feedback (`feedback:` of goal-kinds.yaml).
struct OptionFeedbackRules: Sendable, Hashable {
    var drop: [String] = []
    var wholeSet: [String] = []
    var ignored: [String] = []
    var wishes: [String] = []
    /// More words naming a want, by want id.
    var topics: [String: [String]] = [:]
    var months: [String: [String]] = [:]
    var byMonth: [String: String] = [:]
    var byWeeks: [String: String] = [:]
    var declined: [String: String] = [:]
    var unchanged: [String: String] = [:]
    var topicAfter: [String] = []
    var topicTrailing: [String] = []
    var topicPointers: [String] = []
    var wishText: [String: GoalKindRules.Text] = [:]
}

extension GoalKindRules {
    /// What a wish is about, in the person's words turned to "you": the words after
    /// the first `topic_after` cue, without a closing question; nil when it has none.
    func topic(of wish: String, language: String) -> String? {
        let lowered = wish.lowercased()
        guard let cue = feedback.topicAfter.compactMap({ cue in
            lowered.range(of: " \(cue) ").map { (cue, $0) } ?? (lowered.hasPrefix(cue + " ") ? (cue, lowered.range(of: cue + " ")!) : nil)
        }).min(by: { $0.1.lowerBound < $1.1.lowerBound }) else { return nil }
        var words = lowered[cue.1.upperBound...].split(whereSeparator: \.isWhitespace).map(String.init)
        let yours = language == "es" ? ["mi": "tu", "mis": "tus", "me": "te"] : ["my": "your", "i": "you", "me": "you", "i'm": "you're", "mine": "yours"]
        words = words.map { yours[$0.trimmingCharacters(in: CharacterSet(charactersIn: "?!.,"))] ?? $0 }
        var topic = words.joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: " ?!.,"))
        for trailing in feedback.topicTrailing where topic.hasSuffix(" " + trailing) { topic.removeLast(trailing.count + 1) }
        // A topic that only points back ("include that") or runs long reads badly in a sentence of ours.
        let count = topic.split(separator: " ").count
        guard count >= 1, count <= 8, topic.count >= 3, !feedback.topicPointers.contains(topic) else { return nil }
        return topic
    }

    /// The backend's own text for a wish about `topic`.
    func wishText(topic: String, frame: GoalFrame) -> Text? {
        guard let text = feedback.wishText[frame.language] ?? feedback.wishText["en"] else { return nil }
        return Text(
            summary: fill(text.summary.replacingOccurrences(of: "{topic}", with: topic), frame: frame, by: ""),
            detail: fill(text.detail.replacingOccurrences(of: "{topic}", with: topic), frame: frame, by: ""))
    }

    /// An option's own words, to stand in when the model's cannot be shown.
    private func ownWords(of option: JSONValue) -> Text {
        Text(summary: option["summary"]?.stringValue ?? "", detail: option["detail"]?.stringValue ?? "")
    }

    /// The wants `text` names, by the `wants` words and the feedback's `topics`.
    func wants(namedIn text: String) -> [String] {
        wants.filter { want in
            (want.words + (feedback.topics[want.id] ?? [])).contains { TextMatching.mentions($0, in: text) }
        }.map(\.id)
    }

    /// How the backend reads `feedback` for a person with `frame`.
    func read(_ feedback: String, frame: GoalFrame, knowledge: CoachingKnowledge) -> OptionFeedback {
        var read = OptionFeedback()
        let rules = self.feedback
        for clause in OptionFeedback.clauses(feedback) {
            let named = wants(namedIn: clause)
            func has(_ cues: [String]) -> Bool { cues.contains { TextMatching.mentions($0, in: clause) } }
            if has(rules.ignored) {
                read.ignored.append(clause)
                continue
            }
            let harmful = Guardrails.asksForHarm(clause, knowledge: knowledge)
            if harmful || (frame.noWeightLoss != nil && named.contains("weight-loss") && !has(rules.drop)) {
                read.declined.append(clause)
                continue
            }
            if has(rules.drop) {
                read.dropped.formUnion(named)
                read.leaveOut.append(clause)
                continue
            }
            if let month = (rules.months[frame.language] ?? []).first(where: { TextMatching.mentions($0, in: clause) }) {
                read.by = rules.byMonth[frame.language]?.replacingOccurrences(of: "{month}", with: month)
                continue
            }
            if let time = knowledge.advice.sessionTime.flatMap({ AvailableTime.read(clause, label: "the feedback", rules: $0) }) {
                read.minutes = time.usual
                continue
            }
            if has(rules.wishes) {
                // "Can one of them include that?" asks again for the wish before it.
                let pointsBack = named.isEmpty && rules.topicPointers.contains { TextMatching.mentions($0, in: clause) }
                if pointsBack, !read.wishes.isEmpty { continue }
                // "Give me something to chase, a time goal maybe?" is one wish said twice.
                if !named.isEmpty, read.wishes.contains(where: { !Set($0.wants).isDisjoint(with: named) }) { continue }
                read.wishes.append(OptionFeedback.Wish(text: clause, wants: named, wholeSet: has(rules.wholeSet)))
            }
        }
        return read
    }

    /// The options an edit answers `feedback` with, given the `current` options
    /// (round `round`); `earlier` feedback still applies. Options the feedback does not
    /// touch are kept as they were.
    func editLayout(
        current: JSONValue, feedback: String, earlier: [String], round: Int, frame: GoalFrame,
        knowledge: CoachingKnowledge
    ) -> OptionLayout {
        let options = current["options"]?.arrayValue ?? []
        let read = self.read(feedback, frame: frame, knowledge: knowledge)
        let earlierDrops = earlier.reduce(into: Set<String>()) { $0.formUnion(self.read($1, frame: frame, knowledge: knowledge).dropped) }
        var frame = frame
        if let minutes = read.minutes { frame.minutes = minutes }
        let by = read.by ?? self.by(frame)
        let kindOf = { (option: JSONValue) in option["kind"]?.stringValue ?? "" }
        func text(_ option: JSONValue) -> String { [option["summary"]?.stringValue, option["detail"]?.stringValue].compactMap { $0 }.joined(separator: " ") }

        var rewrite: [Int: OptionLayout.Slot] = [:]
        let everything = read.by != nil || read.minutes != nil || read.wishes.contains(where: \.wholeSet)
            || (read.wishes.isEmpty && read.dropped.isEmpty && read.declined.isEmpty && read.ignored.isEmpty)
        let keepFacts = "still fitting your answers"
        // What the rewritten options answer: the clauses that ask for something, else
        // (when no clause could be read) the whole feedback.
        let readable = !read.wishes.isEmpty || read.by != nil || read.minutes != nil || !read.dropped.isEmpty
        let answering = !read.wishes.isEmpty ? read.wishes.map { PromptData.fenced(.string($0.text), pretty: false) }.joined(separator: " and ")
            : readable ? "" : PromptData.fenced(.string(feedback), pretty: false)
        // Options about what they asked to leave out are the first to go.
        var free = options.indices.filter { index in
            let served = kinds.first { $0.id == kindOf(options[index]) }?.serves
            return (served.map(read.dropped.contains) ?? false) || !wants(namedIn: text(options[index])).filter(read.dropped.contains).isEmpty
        }
        if everything {
            // When the model's words cannot be shown, the last option rewritten still answers the
            // wish: the first are the person's own wants, in their order.
            let topicText = read.wishes.lazy.compactMap { self.topic(of: $0.text, language: frame.language) }.first
                .flatMap { wishText(topic: $0, frame: frame) }
            let last = options.indices.last { !free.contains($0) }
            for (index, option) in options.enumerated() where !free.contains(index) {
                var changes: [String] = []
                if !answering.isEmpty { changes.append("answering your feedback \(answering)") }
                if let moved = read.by { changes.append("now\(moved)") }
                if let minutes = read.minutes { changes.append("with sessions of \(minutes) minutes") }
                rewrite[index] = OptionLayout.Slot(
                    id: option["id"]?.stringValue ?? "option-\(index + 1)", kind: kindOf(option),
                    brief: (["option \(index + 1) written again"] + changes + [keepFacts]).joined(separator: ", "),
                    fallback: (index == last ? topicText : nil) ?? ownWords(of: option))
            }
        } else {
            for (number, wish) in read.wishes.enumerated() {
                let near = options.indices.first { index in
                    !free.contains(index) && rewrite[index] == nil && kinds.first { $0.id == kindOf(options[index]) }?.serves.map(wish.wants.contains) == true
                }
                guard let index = free.first ?? near ?? options.indices.last(where: { rewrite[$0] == nil }) else { break }
                free.removeAll { $0 == index }
                // The backend's own text for it: its kind's, unless an option already says
                // that, else one about what the wish is about; else the option as it was.
                let shown = Set(options.compactMap { $0["summary"]?.stringValue } + rewrite.values.map(\.fallback.summary))
                let named = wish.wants.lazy.compactMap { want in self.kinds.first { $0.serves == want } }.first { self.allowed($0, for: frame) }
                let kindText = named.map { slot(kind: $0, id: $0.id, frame: frame, by: by).fallback }.flatMap { shown.contains($0.summary) ? nil : $0 }
                let fallback = kindText ?? topic(of: wish.text, language: frame.language).flatMap { wishText(topic: $0, frame: frame) }
                    ?? ownWords(of: options[index])
                rewrite[index] = OptionLayout.Slot(
                    id: "wish-\(round)-\(number + 1)", kind: named?.id ?? "wish",
                    brief: "what you asked for: \(PromptData.fenced(.string(wish.text), pretty: false)), \(keepFacts)", fallback: fallback)
            }
        }
        // A dropped option no wish took gets a kind they have not seen.
        let present = Set(options.map(kindOf)).union(rewrite.values.map(\.kind))
        let excluded = read.dropped.union(earlierDrops)
        var candidates = (frame.wants + fill).compactMap { want in kinds.first { $0.serves == want } ?? kind(want) }
            .filter { !present.contains($0.id) && !($0.serves.map(excluded.contains) ?? false) && allowed($0, for: frame) }
        for index in free where rewrite[index] == nil {
            guard !candidates.isEmpty else { break }
            let kind = candidates.removeFirst()
            var slot = slot(kind: kind, id: kind.id, frame: frame, by: by)
            if !answering.isEmpty { slot.brief += ", answering your feedback \(answering)" }
            rewrite[index] = slot
        }
        for index in rewrite.keys { rewrite[index]?.replacing = options[index] }
        var layout = OptionLayout(
            entries: options.indices.map { rewrite[$0].map(OptionLayout.Entry.written) ?? .kept(options[$0]) },
            weeks: current["options"]?[0]?["weeks"]?.intValue ?? frame.weeks, facts: facts(frame))
        layout.leaveOut = read.leaveOut
        layout.declined = read.declined.map { "declined \(PromptData.fenced(.string($0), pretty: false))" }
            + read.ignored.map { "left unanswered \(PromptData.fenced(.string($0), pretty: false)): it asks about the model, not a goal" }
        if !read.declined.isEmpty {
            layout.note = self.feedback.declined[frame.language] ?? self.feedback.declined["en"]
        } else if layout.slots.isEmpty {
            layout.note = self.feedback.unchanged[frame.language] ?? self.feedback.unchanged["en"]
        }
        return layout
    }
}
