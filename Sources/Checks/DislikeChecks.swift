import Foundation
import Intake
import JSONSchema

/// What the person said they do not want to do ("Not into running", "Push-ups,
/// heavens no") kept out of their goal options and program: one result per dislike,
/// `program.respects-dislikes[running]`. How people say it is data (`dislikes.yaml`).
enum DislikeChecks {
    /// One thing the person does not want to do.
    struct Dislike {
        /// The family id for a whole activity, else the words themselves: the check's item name.
        var id: String
        /// Set when the person named a whole activity ("running").
        var family: CoachingKnowledge.Family?
        /// The words they used, singular ("push-up"), when they named something narrower.
        var words: String
        /// The sentence that said it.
        var evidence: String
    }

    /// The intake's answers about how the person likes to move, where dislikes are said.
    static func movementText(of record: LocalIntakeData) -> String {
        [record.movementPrefs, record.physicalBaseline, record.currentRoutine, record.pastAttempts, record.injuries, record.mobility,
         record.coachingStyle, record.anythingElse].compactMap { $0 }.joined(separator: "\n")
    }

    /// The dislikes `record` states, except those its own goal asks for. Every step of
    /// a fixture asks about the same record, so the answer is kept.
    static func dislikes(of record: LocalIntakeData, knowledge: CoachingKnowledge) -> [Dislike] {
        let text = movementText(of: record)
        let goal = record.goals ?? ""
        return found.value(for: "\(knowledge.identity)\u{0}\(goal)\u{0}\(text)") {
            let goalItems = SafetyChecks.clauses(goal).map { SafetyChecks.Item(name: $0.text, kind: .sentence, knowledge: knowledge) }
            return findDislikes(in: text, wording: knowledge.dislikeWording, knowledge: knowledge).filter { dislike in
                !goalItems.contains { matches($0, dislike) }
            }
        }
    }

    private static let found = SharedCache<String, [Dislike]>()

    /// The program's exercises, sessions and warm-ups, against each dislike.
    static func check(program: JSONValue, record: LocalIntakeData, knowledge: CoachingKnowledge) -> [CheckResult] {
        let dislikes = dislikes(of: record, knowledge: knowledge)
        guard !dislikes.isEmpty else { return [] }
        let items = anyMentioned(dislikes, in: TextMatching.text(of: program)) ? SafetyChecks.prescribedItems(of: program, knowledge: knowledge) : []
        return verdicts(dislikes, items: items, prefix: "program")
    }

    /// Each option's summary and detail, sentence by sentence, against each dislike.
    static func check(options texts: [String], record: LocalIntakeData, knowledge: CoachingKnowledge) -> [CheckResult] {
        let dislikes = dislikes(of: record, knowledge: knowledge)
        guard !dislikes.isEmpty else { return [] }
        guard anyMentioned(dislikes, in: texts.joined(separator: "\n")) else { return verdicts(dislikes, items: [], prefix: "options") }
        let items = texts.flatMap(SafetyChecks.clauses).map {
            SafetyChecks.Item(name: $0.text.trimmingCharacters(in: .whitespaces), kind: .sentence, knowledge: knowledge)
        }
        return verdicts(dislikes, items: items, prefix: "options")
    }

    private static func verdicts(_ dislikes: [Dislike], items: [SafetyChecks.Item], prefix: String) -> [CheckResult] {
        dislikes.map { dislike in
            let name = "\(prefix).respects-dislikes[\(dislike.id)]"
            let said = "they said \"\(dislike.evidence)\""
            let hits = items.filter { matches($0, dislike) }.map { "\"\($0.name.prefix(80))\"" }
            guard !hits.isEmpty else { return .pass(name, "no \(dislike.family?.label ?? "\"\(dislike.words)\"") (\(said))") }
            let unique = Array(Set(hits)).sorted()
            let what = (unique.count == 1 ? "is " : "are ") + (dislike.family?.label ?? "\"\(dislike.words)\"")
            return .fail(name, "\(unique.joined(separator: ", ")) \(what); \(said)")
        }
    }

    /// Whether `text` holds any dislike's words at all: most outputs do not, and are
    /// judged without reading them sentence by sentence.
    private static func anyMentioned(_ dislikes: [Dislike], in text: String) -> Bool {
        let searchable = TextMatching.Searchable(text)
        return dislikes.contains { dislike in
            if let family = dislike.family { return family.wordTerms.contains { searchable.contains($0) } }
            return searchable.contains(SearchTerms.shared.term(dislike.words))
        }
    }

    /// Whether `item` does what is disliked, not negated ("no running").
    static func matches(_ item: SafetyChecks.Item, _ dislike: Dislike) -> Bool {
        if let family = dislike.family { return SafetyChecks.belongs(item, to: family) }
        return SafetyChecks.mentions(dislike.words, in: item.clause)
    }

    // MARK: Reading what the person said

    /// What an edit's `feedback` asks to take out or dislikes ("swap out the kettlebell swings").
    static func requests(in feedback: String, knowledge: CoachingKnowledge) -> [Dislike] {
        findDislikes(in: feedback, wording: knowledge.dislikeWording.forRequests, knowledge: knowledge)
    }

    private static func findDislikes(in text: String, wording: CoachingKnowledge.DislikeWording, knowledge: CoachingKnowledge) -> [Dislike] {
        var dislikes: [Dislike] = []
        var seen = Set<String>()
        for clause in SafetyChecks.clauses(text) {
            let sentence = TextMatching.folded(clause.text).lowercased()
            var phrases: [String] = []
            for cue in wording.before {
                if let range = wholeWords(cue, in: sentence) { phrases.append(String(sentence[range.upperBound...])) }
            }
            for cue in wording.after {
                if let range = wholeWords(cue, in: sentence) { phrases.append(String(sentence[..<range.lowerBound])) }
            }
            for phrase in phrases {
                for item in items(of: phrase, wording: wording) {
                    guard let dislike = dislike(item, evidence: clause.text, knowledge: knowledge), seen.insert(dislike.id).inserted else { continue }
                    dislikes.append(dislike)
                }
            }
        }
        return dislikes
    }

    /// The items of a phrase: split at commas and conjunctions, each cut where a
    /// reason starts and without filler words.
    private static func items(of phrase: String, wording: CoachingKnowledge.DislikeWording) -> [String] {
        let separators = CompiledPatterns.shared.regex(#"\s*(?:[,/&:]|\b(?:and|or|nor|y|ni|o)\b)\s*"#)
        let marked = separators.map { $0.stringByReplacingMatches(in: phrase, range: NSRange(phrase.startIndex..., in: phrase), withTemplate: "|") } ?? phrase
        var items: [String] = []
        var reasonStarted = false
        for part in marked.split(separator: "|") where !reasonStarted {
            var words: [String] = []
            let quotes = CharacterSet(charactersIn: "'’-")
            for word in part.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "'") }).map({ $0.trimmingCharacters(in: quotes) }) where !word.isEmpty {
                if wording.reasons.contains(word) {
                    reasonStarted = true
                    break
                }
                if !wording.fillers.contains(word) { words.append(word) }
            }
            if !words.isEmpty { items.append(words.joined(separator: " ")) }
        }
        return items
    }

    /// A whole activity when `item` is one of its words, else the words themselves, singular.
    private static func dislike(_ item: String, evidence: String, knowledge: CoachingKnowledge) -> Dislike? {
        let evidence = evidence.trimmingCharacters(in: .whitespaces)
        for (id, words) in knowledge.dislikeWording.activities where words.contains(item) {
            if let family = knowledge.families[id] { return Dislike(id: id, family: family, words: item, evidence: evidence) }
        }
        var words = item.split(separator: " ").map(String.init)
        guard let last = words.last, item.count >= 3 else { return nil }
        if last.count > 3, last.hasSuffix("s"), !last.hasSuffix("ss") { words[words.count - 1] = String(last.dropLast()) }
        let singular = words.joined(separator: " ")
        return Dislike(id: singular, family: nil, words: singular, evidence: evidence)
    }

    private static func wholeWords(_ phrase: String, in text: String) -> Range<String.Index>? {
        guard let regex = TextMatching.wholePhrase(phrase),
              let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))
        else { return nil }
        return Range(match.range, in: text)
    }
}
