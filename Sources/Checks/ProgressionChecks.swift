import Foundation
import Intake
import JSONSchema

/// Whether a program's progression suits where the person is (`advice.yaml`'s
/// `progression_fit`): someone who has trained for years is never told to learn the
/// movements, and where a condition keeps strength rather than building it
/// (pregnancy), no phase loads heavier or peaks.
enum ProgressionChecks {
    /// `program.progression-fits[level]`: nil unless the person has trained for years.
    static func level(program: JSONValue, record: LocalIntakeData, rules: AdviceRules.ProgressionFitRules) -> CheckResult? {
        guard let evidence = experience(in: record.experienceLevel ?? "", rules: rules) else { return nil }
        let name = "program.progression-fits[level]"
        let phases = phases(of: program)
        guard !phases.isEmpty else { return nil }
        for phase in phases {
            if let found = rules.learning.lazy.compactMap({ TextMatching.firstMatch(of: $0, in: phase.focus) }).first {
                return .fail(name, "they have trained for years (\"\(evidence)\"), and weeks \(phase.weeks) tell them to \"\(found)\"")
            }
        }
        return .pass(name, "they have trained for years (\"\(evidence)\"), and no phase starts them over")
    }

    /// `program.progression-fits[CONDITION]` for each condition of the person whose
    /// strength is kept, not built (`keep_for`).
    static func keeping(program: JSONValue, conditions: [String], rules: AdviceRules.ProgressionFitRules) -> [CheckResult] {
        let phases = phases(of: program)
        guard !phases.isEmpty else { return [] }
        return conditions.filter(rules.keepFor.contains).map { condition in
            let name = "program.progression-fits[\(condition)]"
            for phase in phases {
                if let found = rules.building.lazy.compactMap({ TextMatching.firstMatch(of: $0, in: phase.focus) }).first {
                    return .fail(name, "in \(condition) strength is kept, not built, and weeks \(phase.weeks) say \"\(found)\"")
                }
            }
            return .pass(name, "in \(condition) strength is kept, not built, and no phase loads heavier")
        }
    }

    /// What in the person's experience says they have trained for years: a level word
    /// ("advanced") with no word of a beginner or of starting again beside it, or N years (N at least
    /// `experiencedFromYears`) beside a word for training; nil when nothing does.
    static func experience(in text: String, rules: AdviceRules.ProgressionFitRules) -> String? {
        guard !rules.beginnerWords.contains(where: { TextMatching.firstMatch(of: $0, in: text) != nil }) else { return nil }
        if let level = rules.experiencedWords.lazy.compactMap({ TextMatching.firstMatch(of: $0, in: text) }).first { return level }
        guard rules.trainingWords.contains(where: { TextMatching.firstMatch(of: $0, in: text) != nil }),
              let regex = try? NSRegularExpression(pattern: #"(\d+)\+?\s*(?:yrs?|years?|años)\b"#, options: [.caseInsensitive])
        else { return nil }
        for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let years = Range(match.range(at: 1), in: text).flatMap({ Int(text[$0]) }), years >= rules.experiencedFromYears,
                  let found = Range(match.range, in: text)
            else { continue }
            return String(text[found])
        }
        return nil
    }

    private static func phases(of program: JSONValue) -> [(weeks: String, focus: String)] {
        (program["progression"]?.arrayValue ?? []).compactMap { phase in
            guard let focus = phase["focus"]?.stringValue else { return nil }
            return (phase["weeks"]?.stringValue ?? "?", focus)
        }
    }
}
