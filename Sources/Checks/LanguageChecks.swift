import Intake
import JSONSchema

/// The language of what the person reads: the scenario's `expect.language` when it
/// sets one, else the language the intake itself is written in.
enum LanguageChecks {
    /// Common words that tell the Latin-script languages apart.
    static let markers: [String: Set<String>] = [
        "en": ["the", "and", "you", "your", "with", "for", "to", "of", "is", "are", "in", "on", "my", "week", "weeks", "days", "want", "get"],
        "es": ["el", "la", "los", "las", "de", "del", "y", "tu", "tus", "con", "para", "en", "que", "por", "un", "una", "semana", "semanas", "días", "quiero", "mi"],
        "pt": ["o", "os", "as", "do", "da", "dos", "e", "você", "com", "para", "em", "que", "uma", "semana", "semanas", "quero", "meu"],
        "fr": ["le", "les", "des", "du", "et", "vous", "votre", "avec", "pour", "dans", "que", "une", "semaine", "semaines", "je", "mon"],
        "de": ["der", "die", "das", "und", "du", "dein", "mit", "für", "in", "ist", "ein", "eine", "woche", "wochen", "ich", "mein"],
    ]

    /// The language of `text` as an ISO 639-1 code, or nil when it is too short or mixed to tell.
    static func detect(_ text: String) -> String? {
        var letters = 0
        var scripts: [String: Int] = [:]
        for scalar in text.unicodeScalars where scalar.properties.isAlphabetic {
            letters += 1
            switch scalar.value {
            case 0x0600...0x06FF, 0x0750...0x077F: scripts["ar", default: 0] += 1
            case 0x0400...0x04FF: scripts["ru", default: 0] += 1
            case 0x4E00...0x9FFF: scripts["zh", default: 0] += 1
            case 0x3040...0x30FF: scripts["ja", default: 0] += 1
            case 0xAC00...0xD7AF: scripts["ko", default: 0] += 1
            case 0x0590...0x05FF: scripts["he", default: 0] += 1
            case 0x0900...0x097F: scripts["hi", default: 0] += 1
            default: break
            }
        }
        guard letters >= 12 else { return nil }
        if let (script, count) = scripts.max(by: { $0.value < $1.value }), Double(count) > Double(letters) * 0.3 { return script }
        let words = text.lowercased().split { !$0.isLetter }.map(String.init)
        var hits = markers.mapValues { marker in words.filter(marker.contains).count }
        guard let best = hits.max(by: { $0.value < $1.value }), best.value >= 3 else { return nil }
        hits[best.key] = nil
        let runnerUp = hits.values.max() ?? 0
        return Double(best.value) >= Double(runnerUp) * 1.5 ? best.key : nil
    }

    /// What the person reads of an output: option summaries and details, or a program's
    /// title, goal, session names, notes and markdown. Exercise names are left out:
    /// "Squats" and "RDL" are the trade's words in any language.
    static func userText(of step: PipelineStep, output: JSONValue) -> String {
        switch step {
        case .goalOptions, .goalOptionsEdit:
            return (output["options"]?.arrayValue ?? []).flatMap { option in
                [option["summary"]?.stringValue, option["detail"]?.stringValue].compactMap { $0 }
            }.joined(separator: "\n")
        case .programDraft, .programEdit:
            let program = output["program_json"] ?? .null
            var parts = [program["title"]?.stringValue, program["goal"]?.stringValue].compactMap { $0 }
            parts += (program["safety_notes"]?.arrayValue ?? []).compactMap(\.stringValue)
            parts += (program["progression"]?.arrayValue ?? []).compactMap { $0["focus"]?.stringValue }
            for session in program["sessions"]?.arrayValue ?? [] {
                parts += [session["name"]?.stringValue].compactMap { $0 }
                parts += (session["exercises"]?.arrayValue ?? []).compactMap { $0["notes"]?.stringValue }
            }
            return parts.joined(separator: "\n")
        }
    }

    /// The intake's free-text answers, the person's own words.
    static func intakeText(_ record: LocalIntakeData) -> String {
        [record.goals, record.timeline, record.experienceLevel, record.frequency, record.currentRoutine, record.pastAttempts,
         record.hobbySports, record.physicalBaseline, record.mobility, record.injuries, record.healthNuances, record.activityLevel,
         record.sleep, record.nutrition, record.environment, record.movementPrefs, record.coachingStyle, record.anythingElse]
            .compactMap { $0 }.joined(separator: "\n")
    }

    /// `output.language`; nil when neither the scenario nor the intake says which language to expect.
    static func check(_ step: PipelineStep, output: JSONValue, fixture: Fixture, expected scenarioLanguage: String?) -> CheckResult? {
        let source: String
        let expected: String
        if let scenarioLanguage {
            (source, expected) = ("the scenario expects it", scenarioLanguage)
        } else if let detected = detect(intakeText(fixture.record)) {
            (source, expected) = ("the intake is written in it", detected)
        } else {
            return nil
        }
        guard let found = detect(userText(of: step, output: output)) else {
            return .pass("output.language", "too little text to tell its language; expected \(expected) (\(source))")
        }
        return found == expected
            ? .pass("output.language", "written in \(expected), as \(source)")
            : .fail("output.language", "written in \(found), not \(expected) (\(source))")
    }
}
