import Foundation
import Intake
import JSONSchema

/// Checks every program and goal against what its intake record says, whatever the
/// scenario lists: the movements a condition keeps out, the work it calls for, and
/// safe rates of weight change. The knowledge behind them is data (`CoachingKnowledge`).
enum SafetyChecks {
    /// A condition the record mentions, and the words that showed it.
    struct Finding {
        var condition: CoachingKnowledge.Condition
        var evidence: String
    }

    /// The record's answers about health and limits, where conditions are looked for.
    static func healthText(of record: LocalIntakeData) -> String {
        [record.injuries, record.healthNuances, record.mobility, record.physicalBaseline, record.anythingElse, record.goals]
            .compactMap { $0 }.joined(separator: "\n")
    }

    /// The conditions `record` mentions, in the order the knowledge lists them. Every
    /// step of a fixture asks about the same record, so the answer is kept.
    static func conditions(of record: LocalIntakeData, knowledge: CoachingKnowledge) -> [Finding] {
        let text = healthText(of: record)
        let experience = record.experienceLevel ?? ""
        let key = "\(knowledge.identity)\u{0}\(record.age ?? -1)\u{0}\(text)\u{0}\(experience)"
        return findings.value(for: key) { findConditions(in: text, age: record.age, experience: experience, knowledge: knowledge) }
    }

    private static let findings = SharedCache<String, [Finding]>()

    private static func findConditions(in text: String, age recordedAge: Int?, experience: String, knowledge: CoachingKnowledge) -> [Finding] {
        let clauses = Self.clauses(text)
        let experienceClauses = Self.clauses(experience)
        return knowledge.conditions.compactMap { condition in
            if !condition.experienceWords.isEmpty,
               !condition.experienceWords.contains(where: { word in experienceClauses.contains { mentions(word, in: $0) } }) {
                return nil
            }
            if let age = condition.minimumAge, let recorded = recordedAge, recorded >= age {
                return Finding(condition: condition, evidence: "age \(recorded)")
            }
            for word in condition.words {
                if let clause = clauses.first(where: { mentions(word, in: $0) }) {
                    return Finding(condition: condition, evidence: "\"\(clause.text.trimmingCharacters(in: .whitespaces))\"")
                }
            }
            return nil
        }
    }

    /// One result per condition the record mentions (`program.safe-for[knee]`), and one
    /// per family a condition calls for (`program.includes[balance]`).
    static func check(program: JSONValue, record: LocalIntakeData, knowledge: CoachingKnowledge) -> [CheckResult] {
        let findings = conditions(of: record, knowledge: knowledge)
        guard !findings.isEmpty else { return [] }
        let readsCues = findings.contains { $0.condition.avoid.contains { knowledge.families[$0]?.inCues == true } }
        let items = prescribedItems(of: program, knowledge: knowledge, includingCues: readsCues)
        let okayed = Searchable(healthText(of: record))
        var results: [CheckResult] = []
        for finding in findings where !finding.condition.avoid.isEmpty {
            let condition = finding.condition
            var hits: [String] = []
            for id in condition.avoid {
                guard let family = knowledge.families[id] else { continue }
                for item in items where (item.kind != .cue || family.inCues) && belongs(item, to: family) && !saidToBeFine(item.name, in: okayed) {
                    hits.append("\"\(item.name)\" (\(family.label)\(item.isWarmUp ? ", in a warm-up" : ""))")
                }
            }
            let name = "program.safe-for[\(condition.id)]"
            results.append(hits.isEmpty
                ? .pass(name, "nothing \(condition.label) keeps out (\(finding.evidence))")
                : .fail(name, Self.unique(hits).joined(separator: ", ") + " for \(condition.label) (\(finding.evidence)): \(condition.reason)"))
        }
        results += safetyLines(program: program, findings: findings)
        var included: Set<String> = []
        for finding in findings {
            guard let id = finding.condition.include, included.insert(id).inserted, let family = knowledge.families[id] else { continue }
            let name = "program.includes[\(id)]"
            // Exercises only: a session called "Legs and Balance" prescribes no balance work.
            let found = items.first { $0.kind == .exercise && belongs($0, to: family) }
            results.append(found.map { .pass(name, "\"\($0.name)\" is \(family.label)") }
                ?? .fail(name, "no \(family.label) for \(finding.condition.label) (\(finding.evidence)): \(finding.condition.reason)"))
        }
        return results
    }

    // MARK: What a program prescribes

    /// Something the program or an option tells the person to do: an exercise, a
    /// session, a warm-up sentence, or a sentence of an option.
    struct Item {
        enum Kind {
            /// A sentence of a cue or a safety note: judged only for families whose words
            /// are instructions as well as movements (`in_cues`).
            case exercise, session, warmUp, sentence, cue
        }

        var name: String
        var kind: Kind
        /// The name without phrases that only look like movements, prepared once for every family's words.
        var clause: Clause

        var isWarmUp: Bool { kind == .warmUp }

        init(name: String, kind: Kind, knowledge: CoachingKnowledge) {
            self.name = name
            self.kind = kind
            clause = SafetyChecks.movementsOnly(name, knowledge: knowledge)
        }
    }

    /// `text` with every phrase that only looks like a movement ("hop on the bike")
    /// blanked out, prepared for looking for movements in it.
    static func movementsOnly(_ text: String, knowledge: CoachingKnowledge) -> Clause {
        var searchable = Searchable(text)
        guard knowledge.notMovementTerms.contains(where: { searchable.contains($0) }) else { return Clause(text: text, searchable: searchable) }
        var result = searchable.folded
        for (phrase, term) in zip(knowledge.notMovements, knowledge.notMovementTerms) where searchable.contains(term) {
            guard let regex = TextMatching.wholePhrase(TextMatching.folded(phrase)) else { continue }
            result = regex.stringByReplacingMatches(in: result, range: NSRange(result.startIndex..., in: result), withTemplate: " ")
            searchable = Searchable(result)
        }
        return Clause(text: result, searchable: searchable)
    }

    /// Exercise and session names, and the warm-up sentences of notes and safety notes
    /// (a note saying "no jumping" is right; "warm up with jumping jacks" prescribes them).
    /// `includingCues` adds every other sentence of the cues and safety notes, for the
    /// families judged in them (`in_cues`); most checks need only names and warm-ups.
    static func prescribedItems(of program: JSONValue, knowledge: CoachingKnowledge, includingCues: Bool = false) -> [Item] {
        var items: [Item] = []
        var notes: [String] = (program["safety_notes"]?.arrayValue ?? []).compactMap(\.stringValue)
        for session in program["sessions"]?.arrayValue ?? [] {
            if let name = session["name"]?.stringValue { items.append(Item(name: name, kind: .session, knowledge: knowledge)) }
            for exercise in session["exercises"]?.arrayValue ?? [] {
                if let name = exercise["name"]?.stringValue { items.append(Item(name: name, kind: .exercise, knowledge: knowledge)) }
                if let note = exercise["notes"]?.stringValue { notes.append(note) }
            }
        }
        for clause in notes.flatMap(clauses) {
            let kind: Item.Kind = isWarmUp(clause.text) ? .warmUp : .cue
            guard kind == .warmUp || includingCues else { continue }
            items.append(Item(name: clause.text.trimmingCharacters(in: .whitespaces), kind: kind, knowledge: knowledge))
        }
        return items
    }

    /// `program.safety-line`: when the person has conditions that name how a note speaks
    /// of them, a safety note speaks of at least one ("keep the knee over the foot"): a
    /// coach tells the person what their plan does about their condition, and may keep
    /// to the one that matters most.
    static func safetyLines(program: JSONValue, findings: [Finding]) -> [CheckResult] {
        let owed = findings.filter { !$0.condition.noteWords.isEmpty }
        guard !owed.isEmpty else { return [] }
        let name = "program.safety-line"
        let notes = (program["safety_notes"]?.arrayValue ?? []).compactMap(\.stringValue)
        let text = Searchable(notes.joined(separator: "\n"))
        for finding in owed {
            if let said = finding.condition.noteWords.lazy.compactMap({ TextMatching.firstMatch(of: $0, in: text) }).first {
                return [.pass(name, "a safety note speaks of \(finding.condition.label) (\"\(said)\")")]
            }
        }
        let conditions = owed.map { "\($0.condition.label) (\($0.evidence))" }.joined(separator: ", ")
        return [.fail(name, notes.isEmpty
            ? "no safety notes, though the person has \(conditions)"
            : "no safety note speaks of \(conditions); the notes are about other things")]
    }

    /// A sentence about warming up: "warm up", "warm-up", "calentamiento", "calienta".
    static func isWarmUp(_ sentence: String) -> Bool {
        let text = TextMatching.folded(sentence).lowercased()
        return text.contains("warm") || text.contains("calenta") || text.contains("calient")
    }

    /// Whether `item` is one of `family`'s movements: it uses one of its words, not
    /// negated, and none of its safer variants.
    static func belongs(_ item: Item, to family: CoachingKnowledge.Family) -> Bool {
        let clause = item.clause
        guard family.wordTerms.indices.contains(where: { index in
            TextMatching.firstMatch(of: family.wordTerms[index], in: clause.searchable) != nil && mentions(family.words[index], in: clause)
        }) else { return false }
        return !family.exceptTerms.contains { TextMatching.firstMatch(of: $0, in: clause.searchable) != nil }
    }

    /// The person said this very exercise is fine ("box squats are ok").
    static func saidToBeFine(_ name: String, in text: Searchable) -> Bool {
        ["is ok", "are ok", "is okay", "are okay", "is fine", "are fine", "no problem", "están bien", "está bien"].contains { phrase in
            TextMatching.firstMatch(of: "\(name) \(phrase)", in: text) != nil
        }
    }

    // MARK: Clauses and negation

    typealias Searchable = TextMatching.Searchable

    /// A stretch of text between punctuation, searched as one.
    struct Clause {
        var text: String
        var searchable: Searchable

        init(text: String, searchable: Searchable? = nil) {
            self.text = text
            self.searchable = searchable ?? Searchable(text)
        }
    }

    /// The sentences of `text`: split at `;`, `!`, `?`, line breaks, and a full stop
    /// that ends a sentence (not the ones inside "e.g.").
    static func clauses(_ text: String) -> [Clause] {
        if text.unicodeScalars.allSatisfy(standsAlone),
           let clauses = text.utf8.withContiguousStorageIfAvailable(byteClauses) {
            return clauses
        }
        return characterClauses(text)
    }

    /// A scalar that is a character of its own next to ASCII punctuation: ASCII, and the
    /// Latin, punctuation, symbol and arrow blocks, none of which combines with what it
    /// follows or precedes. Text made only of these splits the same byte by byte.
    private static func standsAlone(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x80, 0xA0...0x2FF, 0x2000...0x200B, 0x2010...0x2064, 0x20A0...0x20CF, 0x2100...0x27BF: true
        default: false
        }
    }

    /// `clauses`, character by character: for text with a scalar that may join the
    /// punctuation beside it into one character.
    static func characterClauses(_ text: String) -> [Clause] {
        var clauses: [Clause] = []
        var start = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            let endsSentence = ";!?\n".contains(character) || (character == "." && (next == text.endIndex || text[next].isWhitespace))
            if endsSentence {
                let current = text[start..<index]
                if !current.allSatisfy(\.isWhitespace) { clauses.append(Clause(text: String(current))) }
                start = next
            }
            index = next
        }
        let last = text[start...]
        if !last.allSatisfy(\.isWhitespace) { clauses.append(Clause(text: String(last))) }
        return clauses
    }

    /// `clauses` of UTF-8 text whose every scalar stands alone, read byte by byte: the
    /// terminators are ASCII, and only a CR LF pair is one character of two bytes that
    /// matters (a line break that is not `\n`).
    private static func byteClauses(_ bytes: UnsafeBufferPointer<UInt8>) -> [Clause] {
        var clauses: [Clause] = []
        func keep(_ range: Range<Int>) {
            let clause = String(decoding: bytes[range], as: UTF8.self)
            if !clause.unicodeScalars.allSatisfy(\.properties.isWhitespace) { clauses.append(Clause(text: clause)) }
        }
        var start = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\r"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") {
                index += 2
                continue
            }
            let next = index + 1
            let endsSentence = byte == UInt8(ascii: ";") || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "\n")
                || (byte == UInt8(ascii: ".") && (next == bytes.count || startsWithWhitespace(bytes, at: next)))
            if endsSentence {
                keep(start..<index)
                start = next
            }
            index = next
        }
        keep(start..<bytes.count)
        return clauses
    }

    /// Whether the scalar whose UTF-8 bytes start at `index` is whitespace.
    private static func startsWithWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        var decoder = UTF8()
        var iterator = bytes[index...].makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return false }
        return scalar.properties.isWhitespace
    }

    /// Words that deny what follows them: "no knee problems", "sin dolor".
    static let negators: Set<String> = [
        "no", "not", "never", "without", "none", "nor", "avoid", "avoiding", "skip", "instead", "sin", "nunca", "ni", "ningun", "ninguna", "evita",
        "evitar", "evitando",
    ]

    /// Clauses about someone else ("my mom had osteoporosis") or about what is over
    /// ("resolved with PT", "a healed fracture") say nothing about the person now.
    static let notAboutNow = [
        "my mom", "my mother", "my dad", "my father", "my sister", "my brother", "my wife", "my husband", "my partner",
        "my son", "my daughter", "my grandmother", "my grandfather", "family history", "runs in my family",
        "mi madre", "mi mama", "mi padre", "mi papa", "mi hermana", "mi hermano",
        "resolved", "healed", "fully recovered", "no longer", "used to have", "resuelto", "resuelta", "curado", "curada",
    ]

    /// Whether `clause` uses `word` as whole words about the person now, with no
    /// negator in the three words before it.
    static func mentions(_ word: String, in clause: Clause) -> Bool {
        guard TextMatching.firstMatch(of: word, in: clause.searchable) != nil else { return false }
        let text = TextMatching.folded(clause.text).lowercased()
        if notAboutNow.contains(where: { text.contains($0) }) { return false }
        let target = TextMatching.folded(word).lowercased()
        guard let range = text.range(of: "\\b" + NSRegularExpression.escapedPattern(for: target), options: .regularExpression) else { return true }
        let before = text[..<range.lowerBound].split { !$0.isLetter }.suffix(3).map(String.init)
        return !before.contains { negators.contains($0) }
    }

    private static func unique(_ items: [String]) -> [String] {
        var seen = Set<String>()
        return items.filter { seen.insert($0).inserted }
    }
}

extension CoachingKnowledge {
    /// What a coach keeps in mind for `record`, one line per condition its answers
    /// mention: the movements it keeps out, the work it calls for and why, as in
    /// "a knee injury: leave out deep or loaded knee bending, lunges and split
    /// stances (…). Include …". The program prompts show these lines to the model,
    /// so a program is written to the same knowledge its checks hold it to.
    public func cautions(for record: LocalIntakeData) -> [String] {
        SafetyChecks.conditions(of: record, knowledge: self).map { finding in
            let condition = finding.condition
            var line = condition.label
            let avoided = condition.avoid.compactMap { families[$0]?.label }
            if !avoided.isEmpty { line += ": leave out " + avoided.joined(separator: "; ") + " (\(condition.reason))" }
            if let include = condition.include.flatMap({ families[$0]?.label }) { line += ". Include \(include)" }
            return line
        }
    }
}

extension CoachingKnowledge {
    /// How messages name the conditions `record`'s answers mention, in `conditions.yaml`'s
    /// order, without the ones no goal is about: disordered eating (`no_weight_targets`)
    /// and those found by age alone.
    public func conditionLabels(for record: LocalIntakeData) -> [String] {
        SafetyChecks.conditions(of: record, knowledge: self).filter { !$0.condition.noWeightTargets && $0.condition.minimumAge == nil }
            .map(\.condition.label)
    }

    /// Why no goal may aim at losing weight for `record` (a condition of `conditions.yaml`
    /// with `no_weight_targets`, and what in their answers shows it); nil when nothing rules it out.
    public func weightTargetsRuledOut(for record: LocalIntakeData) -> String? {
        SafetyChecks.conditions(of: record, knowledge: self).first { $0.condition.noWeightTargets }
            .map { "\($0.condition.label) (\($0.evidence))" }
    }
}
