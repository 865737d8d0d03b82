import Foundation
import Intake
import JSONSchema

/// Checks on a program: it fits the person's days, time and equipment, avoids what
/// it must, names what it must, refers to a professional when needed, covers its
/// weeks, and says the same thing in JSON and markdown.
enum ProgramChecks {
    static func check(_ output: JSONValue, expectations: Expectations, knowledge: CoachingKnowledge = .none) -> [CheckResult] {
        guard let program = output["program_json"] else {
            return [.fail("program.present", "the output has no program_json; " + shape(of: output))]
        }
        let markdown = output["program_markdown"]?.stringValue ?? ""
        let sessions = program["sessions"]?.arrayValue ?? []
        var results: [CheckResult] = []
        results += days(program, sessions: sessions, limit: expectations.maxDaysPerWeek)
        results += minutes(program, sessions: sessions, limit: expectations.maxSessionMinutes)
        if let allowed = expectations.equipment {
            results += equipment(program, sessions: sessions, allowed: Set(allowed).union([.bodyweight]), knowledge: knowledge)
        }
        if let avoid = expectations.avoid, !avoid.isEmpty {
            // Exercise and session names only: a safety note saying "no jumping" is right, not a violation.
            let names = sessions.flatMap { session in
                [session["name"]?.stringValue ?? ""] + exercises(of: session).map(\.name)
            }.joined(separator: "\n")
            let searchable = TextMatching.Searchable(names)
            for word in avoid {
                let name = "program.avoids[\(word)]"
                results.append(TextMatching.firstMatch(of: word, in: searchable).map { .fail(name, "uses what it must avoid: \"\(word)\" in \($0)") }
                    ?? .pass(name, "no exercise uses \"\(word)\""))
            }
        }
        if let mention = expectations.mention, !mention.isEmpty {
            let text = TextMatching.Searchable(TextMatching.text(of: program) + "\n" + markdown)
            for word in mention {
                let name = "program.mentions[\(word)]"
                results.append(TextMatching.firstMatch(of: word, in: text) == nil
                    ? .fail(name, "never mentions \"\(word)\"")
                    : .pass(name, "mentions \"\(word)\""))
            }
        }
        if expectations.professionalReferral == true {
            results.append(referral(program))
        }
        results.append(exercisesPerSession(sessions))
        results.append(progression(program))
        results.append(agreement(sessions: sessions, markdown: markdown))
        return results
    }

    /// What an output without `program_json` holds instead, so a report shows what came back.
    private static func shape(of output: JSONValue) -> String {
        guard let keys = output.objectValue?.keys else {
            let type = output.typeName
            return "it is \(type.first.map { "aeiou".contains($0) } == true ? "an" : "a") \(type), not an object"
        }
        switch keys.count {
        case 0: return "it is an empty object"
        case 1: return "its only key is `\(keys[0])`"
        default: return "its keys are " + keys.map { "`\($0)`" }.joined(separator: ", ")
        }
    }

    /// A sentence of the safety or exercise notes that tells the person to check with a
    /// professional: a referral word and an advice to act on it. The person's own words
    /// ("my doctor said I have prediabetes") elsewhere in the program are no referral.
    private static func referral(_ program: JSONValue) -> CheckResult {
        var notes = (program["safety_notes"]?.arrayValue ?? []).compactMap(\.stringValue)
        for session in program["sessions"]?.arrayValue ?? [] {
            notes += (session["exercises"]?.arrayValue ?? []).compactMap { $0["notes"]?.stringValue }
        }
        for sentence in notes.flatMap(SafetyChecks.clauses) {
            let text = sentence.searchable
            guard let word = referralWords.first(where: { TextMatching.firstMatch(of: $0, in: text) != nil }),
                  referralAdvice.contains(where: { TextMatching.firstMatch(of: $0, in: text) != nil })
            else { continue }
            return .pass("program.professional-referral", "refers to a professional (\"\(word)\"): \"\(sentence.text.trimmingCharacters(in: .whitespaces).prefix(100))\"")
        }
        return .fail("program.professional-referral", "no safety note tells the person to check with a doctor, physiotherapist or other professional")
    }

    /// What a referral asks the person to do, in the languages the fixtures use.
    static let referralAdvice = [
        "check with", "consult", "talk to", "talk with", "speak to", "speak with", "ask your", "see your", "see a", "get clearance",
        "get cleared", "cleared by", "clearance", "approval", "follow your", "before starting", "before you start", "guidance",
        "consulta", "consultar", "habla con", "hable con", "pregunta a", "pregúntale", "autorización", "antes de empezar", "antes de comenzar",
    ]

    /// Words that show a referral to a professional, in the languages the fixtures use.
    static let referralWords = [
        "doctor", "physician", "physio", "physiotherapist", "physical therapist", "GP", "healthcare provider",
        "health care provider", "medical professional", "qualified professional", "dietitian", "obstetrician", "midwife",
        "cardiologist", "médico", "medica", "profesional", "fisioterapeuta",
    ]

    struct Exercise {
        var name: String
    }

    static func exercises(of session: JSONValue) -> [Exercise] {
        (session["exercises"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue.map(Exercise.init) }
    }

    private static func days(_ program: JSONValue, sessions: [JSONValue], limit: Int?) -> [CheckResult] {
        let days = program["days_per_week"]?.intValue ?? 0
        var results: [CheckResult] = []
        if let limit {
            // The sessions listed are what the person is asked to do, whatever the declared number says.
            let trained = max(days, Set(sessions.compactMap { $0["day"]?.intValue }).count, sessions.count)
            let listed = trained > days ? " (\(sessions.count) sessions listed, days_per_week says \(days))" : ""
            results.append(trained <= limit
                ? .pass("program.days-per-week", "\(trained) days a week; the person can train \(limit)")
                : .fail("program.days-per-week", "\(trained) days a week\(listed); the person can train at most \(limit)"))
        }
        let numbers = sessions.compactMap { $0["day"]?.intValue }
        results.append(sessions.count == days && Set(numbers).count == numbers.count
            ? .pass("program.sessions-match-days", "\(sessions.count) sessions for \(days) days")
            : .fail("program.sessions-match-days", "\(sessions.count) sessions (days \(numbers.map(String.init).joined(separator: ", "))) for days_per_week \(days)"))
        return results
    }

    private static func minutes(_ program: JSONValue, sessions: [JSONValue], limit: Int?) -> [CheckResult] {
        let stated = program["session_minutes"]?.intValue ?? 0
        let longest = sessions.compactMap { $0["minutes"]?.intValue }.max() ?? 0
        guard let limit else {
            return [longest <= stated
                ? .pass("program.session-length", "sessions up to \(longest) min, as stated")
                : .fail("program.session-length", "a session takes \(longest) min but session_minutes says \(stated)")]
        }
        // What the person does is the sessions' own minutes; the header counts only when no session states any.
        let statesMinutes = sessions.contains { $0["minutes"]?.intValue != nil }
        let worst = statesMinutes ? longest : stated
        return [worst <= limit
            ? .pass("program.session-length", "sessions up to \(worst) min; the person has \(limit)")
            : .fail("program.session-length", "sessions up to \(worst) min; the person has \(limit)")]
    }

    /// One result per piece of equipment the program needs but the person lacks
    /// (`program.equipment[barbell]`): listed, named in an exercise, or implied by one
    /// ("Deadlifts" needs a barbell); a single pass when there is none.
    private static func equipment(
        _ program: JSONValue, sessions: [JSONValue], allowed: Set<Equipment>, knowledge: CoachingKnowledge
    ) -> [CheckResult] {
        var problems: [Equipment: [String]] = [:]
        for item in (program["equipment"]?.arrayValue ?? []).compactMap({ $0.stringValue.flatMap(Equipment.init(rawValue:)) }) where !allowed.contains(item) {
            problems[item, default: []].append("listed")
        }
        let names = sessions.flatMap { exercises(of: $0).map(\.name) }
        let searchable = names.map(TextMatching.Searchable.init)
        for (name, text) in zip(names, searchable) {
            for hit in namedEquipment(in: text) where !allowed.contains(hit.item) {
                problems[hit.item, default: []].append("\"\(name)\" (\"\(hit.word)\")")
            }
        }
        // An implied need is met by what the name or its notes say to use instead: "Deadlift" with "use a dumbbell".
        let notes = sessions.flatMap { ($0["exercises"]?.arrayValue ?? []).filter { $0["name"]?.stringValue != nil }.map { TextMatching.Searchable($0["notes"]?.stringValue ?? "") } }
        for rule in knowledge.impliedEquipment {
            for (index, (name, text)) in zip(names, searchable).enumerated() {
                guard let word = rule.word(in: text, notes: notes[index]) else { continue }
                for item in rule.needs where !allowed.contains(item) && !(problems[item] ?? []).contains(where: { $0.hasPrefix("\"\(name)\"") }) {
                    problems[item, default: []].append("\"\(name)\" (\"\(word)\" implies it)")
                }
            }
        }
        let allowedText = allowed.map(\.rawValue).sorted().joined(separator: ", ")
        guard !problems.isEmpty else { return [.pass("program.equipment", "uses only \(allowedText)")] }
        return problems.keys.sorted { $0.rawValue < $1.rawValue }.map { item in
            .fail("program.equipment[\(item.rawValue)]", "needs \(item.rawValue), which the person does not have (\(allowedText)): " + problems[item]!.joined(separator: ", "))
        }
    }

    /// The equipment an exercise name names, with the word that names it: the longest
    /// telltale word of each.
    static func namedEquipment(in name: TextMatching.Searchable) -> [(item: Equipment, word: String)] {
        let hits = Equipment.allCases.compactMap { item in
            item.telltaleTerms.filter { TextMatching.firstMatch(of: $0.term, in: name) != nil }
                .max { $0.word.count < $1.word.count }.map { (item: item, word: $0.word) }
        }
        // A word inside another equipment's longer telltale is that one's: a "Rowing machine" is no weight machine.
        return hits.filter { hit in
            !hits.contains { $0.item != hit.item && $0.word.count > hit.word.count && $0.word.lowercased().contains(hit.word.lowercased()) }
        }
    }

    /// The range of exercises a strength session holds (published guidance: 4-8 for a general
    /// client; 3 is the least a short session can do and still cover the main patterns).
    static let exercisesPerSessionRange = 3...8

    /// Words of an endurance piece that is a session on its own: one long run is a session.
    static let enduranceWords = ["run", "jog", "walk", "hike", "bike", "cycle", "ride", "swim", "row", "spin", "elliptical", "correr", "caminar", "nadar"]

    /// Every session holds 3 to 8 exercises, unless it is endurance work only.
    private static func exercisesPerSession(_ sessions: [JSONValue]) -> CheckResult {
        var problems: [String] = []
        for session in sessions {
            let names = exercises(of: session).map(\.name)
            guard !exercisesPerSessionRange.contains(names.count) else { continue }
            let searchable = names.map(TextMatching.Searchable.init)
            let enduranceOnly = !names.isEmpty && searchable.allSatisfy { name in enduranceWords.contains { TextMatching.firstMatch(of: $0, in: name) != nil } }
            if names.count < exercisesPerSessionRange.lowerBound, enduranceOnly { continue }
            let label = session["name"]?.stringValue.map { "\"\($0)\"" } ?? "day \(session["day"]?.intValue ?? 0)"
            problems.append("\(label) has \(names.count)")
        }
        let range = "\(exercisesPerSessionRange.lowerBound)-\(exercisesPerSessionRange.upperBound)"
        return problems.isEmpty
            ? .pass("program.exercises-per-session", "every session has \(range) exercises or is endurance work")
            : .fail("program.exercises-per-session", "sessions need \(range) exercises: " + problems.joined(separator: ", "))
    }

    /// The progression's week ranges cover week 1 to `duration_weeks` without going past it.
    private static func progression(_ program: JSONValue) -> CheckResult {
        let weeks = program["duration_weeks"]?.intValue ?? 0
        var covered = Set<Int>()
        var beyond: [String] = []
        for phase in program["progression"]?.arrayValue ?? [] {
            guard let text = phase["weeks"]?.stringValue else { continue }
            let bounds = text.split(separator: "-").compactMap { Int($0) }
            guard let first = bounds.first, let last = bounds.last, first <= last else { continue }
            covered.formUnion(first...last)
            if last > weeks { beyond.append(text) }
        }
        let missing = weeks > 0 ? (1...weeks).filter { !covered.contains($0) } : []
        if missing.isEmpty && beyond.isEmpty {
            return .pass("program.progression-covers-weeks", "phases cover weeks 1-\(weeks)")
        }
        var problems: [String] = []
        if !missing.isEmpty { problems.append("weeks \(missing.map(String.init).joined(separator: ", ")) have no phase") }
        if !beyond.isEmpty { problems.append("phases \(beyond.joined(separator: ", ")) run past week \(weeks)") }
        return .fail("program.progression-covers-weeks", problems.joined(separator: "; "))
    }

    /// Every session and exercise of the JSON appears in the markdown, and every
    /// exercise the markdown lists under a session heading is in the JSON.
    private static func agreement(sessions: [JSONValue], markdown: String) -> CheckResult {
        let lowered = TextMatching.loweredBytes(markdown)
        let inMarkdown = { (name: String) in TextMatching.contains(lowered, TextMatching.loweredBytes(name)) }
        let sessionNames = sessions.compactMap { $0["name"]?.stringValue }
        let exerciseNames = sessions.flatMap { exercises(of: $0).map(\.name) }
        var problems: [String] = []
        let missingSessions = sessionNames.filter { !inMarkdown($0) }
        let missingExercises = exerciseNames.filter { !inMarkdown($0) }
        if !missingSessions.isEmpty { problems.append("sessions not in the markdown: " + missingSessions.map { "\"\($0)\"" }.joined(separator: ", ")) }
        if !missingExercises.isEmpty { problems.append("exercises not in the markdown: " + missingExercises.map { "\"\($0)\"" }.joined(separator: ", ")) }
        let entries = markdownEntries(markdown, sessionNames: sessionNames)
        let entryNames = entries.map { ExerciseName($0.name) }
        let jsonNames = exerciseNames.map(ExerciseName.init)
        let extra = entryNames.filter { name in !jsonNames.contains { $0.isSameExercise(as: name) } }.map(\.name)
        if !extra.isEmpty { problems.append("exercises only in the markdown: " + extra.map { "\"\($0)\"" }.joined(separator: ", ")) }
        // Each exercise's line says the same sets, reps and rest: within its own session
        // when the markdown has one heading per session, else wherever the name appears.
        let bySession = Set(entries.map(\.session)).count == sessions.count
        var numbers: [String] = []
        for (index, session) in sessions.enumerated() {
            for exercise in session["exercises"]?.arrayValue ?? [] {
                let name = ExerciseName(exercise["name"]?.stringValue ?? "")
                guard let position = entries.indices.first(where: { (!bySession || entries[$0].session == index) && entryNames[$0].isSameExercise(as: name) })
                else { continue }
                if let problem = numbersDisagree(exercise, entries[position]) { numbers.append(problem) }
            }
        }
        if !numbers.isEmpty {
            problems.append("sets, reps or rest differ: " + numbers.prefix(4).joined(separator: "; ") + (numbers.count > 4 ? "; and \(numbers.count - 4) more" : ""))
        }
        return problems.isEmpty
            ? .pass("program.markdown-agrees", "\(sessionNames.count) sessions and \(exerciseNames.count) exercises in both")
            : .fail("program.markdown-agrees", problems.joined(separator: "; "))
    }

    /// How a session heading starts when it does not name a session: `Day 1`, `Sesión 2`...
    private static let sessionHeadingStarts = ["day", "día", "dia", "session", "sesión"].map { Array($0.utf8) }

    /// One exercise line of the markdown: its bold name, what follows it, and the
    /// session heading it sits under (counted from 0).
    struct MarkdownEntry {
        var name: String
        var detail: String
        var session: Int
    }

    /// Bold names at the start of bullet lines under session headings (`## Day 1: ...`).
    static func markdownExercises(_ markdown: String, sessionNames: [String]) -> [String] {
        markdownEntries(markdown, sessionNames: sessionNames).map(\.name)
    }

    /// The exercise lines under session headings. Read as UTF-8 bytes: every marker it
    /// looks for is ASCII.
    static func markdownEntries(_ markdown: String, sessionNames: [String]) -> [MarkdownEntry] {
        let loweredSessions = sessionNames.map(TextMatching.loweredBytes)
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") }
        var entries: [MarkdownEntry] = []
        var inSession = false
        var session = -1
        for line in markdown.utf8.split(separator: UInt8(ascii: "\n")) {
            let text = line.drop(while: isBlank)
            guard let first = text.first else { continue }
            if first == UInt8(ascii: "#") {
                let heading = Array(TextMatching.loweredBytes(String(Substring(text.drop { $0 == UInt8(ascii: "#") }))).drop(while: isBlank))
                inSession = sessionHeadingStarts.contains { heading.starts(with: $0) }
                    || loweredSessions.contains { TextMatching.contains(heading, $0) }
                if inSession { session += 1 }
                continue
            }
            guard inSession, first == UInt8(ascii: "-") || first == UInt8(ascii: "*"),
                  text.dropFirst().starts(with: " **".utf8) else { continue }
            let rest = text.dropFirst(4)
            guard let end = rest.indices.first(where: { rest[$0] == UInt8(ascii: "*") && rest.index(after: $0) < rest.endIndex && rest[rest.index(after: $0)] == UInt8(ascii: "*") })
            else { continue }
            let detail = String(Substring(rest[rest.index(end, offsetBy: 2)...]))
            entries.append(MarkdownEntry(
                name: String(String(Substring(rest[..<end])).trimmed(also: [":"])), detail: String(detail.trimmed(also: [":"])), session: session))
        }
        return entries
    }

    /// An exercise's name prepared once for comparing with the others of its program.
    struct ExerciseName {
        let name: String
        let lowered: String
        let searchable: TextMatching.Searchable
        let term: TextMatching.SearchTerm

        init(_ name: String) {
            self.name = name
            lowered = TextMatching.lowercased(name)
            searchable = TextMatching.Searchable(lowered)
            term = SearchTerms.shared.term(lowered)
        }

        /// Two names for one exercise: equal, or one inside the other as whole words ("Bodyweight Squats", "Squats").
        func isSameExercise(as other: ExerciseName) -> Bool {
            lowered == other.lowered || (!lowered.isEmpty && !other.lowered.isEmpty
                && (TextMatching.firstMatch(of: term, in: other.searchable) != nil || TextMatching.firstMatch(of: other.term, in: searchable) != nil))
        }
    }

    /// Where a markdown line disagrees with its exercise's sets, reps or rest: `Squats: 3 × 10 in JSON, 4 × 8 in markdown`.
    /// Read by hand, not by regular expression: a gate compares every exercise of tens of thousands of programs.
    static func numbersDisagree(_ exercise: JSONValue, _ entry: MarkdownEntry) -> String? {
        let name = exercise["name"]?.stringValue ?? ""
        let sets = exercise["sets"]?.intValue
        let reps = exercise["reps"]?.stringValue ?? ""
        let rest = exercise["rest_seconds"]?.intValue
        var json: String { "\(sets.map(String.init) ?? "?") × \(reps)" + (rest.map { ", rest \($0) s" } ?? "") }
        let detail = Array(entry.detail)
        // "3 × 10", "3x10": the first number followed by a times sign, then the reps up to a comma.
        var setsAndReps: (sets: Int, reps: String)?
        var index = 0
        while index < detail.count, setsAndReps == nil {
            guard detail[index].isNumber else { index += 1; continue }
            var number = ""
            while index < detail.count, detail[index].isNumber { number.append(detail[index]); index += 1 }
            var cursor = index
            while cursor < detail.count, detail[cursor] == " " { cursor += 1 }
            guard cursor < detail.count, ["×", "x", "X"].contains(detail[cursor]) else { continue }
            cursor += 1
            var text = ""
            while cursor < detail.count, detail[cursor] != ",", detail[cursor] != ";" { text.append(detail[cursor]); cursor += 1 }
            if let value = Int(number) { setsAndReps = (value, text) }
        }
        guard let setsAndReps else { return "\"\(name)\": \(json) in JSON, no sets × reps in markdown" }
        // Reps compared by their count or range ("8-10", "30 s"), whatever words follow ("reps", "each side").
        let count = { (text: String) -> String in
            let compact = TextMatching.lowercased(text).filter { !$0.isWhitespace }
            let digits = compact.prefix { $0.isNumber || $0 == "-" || $0 == "–" }
            return digits.isEmpty ? compact : String(digits)
        }
        var differs = setsAndReps.sets != sets || count(setsAndReps.reps) != count(reps)
        if let rest, let stated = restSeconds(in: TextMatching.lowercased(entry.detail)) { differs = differs || stated != rest }
        return differs ? "\"\(name)\": \(json) in JSON, \"\(entry.detail.prefix(40))\" in markdown" : nil
    }

    /// The rest a markdown line states after "rest" or "descanso", in seconds ("90 s", "2 min").
    static func restSeconds(in lowered: String) -> Int? {
        guard let marker = firstRange(of: "rest", in: lowered) ?? firstRange(of: "descanso", in: lowered) else { return nil }
        let after = lowered[marker.upperBound...].prefix(16)
        guard let start = after.firstIndex(where: \.isNumber) else { return nil }
        let digits = after[start...].prefix { $0.isNumber }
        guard let value = Int(digits) else { return nil }
        return after[digits.endIndex...].trimmed().hasPrefix("min") ? value * 60 : value
    }

    /// Where `word` (ASCII) first occurs in `text`, found by its UTF-8 bytes, as
    /// Foundation's literal `range(of:)` would find it, without going through NSString.
    private static func firstRange(of word: String, in text: String) -> Range<String.Index>? {
        let needle = Array(word.utf8)
        let bytes = text.utf8
        var start = bytes.startIndex
        while let hit = bytes[start...].firstIndex(of: needle[0]) {
            if let end = bytes.index(hit, offsetBy: needle.count, limitedBy: bytes.endIndex), bytes[hit..<end].elementsEqual(needle) {
                return hit..<end
            }
            start = bytes.index(after: hit)
        }
        return nil
    }
}
