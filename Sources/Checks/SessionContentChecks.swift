import Foundation
import JSONSchema

/// What a session holds: training, not a warm-up, a cool-down or rest on its own;
/// real exercises, not "None: 1 × N/A"; and each exercise once.
enum SessionContentChecks {
    /// `program.training-sessions`, `program.no-filler` and `program.distinct-exercises`.
    static func check(sessions: [JSONValue], rules: AdviceRules) -> [CheckResult] {
        guard !rules.fillerExercises.isEmpty || !rules.notTrainingSessions.isEmpty else { return [] }
        let filler = normalizedSets.value(for: rules.fillerExercises) { Set(rules.fillerExercises.map(normalized)) }
        let notTraining = normalizedSets.value(for: rules.notTrainingSessions) { Set(rules.notTrainingSessions.map(normalized)) }
        var restSessions: [String] = []
        var fillers: [String] = []
        var repeats: [String] = []
        for (index, session) in sessions.enumerated() {
            let label = session["name"]?.stringValue.map { "\"\($0)\"" } ?? "session \(index + 1)"
            let exercises = session["exercises"]?.arrayValue ?? []
            let names = exercises.compactMap { $0["name"]?.stringValue }
            let keys = names.map(normalized)
            let onlyRest = !keys.isEmpty && keys.allSatisfy { notTraining.contains($0) || filler.contains($0) }
            if notTraining.contains(normalized(withoutDayLabel(session["name"]?.stringValue ?? ""))) || onlyRest {
                restSessions.append(label)
            }
            for exercise in exercises {
                let name = exercise["name"]?.stringValue ?? ""
                let reps = exercise["reps"]?.stringValue.map(normalized)
                let placeholderDose = reps.map { filler.contains($0) || $0 == "0" } ?? false
                if filler.contains(normalized(name)) || exercise["sets"]?.intValue == 0 || placeholderDose {
                    fillers.append("\"\(name)\" (\(dose(exercise))) in \(label)")
                }
            }
            var seen: [String: Int] = [:]
            for key in keys where !filler.contains(key) { seen[key, default: 0] += 1 }
            for (name, key) in zip(names, keys) where (seen[key] ?? 0) > 1 {
                repeats.append("\"\(name)\" \(seen[key]!) times in \(label)")
                seen[key] = 0
            }
        }
        return [
            restSessions.isEmpty
                ? .pass("program.training-sessions", "every session trains")
                : .fail("program.training-sessions", "a warm-up, cool-down or rest listed as a training session: " + restSessions.joined(separator: ", ")),
            fillers.isEmpty
                ? .pass("program.no-filler", "no placeholder exercises")
                : .fail("program.no-filler", "filler in place of an exercise: " + fillers.prefix(4).joined(separator: "; ")),
            repeats.isEmpty
                ? .pass("program.distinct-exercises", "no exercise repeated within a session")
                : .fail("program.distinct-exercises", "the same exercise repeated to fill a session: " + repeats.prefix(4).joined(separator: "; ")),
        ]
    }

    private static func dose(_ exercise: JSONValue) -> String {
        let sets = exercise["sets"]?.intValue.map(String.init) ?? "?"
        return "\(sets) × \(exercise["reps"]?.stringValue ?? "?")"
    }

    /// A name compared whole: folded, lower-cased, words of letters and digits only,
    /// without a plural "s" on its last word and without anything in brackets.
    static func normalized(_ name: String) -> String {
        TextMatching.isASCII(name) ? normalizedASCII(name) : normalizedCharacters(name)
    }

    /// `normalized` character by character, for any text.
    static func normalizedCharacters(_ name: String) -> String {
        var text = TextMatching.folded(name).lowercased()
        if let bracket = text.firstIndex(of: "("), bracket > text.startIndex { text = String(text[..<bracket]) }
        var words = text.split { !$0.isLetter && !$0.isNumber && $0 != "/" }.map(String.init)
        if let last = words.last, last.count > 3, last.hasSuffix("s"), !last.hasSuffix("ss") { words[words.count - 1] = String(last.dropLast()) }
        return words.joined(separator: " ")
    }

    /// `normalized` for ASCII text, byte by byte: the same cuts, as its tests check.
    static func normalizedASCII(_ name: String) -> String {
        var bytes = TextMatching.loweredBytes(name)
        if let bracket = bytes.firstIndex(of: UInt8(ascii: "(")), bracket > 0 { bytes.removeSubrange(bracket...) }
        let isWordPart = { (byte: UInt8) in (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "/") }
        var words = bytes.split { !isWordPart($0) }
        if let last = words.last, last.count > 3, last.last == UInt8(ascii: "s"), last.dropLast().last != UInt8(ascii: "s") {
            words[words.count - 1] = last.dropLast()
        }
        return String(decoding: Array(words.joined(separator: [0x20])), as: UTF8.self)
    }

    /// The rules' names normalized, by list: every program is checked against the same few.
    private static let normalizedSets = SharedCache<[String], Set<String>>()

    /// "Day 2: Rest" → "Rest"; "Día 3 - Descanso" → "Descanso".
    static func withoutDayLabel(_ name: String) -> String {
        let folded = TextMatching.folded(name).lowercased()
        for prefix in ["day", "dia", "session", "sesion"] where folded.hasPrefix(prefix) {
            let rest = folded.dropFirst(prefix.count).drop { $0 == " " || $0.isNumber || ":-–.".contains($0) }
            return String(rest)
        }
        return name
    }
}

