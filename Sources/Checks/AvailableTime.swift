import Foundation
import Intake
import JSONSchema

/// The time a person has for a session, as their own words name it: "45 minutes",
/// "an hour max", "media hora". Read from the intake (never a scenario), or from an
/// edit's feedback when it names a time.
public struct AvailableTime: Sendable, Hashable {
    /// The usual session, in minutes: the first sentence that names a time, and the
    /// least it names ("Lunch is 1 hour, so 40 minutes of actual workout" is 40).
    public var usual: Int
    /// The longest time named: the most a session may take, in minutes.
    public var longest: Int
    /// Where it was read, for a message: `anythingElse: "An hour max, before work."`.
    public var source: String

    /// A phrase that names a time in words, and the minutes it names.
    public struct Phrase: Sendable, Hashable {
        public var words: String
        public var minutes: Int

        public init(words: String, minutes: Int) {
            self.words = words
            self.minutes = minutes
        }
    }

    /// How the time is read (`advice.yaml`'s `session_time`).
    public struct Rules: Sendable, Hashable {
        /// The intake fields read, in order: the first that names a time is the answer.
        public var fields: [String]
        /// The share of the usual time a session fills at least.
        public var floor: Double
        public var phrases: [Phrase]

        public init(fields: [String], floor: Double, phrases: [Phrase]) {
            self.fields = fields
            self.floor = floor
            self.phrases = phrases
        }
    }

    /// A number of minutes or hours: `45 min`, `1 hour`, `1.5 h`, `30 minutos`.
    private static let timePattern = try! NSRegularExpression(
        pattern: #"(\d+(?:[.,]\d+)?)\s*(hours?|hrs?|h|horas?|minutes?|mins?|minutos?|min)\b"#, options: [.caseInsensitive])

    /// Where a sentence ends: `.`, `!`, `?` or `;` before a space or the end, or a line break.
    private static let sentenceEnd = try! NSRegularExpression(pattern: #"[.!?;](?=\s|$)|\n"#)

    /// The times `text` names, each with the sentence it is in (0 for the first), in
    /// the order it names them, between 10 minutes and 3 hours.
    static func times(in text: String, rules: Rules) -> [(sentence: Int, minutes: Int)] {
        let lowered = text.lowercased()
        // Most answers name no time at all: nothing to read without a digit or a phrase.
        guard lowered.contains(where: \.isNumber) || rules.phrases.contains(where: { lowered.contains($0.words) }) else { return [] }
        let whole = NSRange(lowered.startIndex..., in: lowered)
        var found: [(at: Int, length: Int, minutes: Int)] = []
        for match in timePattern.matches(in: lowered, range: whole) {
            guard let numberRange = Range(match.range(at: 1), in: lowered), let unitRange = Range(match.range(at: 2), in: lowered),
                  let number = Double(lowered[numberRange].replacingOccurrences(of: ",", with: ".")) else { continue }
            let minutes = lowered[unitRange].hasPrefix("h") ? number * 60 : number
            found.append((match.range.location, match.range.length, Int(minutes.rounded())))
        }
        // Longer phrases first, so "half an hour" is not read as "an hour".
        for phrase in rules.phrases.sorted(by: { $0.words.count > $1.words.count }) {
            let pattern = "\\b" + NSRegularExpression.escapedPattern(for: phrase.words) + "\\b"
            guard lowered.contains(phrase.words), let regex = CompiledPatterns.shared.regex(pattern) else { continue }
            for match in regex.matches(in: lowered, range: whole) {
                let range = match.range
                let overlaps = found.contains { range.location < $0.at + $0.length && $0.at < range.location + range.length }
                if !overlaps { found.append((range.location, range.length, phrase.minutes)) }
            }
        }
        let ends = sentenceEnd.matches(in: lowered, range: whole).map(\.range.location)
        return found.sorted { $0.at < $1.at }
            .map { time in (ends.filter { $0 < time.at }.count, time.minutes) }
            .filter { (10...180).contains($0.minutes) }
    }

    /// The time `text` names; nil when it names none. `label` says where the text is from.
    public static func read(_ text: String, label: String, rules: Rules) -> AvailableTime? {
        let times = times(in: text, rules: rules)
        guard let sentence = times.first?.sentence, let longest = times.map(\.minutes).max(),
              let first = times.filter({ $0.sentence == sentence }).map(\.minutes).min() else { return nil }
        let quoted = text.count > 80 ? String(text.prefix(77)) + "..." : text
        return AvailableTime(usual: first, longest: longest, source: "\(label): \"\(quoted)\"")
    }

    /// The time the first of the rules' fields that names one names; nil when none does.
    public static func read(_ record: LocalIntakeData, rules: Rules) -> AvailableTime? {
        for key in rules.fields {
            guard let field = LocalIntakeData.fields.first(where: { $0.key == key }), let text = record.displayValue(of: field),
                  let time = read(text, label: key, rules: rules) else { continue }
            return time
        }
        return nil
    }
}
