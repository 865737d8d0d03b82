import Foundation
import JSONSchema

/// What a session holds: training, not a warm-up, a cool-down or rest on its own;
/// real exercises, not "None: 1 × N/A"; and each exercise once.
enum SessionContentChecks {
    /// `program.training-sessions`, `program.no-filler` and `program.distinct-exercises`.
    static func check(sessions: [JSONValue], rules: AdviceRules) -> [CheckResult] {
        guard !rules.fillerExercises.isEmpty || !rules.notTrainingSessions.isEmpty else { return [] }
        let filler = Set(rules.fillerExercises.map(normalized))
        let notTraining = Set(rules.notTrainingSessions.map(normalized))
        var restSessions: [String] = []
        var fillers: [String] = []
        var repeats: [String] = []
        for (index, session) in sessions.enumerated() {
            let label = session["name"]?.stringValue.map { "\"\($0)\"" } ?? "session \(index + 1)"
            let exercises = session["exercises"]?.arrayValue ?? []
            let names = exercises.compactMap { $0["name"]?.stringValue }
            let onlyRest = !names.isEmpty && names.allSatisfy { notTraining.contains(normalized($0)) || filler.contains(normalized($0)) }
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
            for name in names where !filler.contains(normalized(name)) { seen[normalized(name), default: 0] += 1 }
            for name in names where (seen[normalized(name)] ?? 0) > 1 {
                repeats.append("\"\(name)\" \(seen[normalized(name)]!) times in \(label)")
                seen[normalized(name)] = 0
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
        var text = TextMatching.folded(name).lowercased()
        if let bracket = text.firstIndex(of: "("), bracket > text.startIndex { text = String(text[..<bracket]) }
        var words = text.split { !$0.isLetter && !$0.isNumber && $0 != "/" }.map(String.init)
        if let last = words.last, last.count > 3, last.hasSuffix("s"), !last.hasSuffix("ss") { words[words.count - 1] = String(last.dropLast()) }
        return words.joined(separator: " ")
    }

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

