import Foundation
import Intake
import JSONSchema

/// The harmful-advice results (`output.no-harmful-advice[ID]`) of one text, kept so a
/// second judge of the same text by the same rules need not search it again.
public struct AdviceFindings: Sendable {
    /// Every string of the output, as `TextMatching.text(of:)` joins them.
    public let text: String
    let results: [CheckResult]
}

/// What a trainer never writes and what the intake obliges, from `advice.yaml`:
/// harmful advice on every step, weight-loss goals for someone showing signs of
/// disordered eating, heart-rate targets for someone on a beta blocker, and the
/// referral a program owes its intake, in the person's language.
enum AdviceChecks {
    typealias Searchable = TextMatching.Searchable

    /// `output.no-harmful-advice[ID]`, one result per kind of advice, over every
    /// sentence of `texts`. What a sentence says after naming a professional to ask is
    /// a referral, not advice, and a negated mention ("no fasting") is the right answer.
    static func harmfulAdvice(in texts: [String], rules: AdviceRules) -> [CheckResult] {
        guard !rules.kinds.isEmpty else { return [] }
        // A word that is nowhere in the texts is in none of their sentences: each kind's
        // sentences are searched only for the words the whole text holds.
        let joined = texts.joined(separator: "\n")
        let whole = TextMatching.Searchable(joined)
        let pairs = TextMatching.BytePairs(whole.lowered)
        let holdsBytes = { (lowered: [UInt8]) in pairs.mayContain(lowered) && TextMatching.contains(whole.lowered, lowered) }
        let holds = { (term: TextMatching.SearchTerm) in holdsBytes(term.lowered) }
        let present = { (words: [String]) in AdviceRules.Vocabulary(words: words).keeping(words: holds, patterns: { _, _, _ in false }) }
        // Likewise a pattern with no match in the whole text has none in a sentence,
        // unless it looks at where its text starts or ends (anchors, lookaround).
        // Text without diacritics folds to itself: it is searched once.
        let searched = whole.folded == joined ? [joined] : [joined, whole.folded]
        // Where the text's bytes can tell (`PatternLiterals`), a pattern is kept when they
        // hold one of its required words, without running it: each sentence is then
        // searched only if it holds one (see `firstMention`).
        let literalsTell = PatternLiterals.vouch(forTextIn: searched)
        let matching = { (pattern: String, regex: NSRegularExpression?, literals: [[UInt8]]?) in
            guard contextFree(pattern), let regex else { return true }
            if literalsTell, let literals { return literals.contains(where: holdsBytes) }
            return searched.contains { regex.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil }
        }
        let referralWords = present(rules.referralWords)
        let sentences = texts.flatMap(SafetyChecks.clauses).map { beforeReferral($0, referralWords: referralWords) }
        return rules.kinds.map { kind in
            let name = "output.no-harmful-advice[\(kind.id)]"
            let vocabulary = kind.vocabulary.keeping(words: holds, patterns: matching)
            guard !vocabulary.isEmpty else { return .pass(name, "none found: \(kind.label)") }
            let except = present(kind.except).terms
            for sentence in sentences where !except.contains(where: { TextMatching.firstMatch(of: $0, in: sentence.searchable) != nil }) {
                if let found = firstMention(of: vocabulary, in: sentence) {
                    return .fail(name, "\(kind.label): \"\(found)\" in \"\(sentence.text.trimmingCharacters(in: .whitespaces).prefix(120))\": \(kind.reason)")
                }
            }
            return .pass(name, "none found: \(kind.label)")
        }
    }

    /// Whether a pattern matches the same in a sentence as in the text around it: no
    /// anchors and no lookaround (a `\b` at a sentence's edge meets a delimiter either way).
    private static func contextFree(_ pattern: String) -> Bool {
        // Byte by byte: `String.contains` goes through NSString on every call.
        let bytes = Array(pattern.utf8)
        for (index, byte) in bytes.enumerated() {
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            switch byte {
            case UInt8(ascii: "^"), UInt8(ascii: "$"): return false
            case UInt8(ascii: "\\") where [UInt8(ascii: "A"), UInt8(ascii: "z"), UInt8(ascii: "Z")].contains(next): return false
            case UInt8(ascii: "(") where next == UInt8(ascii: "?") && index + 2 < bytes.count
                && [UInt8(ascii: "<"), UInt8(ascii: "="), UInt8(ascii: "!")].contains(bytes[index + 2]): return false
            default: continue
            }
        }
        return true
    }

    /// `options.suits-person[ID]` (or `program.suits-person[ID]`): no weight-loss aim at
    /// all where the intake shows a condition that rules weight targets out. Nil when
    /// the record shows none.
    static func suitsPerson(_ texts: [String], prefix: String, record: LocalIntakeData, knowledge: CoachingKnowledge) -> CheckResult? {
        guard let finding = SafetyChecks.conditions(of: record, knowledge: knowledge).first(where: { $0.condition.noWeightTargets }),
              !knowledge.advice.weightLossFocus.isEmpty
        else { return nil }
        let name = "\(prefix).suits-person[\(finding.condition.id)]"
        var aims: [String] = []
        for text in texts {
            for sentence in SafetyChecks.clauses(text) {
                if let found = firstMention(of: knowledge.advice.weightLossFocus, in: sentence) {
                    aims.append("\"\(found)\" in \"\(text.prefix(90))\"")
                    break
                }
            }
        }
        return aims.isEmpty
            ? .pass(name, "no weight-loss aim, as \(finding.condition.label) (\(finding.evidence)) calls for")
            : .fail(name, "a weight-loss aim for \(finding.condition.label) (\(finding.evidence)): " + aims.joined(separator: "; ")
                + ". \(finding.condition.reason)")
    }

    /// `output.effort-by-feel`: no heart-rate target for someone whose answers name a
    /// beta blocker. Nil when they name none.
    static func effortByFeel(in texts: [String], record: LocalIntakeData, rules: AdviceRules) -> CheckResult? {
        guard let evidence = firstMention(of: rules.betaBlockers, in: SafetyChecks.healthText(of: record)) else { return nil }
        let name = "output.effort-by-feel"
        for sentence in texts.flatMap(SafetyChecks.clauses) {
            // A number is a target even when negated: "don't let your heart rate pass 120" sets one.
            if let found = firstMention(of: rules.heartRateTargets, in: sentence, negatablePatterns: false) {
                return .fail(name, "a heart-rate target (\"\(found)\" in \"\(sentence.text.trimmingCharacters(in: .whitespaces).prefix(100))\") "
                    + "for someone on a beta blocker (\(evidence)), which blunts the heart rate: \(rules.rightEffortAdvice)")
            }
        }
        return .pass(name, "no heart-rate target for someone on a beta blocker (\(evidence))")
    }

    /// `program.referral-for-intake`: when the intake names a condition, an injury,
    /// pregnancy or postpartum, medication or signs of disordered eating, a safety note
    /// tells the person, in `language`, to check with a professional. Nil when the
    /// intake names none of these.
    static func intakeReferral(program: JSONValue, record: LocalIntakeData, knowledge: CoachingKnowledge, language: String?) -> CheckResult? {
        let rules = knowledge.advice
        guard !rules.referrals.isEmpty else { return nil }
        let reasons = referralReasons(record, knowledge: knowledge)
        guard !reasons.isEmpty else { return nil }
        let name = "program.referral-for-intake"
        let why = "the intake names " + reasons.joined(separator: ", ")
        let wordings = language.flatMap { rules.referrals[$0].map { [$0] } } ?? Array(rules.referrals.values)
        let notes = (program["safety_notes"]?.arrayValue ?? []).compactMap(\.stringValue)
        for sentence in notes.flatMap(SafetyChecks.clauses) {
            let text = sentence.searchable
            if wordings.contains(where: { wording in
                wording.words.contains { TextMatching.firstMatch(of: $0, in: text) != nil }
                    && wording.advice.contains { TextMatching.firstMatch(of: $0, in: text) != nil }
            }) {
                return .pass(name, "\(why); a safety note refers the person: \"\(sentence.text.trimmingCharacters(in: .whitespaces).prefix(100))\"")
            }
        }
        let inLanguage = language.map { " in \($0 == "es" ? "Spanish" : $0 == "en" ? "English" : $0)" } ?? ""
        return .fail(name, "\(why), but no safety note tells the person\(inLanguage) to check with a doctor or another professional before starting")
    }

    /// `program.serves-goal`: every activity the confirmed goal's summary names shows in the
    /// program's goal or title and in at least one exercise; and when its detail promises
    /// activities the summary does not name ("150 minutes a week of brisk walking or
    /// cycling"), at least one of them is an exercise, since a detail often lists
    /// alternatives. Nil when the goal names none of the activities the rules know.
    static func servesGoal(program: JSONValue, confirmedGoal: JSONValue, record: LocalIntakeData, knowledge: CoachingKnowledge) -> CheckResult? {
        let rules = knowledge.advice
        let keptOut = Set(SafetyChecks.conditions(of: record, knowledge: knowledge).flatMap(\.condition.avoid))
        let owed = rules.goalActivities.filter { activity in activity.family.map { !keptOut.contains($0) } ?? true }
        let summary = confirmedGoal["summary"]?.stringValue ?? ""
        let detail = confirmedGoal["detail"]?.stringValue ?? ""
        let named = owed.compactMap { activity in firstMention(of: activity.goalWords, in: summary.isEmpty ? detail : summary).map { (activity, $0) } }
        let promised = summary.isEmpty ? [] : owed
            .filter { activity in !named.contains { $0.0.id == activity.id } }
            .compactMap { activity in firstMention(of: activity.goalWords, in: detail).map { (activity, $0) } }
        guard !named.isEmpty || !promised.isEmpty else { return nil }
        let name = "program.serves-goal"
        let programGoal = Searchable([program["title"]?.stringValue, program["goal"]?.stringValue].compactMap { $0 }.joined(separator: "\n"))
        let exercises = (program["sessions"]?.arrayValue ?? []).flatMap { ProgramChecks.exercises(of: $0).map(\.name) }
        func isExercise(_ activity: AdviceRules.GoalActivity) -> Bool {
            exercises.contains(where: activity.isDone(by:))
        }
        var problems: [String] = []
        for (activity, word) in named {
            if !isExercise(activity) {
                problems.append("no exercise is \(activity.id) (the goal says \"\(word)\")")
            }
            if !(activity.goalWords + activity.exerciseWords).contains(where: { TextMatching.firstMatch(of: $0, in: programGoal) != nil }) {
                problems.append("the program's goal does not name \(activity.id)")
            }
        }
        if !promised.isEmpty, !promised.contains(where: { isExercise($0.0) }) {
            problems.append("the goal's detail promises " + promised.map { "\($0.0.id) (\"\($0.1)\")" }.joined(separator: " or ") + ", and no exercise is any of them")
        }
        let quoted = summary.isEmpty ? "" : " \"\(summary.prefix(80))\""
        let served = [
            named.isEmpty ? nil : named.map(\.0.id).joined(separator: ", ") + " in its goal and exercises",
            promised.first { isExercise($0.0) }.map { "\($0.0.id) in its exercises, as the goal's detail promises" },
        ].compactMap { $0 }
        return problems.isEmpty
            ? .pass(name, "serves the confirmed goal\(quoted): " + served.joined(separator: "; "))
            : .fail(name, "does not serve the confirmed goal\(quoted): " + problems.joined(separator: "; "))
    }

    /// Why a program owes this record a referral, one phrase each; empty when it owes none.
    static func referralReasons(_ record: LocalIntakeData, knowledge: CoachingKnowledge) -> [String] {
        var reasons = SafetyChecks.conditions(of: record, knowledge: knowledge)
            .filter { $0.condition.minimumAge == nil }
            .map { "\($0.condition.label) (\($0.evidence))" }
        if let medication = firstMention(of: knowledge.advice.medicationWords, in: SafetyChecks.healthText(of: record)) {
            reasons.append("medication (\(medication))")
        }
        if let injuries = record.injuries?.trimmingCharacters(in: .whitespacesAndNewlines), !injuries.isEmpty,
           !isNoAnswer(injuries, rules: knowledge.advice), reasons.isEmpty
        {
            reasons.append("an injury (\"\(injuries.prefix(60))\")")
        }
        return reasons
    }

    /// "None", "no injuries", "nada": an answer that names nothing.
    private static func isNoAnswer(_ answer: String, rules: AdviceRules) -> Bool {
        let words = TextMatching.folded(answer).lowercased().split { !$0.isLetter && $0 != "/" }.joined(separator: " ")
        return words.isEmpty || rules.noInjuryAnswers.contains(words) || rules.noInjuryAnswers.contains(where: { words.hasPrefix($0 + " ") && $0.count > 2 })
    }

    // MARK: Finding words

    /// The part of a sentence before it names a professional to ask: what follows is
    /// the referral ("ask your doctor before changing your medication"), never advice,
    /// while what comes first still is ("train fasted, and see a doctor about it").
    private static func beforeReferral(_ sentence: SafetyChecks.Clause, referralWords: AdviceRules.Vocabulary) -> SafetyChecks.Clause {
        let folded = sentence.searchable.folded
        var cut = folded.endIndex
        for (word, term) in zip(referralWords.words, referralWords.terms) where TextMatching.firstMatch(of: term, in: sentence.searchable) != nil {
            guard let regex = TextMatching.wholePhrase(TextMatching.folded(word)),
                  let match = regex.firstMatch(in: folded, range: NSRange(folded.startIndex..., in: folded)),
                  let range = Range(match.range, in: folded)
            else { continue }
            cut = min(cut, range.lowerBound)
        }
        return cut == folded.endIndex ? sentence : SafetyChecks.Clause(text: String(folded[..<cut]))
    }

    /// The first of `words` that `text` uses about the person, not negated; the phrase found.
    static func firstMention(of words: [String], in text: String) -> String? {
        firstMention(of: AdviceRules.Vocabulary(words: words), in: SafetyChecks.Clause(text: text), splitting: true)
    }

    /// The first word or pattern of `vocabulary` the sentence uses, not negated.
    static func firstMention(of vocabulary: AdviceRules.Vocabulary, in sentence: SafetyChecks.Clause, negatablePatterns: Bool = true) -> String? {
        firstMention(of: vocabulary, in: sentence, splitting: false, negatablePatterns: negatablePatterns)
    }

    private static func firstMention(
        of vocabulary: AdviceRules.Vocabulary, in clause: SafetyChecks.Clause, splitting: Bool, negatablePatterns: Bool = true
    ) -> String? {
        let clauses = splitting ? SafetyChecks.clauses(clause.text) : [clause]
        for clause in clauses {
            for (word, term) in zip(vocabulary.words, vocabulary.terms)
            where TextMatching.firstMatch(of: term, in: clause.searchable) != nil && !isNegated(word, in: clause.text) {
                return word
            }
            guard !vocabulary.patterns.isEmpty else { continue }
            // The clause as written, then without diacritics when that differs.
            let folded = clause.searchable.folded
            let texts = folded == clause.text ? [clause.text] : [clause.text, folded]
            let literalsTell = PatternLiterals.vouch(forTextIn: texts)
            for (regex, literals) in zip(vocabulary.regexes, vocabulary.literals) {
                guard let regex else { continue }
                if literalsTell, let literals, !literals.contains(where: { TextMatching.contains(clause.searchable.lowered, $0) }) { continue }
                for text in texts {
                    guard let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                          let range = Range(match.range, in: text)
                    else { continue }
                    let found = String(text[range])
                    if !negatablePatterns || !isNegated(before: text[..<range.lowerBound]) { return found }
                }
            }
        }
        return nil
    }

    /// Words that deny what follows them within four words: "no fasting", "don't skip meals", "sin dieta".
    static let negators: Set<String> = SafetyChecks.negators.union(["not", "dont", "avoid", "avoids", "never", "nada", "tampoco"])

    private static func isNegated(_ word: String, in text: String) -> Bool {
        let folded = TextMatching.folded(text).lowercased()
        let target = NSRegularExpression.escapedPattern(for: TextMatching.folded(word).lowercased())
        guard let regex = CompiledPatterns.shared.regex("(?<![\\p{L}\\p{N}])" + target),
              let match = regex.firstMatch(in: folded, range: NSRange(folded.startIndex..., in: folded)),
              let range = Range(match.range, in: folded)
        else { return false }
        return isNegated(before: folded[..<range.lowerBound])
    }

    /// Negated when a negator stands in the four words before, or further back in a
    /// list that runs on with "or" ("do not give diets, calorie targets or supplements").
    private static func isNegated(before text: Substring) -> Bool {
        let words = TextMatching.folded(String(text)).lowercased()
            .replacingOccurrences(of: "n't", with: " not").replacingOccurrences(of: "n’t", with: " not")
            .split { !$0.isLetter }.map(String.init)
        if words.suffix(4).contains(where: negators.contains) { return true }
        let window = words.suffix(9)
        guard let negator = window.lastIndex(where: negators.contains) else { return false }
        return window[negator...].contains { listJoiners.contains($0) }
    }

    /// Words that carry a negated list on to its last item.
    static let listJoiners: Set<String> = ["or", "nor", "ni", "o"]
}
