import Foundation
import Intake
import JSONSchema

/// A program edit does what the person's feedback asks and keeps the rest: it takes
/// out what the feedback names, adds only where the feedback asks for something new,
/// reshapes the week only when the feedback asks for a week the draft does not have
/// already, and leaves the cues of what it kept as a coach wrote them.
enum EditFidelityChecks {
    /// `edit.only-what-was-asked` and `edit.cues-kept`, and `edit.says-it-was-not-there`
    /// when the feedback names only what the draft never held; nothing without rules.
    static func check(before: JSONValue, after: JSONValue, feedback: String, knowledge: CoachingKnowledge) -> [CheckResult] {
        guard let rules = knowledge.advice.editFidelity,
              let old = before["program_json"], let new = after["program_json"] else { return [] }
        let request = Request(feedback, rules: rules, knowledge: knowledge)
        var results = [onlyWhatWasAsked(old, new, request: request, knowledge: knowledge), cuesKept(old, new, request: request, rules: rules)]
        if let absent = neverHeld(old, request: request, knowledge: knowledge) {
            results.append(saysItWasNotThere(after, absent: absent, rules: rules))
        }
        return results
    }

    /// The movements the feedback asks to take out that the draft never held, by label:
    /// nil unless it names a movement, asks for nothing new, and no exercise of the
    /// draft belongs to one it names ("take out anything jumpy", with no jump in the
    /// program). Only the movement counts here, not the feedback's other words: "a
    /// second floor apartment" names no floor press.
    static func neverHeld(_ old: JSONValue, request: Request, knowledge: CoachingKnowledge) -> String? {
        guard !request.families.isEmpty, !request.asksToAdd, !request.namesStructure,
              request.days == nil, request.minutes == nil else { return nil }
        let held = sessions(old).joined().contains { exercise in
            let item = SafetyChecks.Item(name: exercise, kind: .exercise, knowledge: knowledge)
            return request.families.contains { SafetyChecks.belongs(item, to: $0) }
        }
        guard !held else { return nil }
        return request.families.map(\.label).joined(separator: ", ")
    }

    /// The feedback's movements the draft never held, by label, or nil: what an
    /// unchanged edit rightly leaves alone.
    static func neverHeld(before: JSONValue, feedback: String, knowledge: CoachingKnowledge) -> String? {
        guard let rules = knowledge.advice.editFidelity, let old = before["program_json"] else { return nil }
        return neverHeld(old, request: Request(feedback, rules: rules, knowledge: knowledge), knowledge: knowledge)
    }

    /// `edit.says-it-was-not-there`: asked to take out what the draft never held, the
    /// edit's account tells the person so, rather than claiming a change.
    static func saysItWasNotThere(_ after: JSONValue, absent: String, rules: AdviceRules.EditFidelityRules) -> CheckResult {
        let name = "edit.says-it-was-not-there"
        guard let account = after["change"]?.stringValue, !account.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            return .fail(name, "the program never held what the feedback names (\(absent)), and the edit gives no account that says so")
        }
        let searchable = TextMatching.Searchable(account)
        if let said = rules.absentWords.lazy.compactMap({ TextMatching.firstMatch(of: $0, in: searchable) }).first {
            return .pass(name, "the account says the program never held it (\"\(said)\")")
        }
        return .fail(name, "the program never held what the feedback names (\(absent)), and the account (\"\(account.prefix(120))\") does not say so")
    }

    /// More changes than this that the feedback does not ask for fail the check: one
    /// is left to a reading of the feedback these rules cannot make.
    static let toleratedUnaskedChanges = 1

    /// What the feedback asks for, as far as words can tell.
    struct Request {
        let text: String
        /// Movement families it names ("anything jumpy": jumps).
        let families: [CoachingKnowledge.Family]
        /// The stems of its words, and of each pair of them written apart ("tread mill").
        let stems: Set<String>
        /// Equipment it names ("the treadmill").
        let equipment: Set<Equipment>
        /// It asks for something new: an exercise in place of another, or more of something.
        let asksToAdd: Bool
        /// It names the week's shape: a weekday, a rest day, a split, a week by number.
        let namesStructure: Bool
        /// The days a week it asks for ("only 3 days a week"), and the minutes ("30 minutes").
        let days: Int?
        let minutes: Int?
        /// It asks about how exercises are done ("how to breathe").
        let asksAboutCues: Bool

        init(_ text: String, rules: AdviceRules.EditFidelityRules, knowledge: CoachingKnowledge) {
            self.text = text
            let clause = SafetyChecks.movementsOnly(text, knowledge: knowledge)
            let words = EditFidelityChecks.words(text)
            families = knowledge.families.values.sorted { $0.id < $1.id }.filter { family in
                family.wordTerms.contains { TextMatching.firstMatch(of: $0, in: clause.searchable) != nil }
                    // "jumpy" names jumps: a word that begins with one of the family's single words.
                    || family.words.contains { word in word.count >= 4 && !word.contains(" ") && words.contains { $0.count > word.count && $0.hasPrefix(word) } }
            }
            stems = Set(words.map(EditFidelityChecks.stem) + zip(words, words.dropFirst()).map { EditFidelityChecks.stem($0 + $1) })
                .filter { $0.count >= 4 }
            equipment = Set(ProgramChecks.namedEquipment(in: TextMatching.Searchable(text)).map(\.item))
            let searchable = TextMatching.Searchable(text)
            let says = { (list: [String]) in list.contains { TextMatching.firstMatch(of: $0, in: searchable) != nil } }
            asksToAdd = says(rules.asksToAdd)
            asksAboutCues = says(rules.cueWords)
            namesStructure = says(rules.structureWords)
                || TextMatching.firstMatch(ofPattern: #"(?i)\b(week|weeks|semana|semanas)\s+\d+"#, in: text) != nil
            days = EditFidelityChecks.daysAsked(words)
            minutes = knowledge.advice.sessionTime.flatMap { AvailableTime.read(text, label: "the feedback", rules: $0)?.usual }
        }
    }

    /// `edit.only-what-was-asked`: every exercise the edit takes out, the feedback names
    /// (its movement, its words, or its equipment when it names no movement), unless the
    /// feedback asks for a week or a length the draft does not have yet; and it adds
    /// exercises only in their place or where the feedback asks for something new.
    static func onlyWhatWasAsked(_ old: JSONValue, _ new: JSONValue, request: Request, knowledge: CoachingKnowledge) -> CheckResult {
        let name = "edit.only-what-was-asked"
        let before = sessions(old), after = sessions(new)
        var removed: [String] = []
        var added: [String] = []
        for index in 0..<max(before.count, after.count) {
            let was = index < before.count ? before[index] : []
            let now = index < after.count ? after[index] : []
            removed += difference(was, now)
            added += difference(now, was)
        }
        guard !removed.isEmpty || !added.isEmpty else { return .pass(name, "no exercise changed") }
        let draftDays = old["days_per_week"]?.intValue ?? before.count
        let draftMinutes = (old["sessions"]?.arrayValue ?? []).compactMap { $0["minutes"]?.intValue }.max() ?? old["session_minutes"]?.intValue
        let reshapes = request.namesStructure
            || request.days.map { $0 < draftDays } == true
            || request.minutes.flatMap { asked in draftMinutes.map { asked < $0 } } == true
        let unaskedRemovals = reshapes ? [] : removed.filter { !named($0, by: request, knowledge: knowledge) }
        let replacements = removed.count - unaskedRemovals.count
        let unaskedAdditions = request.asksToAdd || reshapes ? [] : Array(added.dropFirst(replacements))
        let unasked = unaskedRemovals.count + unaskedAdditions.count
        let summary = "took out \(removed.count), added \(added.count)"
        guard unasked > toleratedUnaskedChanges else {
            return .pass(name, "\(summary), as the feedback asks")
        }
        var parts: [String] = []
        if !unaskedRemovals.isEmpty { parts.append("took out " + quoted(unaskedRemovals)) }
        if !unaskedAdditions.isEmpty { parts.append("added " + quoted(unaskedAdditions)) }
        let never = request.families.isEmpty || before.joined().contains { named($0, by: request, knowledge: knowledge) }
            ? "" : " The program never held what it names (\(request.families.map(\.label).joined(separator: ", "))): the edit should say so and change nothing."
        return .fail(name, "changed what the feedback (\"\(request.text.prefix(90))\") does not ask for: " + parts.joined(separator: "; ") + "." + never)
    }

    /// `edit.cues-kept`: the edit writes no instruction in place of a cue ("Replace with
    /// dumbbell swings…"), and does not paste one new cue over many exercises unless the
    /// feedback asks about how they are done.
    static func cuesKept(_ old: JSONValue, _ new: JSONValue, request: Request, rules: AdviceRules.EditFidelityRules) -> CheckResult {
        let name = "edit.cues-kept"
        var draftNotes: [String: String] = [:]
        for session in old["sessions"]?.arrayValue ?? [] {
            for exercise in session["exercises"]?.arrayValue ?? [] {
                guard let exerciseName = exercise["name"]?.stringValue else { continue }
                draftNotes[SessionContentChecks.normalized(exerciseName)] = exercise["notes"]?.stringValue ?? ""
            }
        }
        var written: [(exercise: String, note: String)] = []
        for session in new["sessions"]?.arrayValue ?? [] {
            for exercise in session["exercises"]?.arrayValue ?? [] {
                let exerciseName = exercise["name"]?.stringValue ?? ""
                let note = (exercise["notes"]?.stringValue ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
                guard !note.isEmpty, draftNotes[SessionContentChecks.normalized(exerciseName)] != note else { continue }
                written.append((exerciseName, note))
            }
        }
        let instructions = written.filter { entry in
            let lowered = TextMatching.folded(entry.note).lowercased()
            return rules.instructionOpenings.contains { lowered == $0 || lowered.hasPrefix($0 + " ") }
        }
        if let first = instructions.first {
            return .fail(name, "\(instructions.count) cue\(instructions.count == 1 ? " is" : "s are") an instruction to the writer, not to the person: \"\(first.exercise)\": \"\(first.note.prefix(80))\"")
        }
        if !request.asksAboutCues {
            let counts = Dictionary(written.map { (SessionContentChecks.normalized($0.note), 1) }, uniquingKeysWith: +)
            if let (note, count) = counts.max(by: { $0.value < $1.value }), count >= 3,
               let example = written.first(where: { SessionContentChecks.normalized($0.note) == note }) {
                return .fail(name, "one new cue pasted over \(count) exercises: \"\(example.note.prefix(80))\"")
            }
        }
        return .pass(name, written.isEmpty ? "every cue kept" : "\(written.count) cue\(written.count == 1 ? "" : "s") written for the exercises that changed")
    }

    // MARK: Reading

    /// Each session's exercise names, in order.
    static func sessions(_ program: JSONValue) -> [[String]] {
        (program["sessions"]?.arrayValue ?? []).map { session in
            (session["exercises"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        }
    }

    /// The names of `names` that `other` lacks, each as often as it lacks it (compared whole).
    static func difference(_ names: [String], _ other: [String]) -> [String] {
        var left = Dictionary(other.map { (SessionContentChecks.normalized($0), 1) }, uniquingKeysWith: +)
        return names.filter { name in
            let key = SessionContentChecks.normalized(name)
            guard let count = left[key], count > 0 else { return true }
            left[key] = count - 1
            return false
        }
    }

    /// Whether the feedback names `exercise`: its movement family, or a word of its
    /// name. Feedback that names a movement ("the kettlebell swings") names it alone:
    /// the equipment it is done with names no other exercise then. Feedback that names
    /// no movement ("the tread mill stuff") names what its equipment is used for.
    static func named(_ exercise: String, by request: Request, knowledge: CoachingKnowledge) -> Bool {
        let item = SafetyChecks.Item(name: exercise, kind: .exercise, knowledge: knowledge)
        if request.families.contains(where: { SafetyChecks.belongs(item, to: $0) }) { return true }
        let equipment = ProgramChecks.namedEquipment(in: TextMatching.Searchable(exercise))
        let equipmentWords = request.families.isEmpty ? [] : Set(equipment.flatMap { words($0.word) })
        let stems = Set(words(exercise).filter { !equipmentWords.contains($0) }.map(stem)).filter { $0.count >= 4 }
        if !stems.isDisjoint(with: request.stems) { return true }
        return request.families.isEmpty && !Set(equipment.map(\.item)).isDisjoint(with: request.equipment)
    }

    /// Folded, lower-cased words of letters and digits.
    public static func words(_ text: String) -> [String] {
        TextMatching.folded(text).lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    /// A word without a plural or -ing ending: "swings" and "swing", "pressing" and "press".
    static func stem(_ word: String) -> String {
        for suffix in ["ing", "es", "s"] where word.count > suffix.count + 3 && word.hasSuffix(suffix) {
            return String(word.dropLast(suffix.count))
        }
        return word
    }

    /// The days a week the words ask for: a number from 1 to 7, in digits or words,
    /// right before "day", "days" or "días".
    static func daysAsked(_ words: [String]) -> Int? {
        let numbers = ["one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                       "uno": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7]
        for (index, word) in words.enumerated().dropFirst() where ["day", "days", "dias", "dia"].contains(word) {
            let previous = words[index - 1]
            if let number = Int(previous) ?? numbers[previous], (1...7).contains(number) { return number }
        }
        return nil
    }

    static func quoted(_ names: [String]) -> String {
        let shown = names.prefix(4).map { "\"\($0)\"" }.joined(separator: ", ")
        return names.count > 4 ? shown + " and \(names.count - 4) more" : shown
    }
}
