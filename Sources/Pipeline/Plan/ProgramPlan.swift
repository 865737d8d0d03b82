import Checks
import Foundation
import Intake
import JSONSchema

/// What the backend decides about a program before a model writes it, from the
/// intake record alone: its length, the phases that cover every week, the training
/// days, the session minutes and the equipment (`prompts/program-plan.yaml`).
public struct ProgramPlan: Sendable, Hashable {
    /// A stretch of weeks with one aim.
    public struct Phase: Sendable, Hashable {
        public var weeks: ClosedRange<Int>
        /// `foundation`, `build`, `peak`, `lighter` or `taper`.
        public var kind: String
        /// One sentence for the person, in their language.
        public var focus: String

        /// "1-4", or "12" for a single week.
        public var weekRange: String { weeks.count == 1 ? "\(weeks.lowerBound)" : "\(weeks.lowerBound)-\(weeks.upperBound)" }
    }

    public var weeks: Int
    /// Where the length came from: "the timeline \"in 12 weeks\"", "an event goal", "the default".
    public var weeksReason: String
    public var phases: [Phase]
    public var days: Int
    public var daysReason: String
    public var minutes: Int
    public var minutesReason: String
    /// Bodyweight always; everything the answers name, or nil when they allow any.
    public var equipment: [Equipment]?
    /// Their experience answer reads as a beginner's: at most `beginner_maximum` days, no advanced exercise.
    public var beginner = false

    /// The template variable that shows the plan.
    public static let variableName = "program_plan"

    /// The plan as a template shows it (`program_plan`), one line each.
    public var lines: [String] {
        var lines = ["\(weeks) weeks (\(weeksReason))"]
        lines += phases.map { "Week\($0.weeks.count == 1 ? "" : "s") \($0.weekRange): \($0.kind). \($0.focus)" }
        lines.append("\(days) training days a week (\(daysReason)), each session \(minutes) minutes (\(minutesReason))")
        lines.append("Equipment: " + (equipment.map { $0.map(\.rawValue).joined(separator: ", ") } ?? "any (a full gym)"))
        return lines
    }
}

/// The rules of `prompts/program-plan.yaml`.
public struct ProgramPlanRules: Sendable, Hashable {
    struct GoalKind: Sendable, Hashable {
        var kind: String
        var words: [String]
        var weeks: Int
    }

    struct PhaseShape: Sendable, Hashable {
        var upTo: Int
        var kinds: [String]
    }

    var defaultWeeks = 8
    var weekBounds = 4...24
    var goalKinds: [GoalKind] = []
    var shapes: [PhaseShape] = []
    var lastWeeks = 1
    var eventLast = "taper"
    /// Focus sentences by phase kind, then language code.
    var focus: [String: [String: String]] = [:]
    var defaultDays = 3
    var maximumDays = 6
    var beginnerMaximumDays = 4
    var beginnerWords: [String] = []
    /// At most this many days for a condition id of `conditions.yaml`.
    var conditionMaximumDays: [String: Int] = [:]
    /// The intake fields a session time in words is read from, and the phrases, longest first.
    var minuteFields: [String] = []
    var minutePhrases: [MinutePhrase] = []

    struct MinutePhrase: Sendable, Hashable {
        var phrase: String
        var minutes: Int
    }
    var defaultMinutes = 45
    var minuteBounds = 15...90
    /// How the sessions are laid out and what may be prescribed; nil when the file has no `sessions`.
    var sessions: SessionLayoutRules?

    /// The file's place in a project.
    public static func file(in layout: ProjectLayout) -> URL { layout.prompts.appendingPathComponent("program-plan.yaml") }

    /// The plan for `record`, within `limits` (what its answers bound).
    /// A span `confirmedGoal` (the words of the goal option they chose) states comes
    /// before the intake's timeline: it is the promise they accepted.
    /// `confirmedWeeks` (the weeks a pinned option carries, the backend's own reading of
    /// their timeline) comes before both, and the option's words are then never read.
    public func plan(
        for record: LocalIntakeData, limits: IntakeLimits, conditions: [String] = [], confirmedGoal: String? = nil, confirmedWeeks: Int? = nil
    ) -> ProgramPlan {
        let language = record.writtenLanguage == "es" ? "es" : "en"
        let goalText = [record.goals, record.timeline].compactMap { $0 }.joined(separator: "\n")
        let kind = goalKinds.first { kind in kind.words.contains { TextMatching.mentions($0, in: goalText) } }

        var weeks = kind?.weeks ?? defaultWeeks
        var weeksReason = kind.map { "the usual length for \($0.kind == "event" ? "an" : "a") \($0.kind) goal" } ?? "the default length"
        if let timeline = record.timeline, let stated = Timespan.weeks(in: timeline) {
            weeks = Int(stated.upperBound.rounded())
            weeksReason = "the timeline \"\(timeline.prefix(60))\""
        }
        if let confirmedWeeks {
            weeks = confirmedWeeks
            weeksReason = "the goal they confirmed"
        } else if let confirmedGoal, let stated = Timespan.weeks(in: confirmedGoal), stated.lowerBound >= 2 {
            weeks = Int(stated.lowerBound.rounded())
            weeksReason = "the goal they confirmed"
        }
        if !weekBounds.contains(weeks) {
            weeks = min(max(weeks, weekBounds.lowerBound), weekBounds.upperBound)
            weeksReason += ", kept within \(weekBounds.lowerBound)-\(weekBounds.upperBound) weeks"
        }

        var days = limits.days ?? defaultDays
        var daysReason = limits.days.map { "they can train \($0)" } ?? "their answers name no number"
        let beginner = beginnerWords.contains { TextMatching.mentions($0, in: record.experienceLevel ?? "") }
        if days > maximumDays {
            days = maximumDays
            daysReason += "; a rest day every week"
        }
        if beginner, days > beginnerMaximumDays {
            days = beginnerMaximumDays
            daysReason += "; at most \(beginnerMaximumDays) for a beginner"
        }
        for condition in conditions {
            if let maximum = conditionMaximumDays[condition], days > maximum {
                days = maximum
                daysReason += "; at most \(maximum) with \(condition)"
            }
        }

        let spoken = limits.sessionMinutes == nil ? minutesInWords(record) : nil
        var minutes = limits.sessionMinutes ?? spoken?.minutes ?? defaultMinutes
        var minutesReason = limits.sessionMinutes.map { "they have \($0)" } ?? spoken.map { "they have \"\($0.phrase)\"" } ?? "their answers name no time"
        if !minuteBounds.contains(minutes) {
            minutes = min(max(minutes, minuteBounds.lowerBound), minuteBounds.upperBound)
            minutesReason += ", kept within \(minuteBounds.lowerBound)-\(minuteBounds.upperBound)"
        }

        return ProgramPlan(
            weeks: weeks, weeksReason: weeksReason, phases: phases(weeks: weeks, event: kind?.kind == "event", language: language),
            days: days, daysReason: daysReason, minutes: minutes, minutesReason: minutesReason, equipment: limits.equipment, beginner: beginner)
    }

    /// The first session time `minuteFields` name in words ("half an hour"), the longest
    /// phrase taking precedence over the shorter ones inside it ("an hour" in "half an hour").
    func minutesInWords(_ record: LocalIntakeData) -> (phrase: String, minutes: Int)? {
        for field in minuteFields {
            guard let key = LocalIntakeData.fields.first(where: { $0.key == field }), let text = record.displayValue(of: key) else { continue }
            for entry in minutePhrases where TextMatching.mentions(entry.phrase, in: text) { return (entry.phrase, entry.minutes) }
        }
        return nil
    }

    /// Phases covering weeks 1 to `weeks` with no gap: the last takes `lastWeeks`, the
    /// others share the rest, the earlier ones taking a spare week.
    func phases(weeks: Int, event: Bool, language: String) -> [ProgramPlan.Phase] {
        var kinds = (shapes.first { weeks <= $0.upTo } ?? shapes.last)?.kinds ?? ["foundation", "lighter"]
        if event, kinds.count > 1 { kinds[kinds.count - 1] = eventLast }
        let last = min(lastWeeks, weeks - 1)
        let leading = kinds.count - 1
        let shared = weeks - last
        var phases: [ProgramPlan.Phase] = []
        var start = 1
        for (index, kind) in kinds.enumerated() {
            let length = index == leading ? last : shared / leading + (index < shared % leading ? 1 : 0)
            guard length > 0 else { continue }
            let sentence = focus[kind]?[language] ?? focus[kind]?["en"] ?? kind
            phases.append(ProgramPlan.Phase(weeks: start...(start + length - 1), kind: kind, focus: sentence))
            start += length
        }
        return phases
    }

    /// The rules of `prompts/program-plan.yaml`; nil when the project has none. A
    /// problem names the file, the line and what was expected.
    static func load(layout: ProjectLayout, patterns: [String] = []) throws(PromptError) -> ProgramPlanRules? {
        guard let file = try RulesFile.read(file(in: layout), layout: layout) else { return nil }
        let document = file.document
        let problem = file.problem
        func value(_ tokens: [String]) -> JSONValue? {
            var value: JSONValue? = document.value
            for token in tokens { value = Int(token).flatMap { value?[$0] } ?? value?[token] }
            return value
        }
        func number(_ tokens: [String], in range: ClosedRange<Int>) throws(PromptError) -> Int {
            guard let number = value(tokens)?.intValue, range.contains(number) else {
                throw problem(tokens, "`\(tokens.joined(separator: "."))` must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
        func strings(_ tokens: [String]) throws(PromptError) -> [String] {
            guard let list = value(tokens)?.arrayValue, !list.isEmpty, case let words = list.compactMap(\.stringValue), words.count == list.count else {
                throw problem(tokens, "`\(tokens.joined(separator: "."))` must be a non-empty list of words or phrases")
            }
            return words
        }
        var rules = ProgramPlanRules()
        rules.defaultWeeks = try number(["weeks", "default"], in: 1...52)
        rules.weekBounds = try number(["weeks", "minimum"], in: 1...52)...number(["weeks", "maximum"], in: 1...52)
        for index in (value(["weeks", "by_goal"])?.arrayValue ?? []).indices {
            let at = ["weeks", "by_goal", String(index)]
            guard let kind = value(at + ["kind"])?.stringValue else { throw problem(at + ["kind"], "each goal kind needs a `kind` name") }
            rules.goalKinds.append(GoalKind(kind: kind, words: try strings(at + ["words"]), weeks: try number(at + ["weeks"], in: 1...52)))
        }
        for index in (value(["phases", "by_length"])?.arrayValue ?? []).indices {
            let at = ["phases", "by_length", String(index)]
            let kinds = try strings(at + ["kinds"])
            guard (2...4).contains(kinds.count) else { throw problem(at + ["kinds"], "a plan has 2 to 4 phases") }
            rules.shapes.append(PhaseShape(upTo: try number(at + ["up_to"], in: 1...52), kinds: kinds))
        }
        guard !rules.shapes.isEmpty else { throw problem(["phases", "by_length"], "`phases.by_length` must list the phases by the plan's length") }
        rules.lastWeeks = try number(["phases", "last_weeks"], in: 1...4)
        rules.eventLast = value(["phases", "event_last"])?.stringValue ?? rules.eventLast
        guard case .object(let focus)? = value(["phases", "focus"]) else {
            throw problem(["phases", "focus"], "`phases.focus` must map each phase kind to its sentence by language")
        }
        for member in focus {
            rules.focus[member.key] = Dictionary(uniqueKeysWithValues: (member.value.objectValue ?? JSONObject()).members.compactMap { language in
                language.value.stringValue.map { (language.key, $0) }
            })
        }
        for kind in Set(rules.shapes.flatMap(\.kinds) + [rules.eventLast]) where rules.focus[kind]?["en"] == nil {
            throw problem(["phases", "focus"], "the phase `\(kind)` has no English focus sentence")
        }
        rules.defaultDays = try number(["days", "default"], in: 1...7)
        rules.maximumDays = try number(["days", "maximum"], in: 1...7)
        rules.beginnerMaximumDays = try number(["days", "beginner_maximum"], in: 1...7)
        rules.beginnerWords = try strings(["days", "beginner_words"])
        for member in value(["days", "by_condition"])?.objectValue?.members ?? [] {
            rules.conditionMaximumDays[member.key] = try number(["days", "by_condition", member.key], in: 1...7)
        }
        rules.minuteFields = (value(["minutes", "fields"])?.arrayValue ?? []).compactMap(\.stringValue)
        let textFields = Set(LocalIntakeData.fields.filter(\.isText).map(\.key))
        for field in rules.minuteFields where !textFields.contains(field) {
            throw problem(["minutes", "fields"], "`\(field)` is not a free-text intake field")
        }
        for member in value(["minutes", "phrases"])?.objectValue?.members ?? [] {
            rules.minutePhrases.append(MinutePhrase(phrase: member.key.lowercased(), minutes: try number(["minutes", "phrases", member.key], in: 5...240)))
        }
        rules.minutePhrases.sort { $0.phrase.count > $1.phrase.count }
        rules.defaultMinutes = try number(["minutes", "default"], in: 5...240)
        rules.minuteBounds = try number(["minutes", "minimum"], in: 5...240)...number(["minutes", "maximum"], in: 5...240)
        rules.sessions = try SessionLayoutRules.read(file, patterns: patterns)
        return rules
    }
}
