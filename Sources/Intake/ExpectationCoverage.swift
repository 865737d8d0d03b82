import Foundation
import JSONSchema

/// The scenario expectations an intake record calls for.
///
/// The domain checks take days per week, session length, equipment and movements
/// to avoid only from a scenario's `expect`: when the record answers the question
/// but the scenario declares nothing, the check would silently not run. A scenario
/// that means to leave a check off declares the expectation `null`.
enum ExpectationCoverage {
    /// An expectation the record calls for and the scenario does not declare.
    struct Gap: Hashable, Sendable {
        /// The `expect` key, e.g. `equipment`.
        var key: String
        var message: String
    }

    /// One `expect` key and the answers that call for it.
    struct Requirement: Sendable {
        var key: String
        /// The intake fields read, by JSON key, in the order they are searched.
        var fields: [(key: String, answer: KeyPath<LocalIntakeData, String?> & Sendable)]
        /// What goes unchecked without the expectation.
        var consequence: String
        /// The part of an answer that calls for the expectation; nil when the answer does not.
        var evidence: @Sendable (String) -> Range<String.Index>?
    }

    static let requirements = [
        Requirement(
            key: "max_days_per_week", fields: [("frequency", \.frequency)],
            consequence: "the days-per-week check (program.days-per-week) cannot run", evidence: wholeAnswer),
        // The app asks no question about session length: people who have a limit
        // state it in their frequency or "anything else" answer.
        Requirement(
            key: "max_session_minutes", fields: [("frequency", \.frequency), ("anythingElse", \.anythingElse)],
            consequence: "the session-length check (program.session-length) cannot hold sessions to that time", evidence: duration),
        Requirement(
            key: "equipment", fields: [("environment", \.environment)],
            consequence: "the equipment check (program.equipment) cannot run", evidence: wholeAnswer),
        Requirement(
            key: "avoid", fields: [("injuries", \.injuries)],
            consequence: "the avoid check (program.avoids) cannot run", evidence: unlessNothingToReport),
    ]

    /// Every requirement the record calls for whose key the scenario's `expect` leaves out
    /// (a key set to `null` is declared).
    static func gaps(record: LocalIntakeData, expect: JSONValue?) -> [Gap] {
        let declared = Set(expect?.objectValue?.keys ?? [])
        return requirements.compactMap { requirement in
            guard !declared.contains(requirement.key) else { return nil }
            for field in requirement.fields {
                guard let answer = record[keyPath: field.answer], let range = requirement.evidence(answer) else { continue }
                let message = "the intake says \(field.key) \"\(quote(answer, around: range))\" but the scenario declares no "
                    + "\(requirement.key), so \(requirement.consequence); add expect.\(requirement.key), "
                    + "or `\(requirement.key): null` to leave it off on purpose"
                return Gap(key: requirement.key, message: message)
            }
            return nil
        }
    }

    /// Any answer with words in it.
    static func wholeAnswer(_ answer: String) -> Range<String.Index>? {
        answer.contains { !$0.isWhitespace } ? answer.startIndex..<answer.endIndex : nil
    }

    /// Answers that only say there is nothing to report, after case and end punctuation are dropped.
    static let nothingToReport: Set<String> = [
        "none", "no", "nope", "nothing", "n/a", "na", "nil", "-", "no injuries", "none really", "nothing really",
        "not really", "nada", "ninguna", "ninguno",
    ]

    /// The answer, unless all it says is "none" or the like.
    static func unlessNothingToReport(_ answer: String) -> Range<String.Index>? {
        let normalized = answer.lowercased().trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: ".!,;:")))
        return nothingToReport.contains(normalized) ? nil : wholeAnswer(answer)
    }

    /// A length of time: "30 min", "20-25 minutes", "2-hour", "an hour", "media hora".
    static let durationPattern =
        #"(?<![\p{L}\p{N}])(?:\d+(?:\s*(?:-|–|to|or|,)\s*\d+)?\s*-?\s*(?:minutes?|minutos?|mins?|hours?|horas?|hrs?|h)|(?:an?|one|half an|una|media)\s+(?:hour|hora))(?![\p{L}\p{N}])"#

    /// The first length of time the answer names.
    static func duration(_ answer: String) -> Range<String.Index>? {
        let regex = CompiledPatterns.shared.regex(durationPattern, options: [.caseInsensitive])
        return regex?.firstMatch(in: answer, range: NSRange(answer.startIndex..., in: answer)).flatMap { Range($0.range, in: answer) }
    }

    /// The answer on one line, or about 80 characters of it around `range` when it is longer.
    static func quote(_ answer: String, around range: Range<String.Index>, limit: Int = 80) -> String {
        let flat = { (text: Substring) in text.split(whereSeparator: \.isNewline).joined(separator: " ") }
        guard answer.count > limit else { return flat(answer[...]) }
        let start = answer.index(range.lowerBound, offsetBy: -limit / 3, limitedBy: answer.startIndex) ?? answer.startIndex
        let end = answer.index(start, offsetBy: limit, limitedBy: answer.endIndex) ?? answer.endIndex
        return (start > answer.startIndex ? "…" : "") + flat(answer[start..<end]) + (end < answer.endIndex ? "…" : "")
    }
}
