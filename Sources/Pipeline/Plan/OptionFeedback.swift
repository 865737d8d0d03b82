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

    /// The clauses of a feedback text. A clause is split again where one of `turns`
    /// starts a wish ("less about the weight | more about my back"): the wish keeps the
    /// turn's last word.
    static func clauses(_ text: String, turns: [String] = []) -> [String] {
        var clauses: [String] = []
        for clause in text.split(whereSeparator: { ".!?;,\n".contains($0) }).map({ $0.trimmingCharacters(in: .whitespaces) }) where !clause.isEmpty {
            var rest = clause
            while let turn = turns.compactMap({ turn in rest.range(of: " \(turn) ", options: [.caseInsensitive, .diacriticInsensitive]) }).min(by: { $0.lowerBound < $1.lowerBound }) {
                let words = rest[turn].split(separator: " ")
                clauses.append(String(rest[..<turn.lowerBound]))
                rest = (words.count > 1 ? String(words.last!) + " " : "") + rest[turn.upperBound...]
            }
            clauses.append(rest)
        }
        return clauses
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
    /// What a trainer leaves to another professional ("the eating side"): declined.
    var referred: [String] = []
    var focuses: [Focus] = []
    /// The sentence for a wish an option already answers, with `{summary}`, by language.
    var already: [String: String] = [:]
    /// The sentence when what they ask to leave out is in no option, by language.
    var noneAbout: [String: String] = [:]
    /// Words that turn a clause from what to leave out to a wish.
    var turns: [String] = []

    /// What a wish is often about, with the backend's own text for it (`focuses`).
    struct Focus: Sendable, Hashable {
        var id: String
        var words: [String]
        /// Condition ids it is never offered for.
        var neverFor: [String]
        /// By language code.
        var text: [String: GoalKindRules.Text]
        /// The text for someone with a condition, by condition id, then language.
        var forConditions: [String: [String: GoalKindRules.Text]] = [:]
    }
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

    /// The first focus `text` names.
    func focus(namedIn text: String) -> OptionFeedbackRules.Focus? {
        feedback.focuses.first { $0.words.contains { TextMatching.mentions($0, in: text) } }
    }

    func mentionsAny(_ cues: [String], in text: String) -> Bool { cues.contains { TextMatching.mentions($0, in: text) } }

    /// The backend's own text for what `wish` is about (`focuses`): the first focus its
    /// words name that suits the person, in their language, for their condition when it has one.
    func focusText(of wish: String, frame: GoalFrame, by: String) -> Text? {
        guard let focus = feedback.focuses.first(where: { focus in
            focus.words.contains { TextMatching.mentions($0, in: wish) } && !focus.neverFor.contains(where: frame.conditionIDs.contains)
        }) else { return nil }
        let texts = frame.conditionIDs.lazy.compactMap { focus.forConditions[$0] }.first ?? focus.text
        guard let text = texts[frame.language] ?? texts["en"] else { return nil }
        // `{lift}`: the lift the wish names, else their main lift.
        let lift = ["bench", "squat", "deadlift", "overhead press", "pull-up"].first { TextMatching.mentions($0, in: wish) } ?? "main lift"
        func filled(_ template: String) -> String { fill(template.replacingOccurrences(of: "{lift}", with: lift), frame: frame, by: by) }
        return Text(summary: filled(text.summary), detail: filled(text.detail))
    }

    /// Whether `summary` says what one of `shown` says: most of its words are theirs.
    static func says(_ summary: String, anyOf shown: [String]) -> Bool {
        let words = TextMatching.words(summary)
        return shown.contains { TextMatching.similarity(words, TextMatching.words($0)) > 0.6 }
    }

    /// An option's own words, to stand in when the model's cannot be shown; with
    /// `movingDate`, its old date phrase (" in 48 weeks") becomes the new (" by September").
    private func ownWords(of option: JSONValue, movingDate: (from: String, to: String)? = nil) -> Text {
        func moved(_ text: String) -> String {
            guard let movingDate, !movingDate.from.isEmpty else { return text }
            return text.replacingOccurrences(of: movingDate.from, with: movingDate.to)
        }
        return Text(summary: moved(option["summary"]?.stringValue ?? ""), detail: moved(option["detail"]?.stringValue ?? ""))
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
        var before: String?
        for var clause in OptionFeedback.clauses(feedback, turns: rules.turns) {
            defer { before = clause }
            // "Can they be more about that?" is about the clause before it.
            if let before, mentionsAny(rules.wishes, in: clause), wants(namedIn: clause).isEmpty, focus(namedIn: clause) == nil,
               rules.topicPointers.contains(where: { TextMatching.mentions($0, in: clause) }), !mentionsAny(rules.wishes, in: before) {
                clause = before + " " + clause
            }
            let named = wants(namedIn: clause)
            func has(_ cues: [String]) -> Bool { cues.contains { TextMatching.mentions($0, in: clause) } }
            if has(rules.ignored) {
                read.ignored.append(clause)
                continue
            }
            let harmful = Guardrails.asksForHarm(clause, knowledge: knowledge)
            let referred = has(rules.wishes) && has(rules.referred)
            if harmful || referred || (frame.noWeightLoss != nil && named.contains("weight-loss") && !has(rules.drop)) {
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
                // "Give me something to chase, a time goal maybe?" is one wish said twice,
                // unless the second says more ("quicker off the line").
                if !named.isEmpty, focus(namedIn: clause) == nil, read.wishes.contains(where: { !Set($0.wants).isDisjoint(with: named) }) { continue }
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
        var read = self.read(feedback, frame: frame, knowledge: knowledge)
        var alreadyAnswered: [String] = []
        // A date the options already carry ("para diciembre", again) moves nothing.
        if let asked = read.by, asked == self.by(frame),
           let summary = options.lazy.compactMap({ $0["summary"]?.stringValue }).first(where: { $0.contains(asked.trimmingCharacters(in: .whitespaces)) }) {
            read.by = nil
            alreadyAnswered.append(summary)
        }
        let earlierDrops = earlier.reduce(into: Set<String>()) { $0.formUnion(self.read($1, frame: frame, knowledge: knowledge).dropped) }
        var frame = frame
        if let minutes = read.minutes { frame.minutes = minutes }
        let by = read.by ?? self.by(frame)
        let kindOf = { (option: JSONValue) in option["kind"]?.stringValue ?? "" }
        func text(_ option: JSONValue) -> String { [option["summary"]?.stringValue, option["detail"]?.stringValue].compactMap { $0 }.joined(separator: " ") }

        var rewrite: [Int: OptionLayout.Slot] = [:]
        var curated: [Int: JSONValue] = [:]
        let everything = read.by != nil || read.minutes != nil || read.wishes.contains(where: \.wholeSet)
            || (read.wishes.isEmpty && read.dropped.isEmpty && read.declined.isEmpty && read.ignored.isEmpty && alreadyAnswered.isEmpty)
        let keepFacts = "still fitting your answers"
        // What the rewritten options answer: the clauses that ask for something, else
        // (when no clause could be read) the whole feedback.
        let readable = !read.wishes.isEmpty || read.by != nil || read.minutes != nil || !read.dropped.isEmpty
        let answering = !read.wishes.isEmpty ? read.wishes.map { PromptData.fenced(.string($0.text), pretty: false) }.joined(separator: " and ")
            : readable ? "" : PromptData.fenced(.string(feedback), pretty: false)
        // Options about what they asked to leave out are the first to go.
        // An option of a kind goes by what its kind serves; one written for a wish by what it names.
        var free = options.indices.filter { index in
            guard let served = kinds.first(where: { $0.id == kindOf(options[index]) })?.serves else {
                return !wants(namedIn: text(options[index])).filter(read.dropped.contains).isEmpty
            }
            return read.dropped.contains(served)
        }
        /// Wants the kind of the option at `index` serves or covers.
        func wantsServed(at index: Int) -> [String] {
            kinds.first { $0.id == kindOf(options[index]) }.map { [$0.serves].compactMap { $0 } + $0.covers } ?? []
        }
        /// Whether options they keep serve every one of `wants` (and there is one).
        func keptOptionsServe(_ wants: [String]) -> Bool {
            !wants.isEmpty && wants.allSatisfy { want in options.indices.contains { !free.contains($0) && wantsServed(at: $0).contains(want) } }
        }
        let oldBy = self.by(frame)
        if everything {
            // When the model's words cannot be shown, the last option rewritten still answers the
            // wish: the first are the person's own wants, in their order.
            let shown = options.compactMap { $0["summary"]?.stringValue }
            let focusText = read.wishes.lazy.compactMap { self.focusText(of: $0.text, frame: frame, by: by) }.first { !Self.says($0.summary, anyOf: shown) }
            let topicFromFocus = focusText != nil
            // A wish the options they keep already serve ("more about my blood sugar", beside
            // "Bring your blood sugar down") gets no text of its own.
            let unserved = read.wishes.filter { !keptOptionsServe($0.wants) }
            let topicText = focusText
                ?? unserved.lazy.compactMap { self.topic(of: $0.text, language: frame.language) }.first
                .flatMap { wishText(topic: $0, frame: frame) }
            // It takes the place of an option they asked to leave out, else of the last one
            // that is not about their health: a health option stays unless they ask.
            let last = options.indices.last { !free.contains($0) && kindOf(options[$0]) != "health" } ?? options.indices.last { !free.contains($0) }
            if let topicText, let index = free.first {
                free.removeFirst()
                rewrite[index] = OptionLayout.Slot(
                    id: "wish-\(round)-1", kind: "wish",
                    brief: "what you asked for: \(answering), \(keepFacts)", fallback: topicText,
                    mentions: read.wishes.lazy.compactMap { self.focus(namedIn: $0.text)?.words }.first ?? [], curated: topicFromFocus)
            }
            for (index, option) in options.enumerated() where !free.contains(index) && rewrite[index] == nil {
                // A new date or session length: the kind's own text, with them.
                let kindText = read.by == nil && read.minutes == nil || option["id"]?.stringValue != kindOf(option) ? nil
                    : kinds.first { $0.id == kindOf(option) }.map { slot(kind: $0, id: $0.id, frame: frame, by: by).fallback }
                var changes: [String] = []
                if !answering.isEmpty { changes.append("answering your feedback \(answering)") }
                if let moved = read.by { changes.append("now\(moved)") }
                if let minutes = read.minutes { changes.append("with sessions of \(minutes) minutes") }
                rewrite[index] = OptionLayout.Slot(
                    id: option["id"]?.stringValue ?? "option-\(index + 1)", kind: kindOf(option),
                    brief: (["option \(index + 1) written again"] + changes + [keepFacts]).joined(separator: ", "),
                    fallback: (index == last && !rewrite.values.contains { $0.kind == "wish" } ? topicText : nil) ?? kindText
                        ?? ownWords(of: option, movingDate: read.by.map { (oldBy, $0) }))
            }
        } else {
            for (number, wish) in read.wishes.enumerated() {
                let serving = { (index: Int) in !Set(wantsServed(at: index)).isDisjoint(with: wish.wants) }
                let near = options.indices.first { !free.contains($0) && rewrite[$0] == nil && serving($0) }
                let shown = options.compactMap { $0["summary"]?.stringValue } + rewrite.values.map(\.fallback.summary)
                let focus = focusText(of: wish.text, frame: frame, by: by).flatMap { Self.says($0.summary, anyOf: shown) ? nil : $0 }
                // A wish an option they keep already answers, with nothing more to it, changes nothing.
                if focus == nil, keptOptionsServe(wish.wants), let answering = options.indices.first(where: { !free.contains($0) && serving($0) }) {
                    alreadyAnswered.append(options[answering]["summary"]?.stringValue ?? "")
                    continue
                }
                // A wish with nothing to hold on to (no want, focus or topic: "I want to look
                // good on the beach") rewrites nothing; the note says the options stay.
                if focus == nil, wish.wants.isEmpty, topic(of: wish.text, language: frame.language) == nil { continue }
                // An option about their health stays unless they ask about it.
                let lastOther = options.indices.last { rewrite[$0] == nil && kindOf(options[$0]) != "health" } ?? options.indices.last { rewrite[$0] == nil }
                // What a wish adds beside an option with their own target ("sub-2 hour") takes another's place.
                let nearTargeted = near.map { index in
                    kinds.first { $0.id == kindOf(options[index]) }?.serves.map { frame.targets[$0] != nil || ["event", "time"].contains($0) } ?? false
                } ?? false
                guard let index = free.first ?? (nearTargeted && focus != nil ? nil : near) ?? lastOther else { break }
                free.removeAll { $0 == index }
                // The backend's own text for it: what it is about, else its kind's, unless an
                // option already says that, else one naming the wish; else the option as it was.
                let named = wish.wants.lazy.compactMap { want in self.kinds.first { $0.serves == want } }.first { self.allowed($0, for: frame) }
                let kindText = named.map { slot(kind: $0, id: $0.id, frame: frame, by: by).fallback }.flatMap { Self.says($0.summary, anyOf: shown) ? nil : $0 }
                let fallback = focus ?? kindText ?? topic(of: wish.text, language: frame.language).flatMap { wishText(topic: $0, frame: frame) }
                    ?? ownWords(of: options[index])
                // The model's words must name what the wish is about, or the backend's stand in.
                let about = focus != nil ? self.focus(namedIn: wish.text)?.words ?? [] : wish.wants.flatMap { words(of: $0) + (self.feedback.topics[$0] ?? []) }
                rewrite[index] = OptionLayout.Slot(
                    id: "wish-\(round)-\(number + 1)", kind: named?.id ?? "wish",
                    brief: "what you asked for: \(PromptData.fenced(.string(wish.text), pretty: false)), \(keepFacts)", fallback: fallback,
                    mentions: about, curated: focus != nil)
            }
        }
        // A dropped option no wish took gets a kind they have not seen.
        let present = Set(options.map(kindOf)).union(rewrite.values.map(\.kind))
        let excluded = read.dropped.union(earlierDrops)
        var candidates = (frame.wants + fill).compactMap { want in kinds.first { $0.serves == want } ?? kind(want) }
            .filter { !present.contains($0.id) && !($0.serves.map(excluded.contains) ?? false) && allowed($0, for: frame) }
        // Nor one an option they keep covers ("gain muscle" beside "lose up to 26 pounds").
        let keptCovers = Set(options.indices.filter { !free.contains($0) }.flatMap { index in kinds.first { $0.id == kindOf(options[index]) }?.covers ?? [] })
        candidates.removeAll { $0.serves.map(keptCovers.contains) ?? false }
        for index in free where rewrite[index] == nil {
            guard !candidates.isEmpty else { break }
            let kind = candidates.removeFirst()
            var slot = slot(kind: kind, id: kind.id, frame: frame, by: by)
            if !answering.isEmpty { slot.brief += ", answering your feedback \(answering)" }
            rewrite[index] = slot
        }
        for index in rewrite.keys { rewrite[index]?.replacing = options[index] }
        // An option with reviewed text for exactly what was asked is the backend's to write.
        let weeks = current["options"]?[0]?["weeks"]?.intValue ?? frame.weeks
        var answered: [String] = []
        for (index, slot) in rewrite where slot.curated {
            var option = JSONObject()
            option["id"] = .string(slot.id)
            option["summary"] = .string(slot.fallback.summary)
            option["detail"] = .string(slot.fallback.detail)
            option["kind"] = .string(slot.kind)
            if let weeks { option["weeks"] = .number(Double(weeks)) }
            curated[index] = .object(option)
            answered.append("option \(slot.id) is the backend's own text for what the feedback asks: \"\(slot.fallback.summary)\"")
        }
        var layout = grounded(OptionLayout(
            entries: options.indices.map { index in
                curated[index].map(OptionLayout.Entry.kept) ?? rewrite[index].map(OptionLayout.Entry.written) ?? .kept(options[index])
            },
            weeks: weeks, facts: facts(frame)), frame: frame, feedback: feedback)
        layout.answered = answered.sorted()
        layout.leaveOut = read.leaveOut
        layout.declined = read.declined.map { "declined \(PromptData.fenced(.string($0), pretty: false))" }
            + read.ignored.map { "left unanswered \(PromptData.fenced(.string($0), pretty: false)): it asks about the model, not a goal" }
        if !read.declined.isEmpty {
            layout.note = self.feedback.declined[frame.language] ?? self.feedback.declined["en"]
        } else if layout.slots.isEmpty, layout.answered.isEmpty, let summary = alreadyAnswered.first,
                  let already = self.feedback.already[frame.language] ?? self.feedback.already["en"] {
            layout.note = already.replacingOccurrences(of: "{summary}", with: summary)
        } else if layout.slots.isEmpty, layout.answered.isEmpty, !read.dropped.isEmpty, read.wishes.isEmpty,
                  let noneAbout = self.feedback.noneAbout[frame.language] ?? self.feedback.noneAbout["en"] {
            layout.note = noneAbout
        } else if layout.slots.isEmpty, layout.answered.isEmpty {
            layout.note = self.feedback.unchanged[frame.language] ?? self.feedback.unchanged["en"]
        }
        return layout
    }
}
