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

    /// The language of the intake's own words, found once per record: every step asks.
    static func intakeLanguage(_ record: LocalIntakeData) -> String? {
        let text = intakeText(record)
        return intakeLanguages.value(for: text) { detect(text) }
    }

    private static let intakeLanguages = SharedCache<String, String?>()

    /// The languages in the order `detect` counts them.
    static let languages = Array(markers.keys).sorted()

    /// Each marker word, packed into a number (its UTF-8 bytes, at most 8), with the
    /// indexes in `languages` of the languages it marks: one lookup per word, no string built.
    static let languagesByPackedMarker: [UInt64: [Int]] = {
        var index: [UInt64: [Int]] = [:]
        for (language, words) in markers {
            let position = languages.firstIndex(of: language)!
            for word in words {
                precondition(word.utf8.count <= 8, "marker words are at most 8 bytes: \(word)")
                index[pack(Array(word.utf8)[...]), default: []].append(position)
            }
        }
        return index
    }()

    private static func pack(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { ($0 << 8) | UInt64($1) }
    }

    /// Non-Latin scripts told by the lead byte of their letters, with the lead bytes.
    private static let scripts: [(code: String, leads: ClosedRange<UInt8>)] = [
        ("ar", 0xD8...0xDB), ("ru", 0xD0...0xD3), ("he", 0xD6...0xD7), ("hi", 0xE0...0xE0), ("ja", 0xE3...0xE3), ("zh", 0xE4...0xE9),
        ("ko", 0xEA...0xED),
    ]

    /// The language of `text` as an ISO 639-1 code, or nil when it is too short or mixed to tell.
    ///
    /// One pass over the UTF-8 bytes: a gate asks this of every output. A non-Latin
    /// script is told by the lead byte of its letters; Latin-script languages by their
    /// common words.
    static func detect(_ text: String) -> String? {
        var letters = 0
        var scriptCounts = [Int](repeating: 0, count: scripts.count)
        var hits = [Int](repeating: 0, count: languages.count)
        var word: UInt64 = 0
        var wordLength = 0
        func endWord() {
            if wordLength > 0, wordLength <= 8, let marked = languagesByPackedMarker[word] {
                for language in marked { hits[language] += 1 }
            }
            word = 0
            wordLength = 0
        }
        func add(_ byte: UInt8) {
            word = (word << 8) | UInt64(byte)
            wordLength += 1
        }
        for byte in text.utf8 {
            switch byte {
            case 0x41...0x5A, 0x61...0x7A:
                letters += 1
                add(byte | 0x20)
            case 0x80...0xBF:
                add(byte)
            case 0xC0...0xFF:
                letters += 1
                add(byte)
                if let script = scripts.firstIndex(where: { $0.leads.contains(byte) }) { scriptCounts[script] += 1 }
            default:
                endWord()
            }
        }
        endWord()
        guard letters >= 12 else { return nil }
        if let top = scriptCounts.indices.max(by: { scriptCounts[$0] < scriptCounts[$1] }), Double(scriptCounts[top]) > Double(letters) * 0.3 {
            return scripts[top].code
        }
        guard let best = hits.indices.max(by: { hits[$0] < hits[$1] }), hits[best] >= 3 else { return nil }
        let runnerUp = hits.indices.filter { $0 != best }.map { hits[$0] }.max() ?? 0
        return Double(hits[best]) >= Double(runnerUp) * 1.5 ? languages[best] : nil
    }

    /// What the person reads of an output: option summaries and details, or a program's
    /// title, goal, session names, notes and markdown. Exercise names are left out:
    /// "Squats" and "RDL" are the trade's words in any language.
    static func userText(of step: PipelineStep, output: JSONValue) -> String {
        switch step.traits.output {
        case .options:
            return GoalOptionChecks.optionTexts(output).joined(separator: "\n")
        case .program:
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
        } else if let detected = intakeLanguage(fixture.record) {
            (source, expected) = ("the intake is written in it", detected)
        } else {
            return nil
        }
        // The markdown is what the app shows, so it is judged on its own: a Spanish
        // program_json under an English markdown is not "mixed", it is wrong.
        let parts = [("", userText(of: step, output: output)), ("the markdown is ", output["program_markdown"]?.stringValue.map(withoutBold) ?? "")]
        let found = parts.compactMap { part in detect(part.1).map { (part.0, $0) } }
        guard !found.isEmpty else {
            return .pass("output.language", "too little text to tell its language; expected \(expected) (\(source))")
        }
        if let wrong = found.first(where: { $0.1 != expected }) {
            return .fail("output.language", "\(wrong.0.isEmpty ? "" : wrong.0)written in \(wrong.1), not \(expected) (\(source))")
        }
        return .pass("output.language", "written in \(expected), as \(source)")
    }

    /// Markdown without its bold spans: exercise names are the trade's words in any language.
    static func withoutBold(_ markdown: String) -> String {
        var kept: [UInt8] = []
        kept.reserveCapacity(markdown.utf8.count)
        var inBold = false
        var previousWasStar = false
        for byte in markdown.utf8 {
            if byte == UInt8(ascii: "*") {
                if previousWasStar {
                    inBold.toggle()
                    kept.append(UInt8(ascii: " "))
                    previousWasStar = false
                } else {
                    previousWasStar = true
                }
                continue
            }
            if previousWasStar, !inBold { kept.append(UInt8(ascii: "*")) }
            previousWasStar = false
            if !inBold { kept.append(byte) }
        }
        if previousWasStar, !inBold { kept.append(UInt8(ascii: "*")) }
        return String(decoding: kept, as: UTF8.self)
    }
}

extension LocalIntakeData {
    /// The language the person wrote their answers in (ISO 639-1), nil when too little
    /// text to tell: what a program rendered for them is written in.
    public var writtenLanguage: String? { LanguageChecks.intakeLanguage(self) }
}
