import Checks
import Foundation
import Intake
import JSONSchema

/// What a person's intake says about the goal they want, read by the backend before
/// any model writes an option (`prompts/coaching/goal-kinds.yaml`): what they want, in
/// the order they name it, the event and the sport they name, their timeline in weeks,
/// and the limits every option keeps to.
public struct GoalFrame: Sendable, Hashable {
    /// Ids of `wants` in goal-kinds.yaml, in the order the goals first name each.
    public var wants: [String]
    /// The event their goals or timeline name, in their words ("half marathon").
    public var event: String?
    /// The sport their answers name ("basketball").
    public var sport: String?
    /// Their timeline in weeks, from their own words; nil when it states none.
    public var weeks: Int?
    /// The month their timeline names ("Para diciembre"), when it states no weeks.
    public var month: String?
    public var days: Int
    public var minutes: Int
    /// How messages name their first condition ("a knee injury").
    public var condition: String?
    /// The ids of every condition of `conditions.yaml` their answers name.
    public var conditionIDs: [String] = []
    /// Why no option may aim at losing weight; nil when nothing rules it out.
    public var noWeightLoss: String?
    /// No option may speak of weight, size, body fat or food at all: their answers show
    /// signs of disordered eating.
    public var noWeightTalk: Bool
    /// Their weight in pounds.
    public var pounds: Int?
    /// The pounds their goals ask to lose ("lose 15 lbs").
    public var askedLoss: Int?
    /// The targets their goals name in numbers, by the want they serve ("30 push-ups in a row").
    public var targets: [String: String] = [:]
    /// The language the options are written in: `en` or `es`.
    public var language: String
    /// The health goal their answers name (a `topics` entry of the health kind: "blood
    /// pressure"); nil when they name none.
    public var healthTopic: String?
    /// Health words (the `health` want's) that none of their answers uses: an option that
    /// names one speaks of a condition they never mentioned.
    public var unnamedHealthWords: [String] = []
    /// The numbers their goal answers hold (goals, timeline, sports, age), which an option may use.
    public var numbers: Set<String> = []
}

/// The rules of `prompts/coaching/goal-kinds.yaml`.
public struct GoalKindRules: Sendable, Hashable {
    struct Want: Sendable, Hashable {
        var id: String
        var words: [String]
    }

    /// The backend's own words for an option, in one language.
    public struct Text: Sendable, Hashable {
        public var summary: String
        public var detail: String
    }

    struct Kind: Sendable, Hashable {
        var id: String
        /// The want it serves; nil for a kind only `fill` adds.
        var serves: String?
        /// `no-weight-targets`, `underweight`: people it is never offered to.
        var neverFor: [String]
        /// Wants an option of this kind already serves, so none is offered for them beside it.
        var covers: [String]
        /// What the model is asked to write, with placeholders.
        var brief: String
        /// By language code.
        var fallback: [String: Text]
        /// The text when their goals name a target for the want it serves (`{target}`).
        var withTarget: [String: Text] = [:]
        /// The text for someone with a condition, by condition id (`for`).
        var forConditions: [String: [String: Text]] = [:]
        /// Events that are no race or walk, and the text for them (`occasions`, `occasion`).
        var occasions: [String] = []
        var occasion: [String: Text] = [:]
        /// The health goals a `health` kind can be about, in order, with their own text.
        var topics: [HealthTopic] = []
        var topicText: [String: [String: Text]] = [:]
    }

    /// A health goal: found by words of their goals and health answers, or by a condition id.
    struct HealthTopic: Sendable, Hashable {
        var topic: String
        var words: [String]
        var conditions: [String]
    }

    var wants: [Want] = []
    /// Patterns of the targets a want's goals name in numbers, by want id.
    var targets: [String: [NSRegularExpression]] = [:]
    var underweightBMI = 18.5
    var offeredWeeklyPercent = 0.5
    var maximumWeeklyPercent = 1.0
    var gainPoundsAWeek = 0.35
    var defaultWeeks = 12
    var kinds: [Kind] = []
    var fill: [String] = []
    var feedback = OptionFeedbackRules()

    /// The file's place in a project.
    public static func file(in layout: ProjectLayout) -> URL {
        layout.prompts.appendingPathComponent("coaching", isDirectory: true).appendingPathComponent("goal-kinds.yaml")
    }

    /// The kind with this id.
    func kind(_ id: String) -> Kind? { kinds.first { $0.id == id } }

    /// The frame of `record`, with the days and minutes the program plan gives them.
    func frame(for record: LocalIntakeData, days: Int, minutes: Int, knowledge: CoachingKnowledge) -> GoalFrame {
        let goals = [record.goals, record.timeline].compactMap { $0 }.joined(separator: ". ")
        var wants: [String] = []
        for clause in goals.split(whereSeparator: { ".!?;\n".contains($0) }) {
            for want in self.wants where !wants.contains(want.id) && want.words.contains(where: { TextMatching.mentions($0, in: String(clause)) }) {
                wants.append(want.id)
            }
        }
        let conditions = knowledge.conditionLabels(for: record)
        // A condition is served after what they named: a goal is theirs first.
        if !conditions.isEmpty, !wants.contains("health") { wants.append("health") }
        let sportsText = [goals, record.hobbySports, record.frequency].compactMap { $0 }.joined(separator: ". ")
        var weeks = record.timeline.flatMap { Timespan.weeks(in: $0) }.map { Int($0.upperBound.rounded()) }
        if weeks == nil, let goals = record.goals { weeks = Timespan.weeks(in: goals).map { Int($0.upperBound.rounded()) } }
        // "1 year", "a year": 52 weeks, when it is the only span the timeline names ("a
        // year to feel strong, the pull-up in 3 years" sets none). Longer spans set no date.
        if weeks == nil, let timeline = record.timeline {
            let years = (try? NSRegularExpression(pattern: #"\b(?:\d+|one|a|un)\s+(?:years?|años?)\b"#, options: [.caseInsensitive]))?
                .matches(in: timeline, range: NSRange(timeline.startIndex..., in: timeline)).compactMap { Range($0.range, in: timeline).map { timeline[$0].lowercased() } } ?? []
            if years.count == 1, let span = years.first, ["1 ", "one ", "a ", "un "].contains(where: span.hasPrefix) { weeks = 52 }
        }
        let language = record.writtenLanguage == "es" ? "es" : "en"
        // The month as the list spells it ("June", where they wrote "june").
        let months = feedback.months[language] ?? []
        let month = weeks == nil ? record.timeline.flatMap { Self.firstWord(of: months, in: $0) }.flatMap { written in
            months.first { $0.compare(written, options: [.caseInsensitive, .diacriticInsensitive]) == .orderedSame }
        } : nil
        let ruledOut = knowledge.weightTargetsRuledOut(for: record)
        let noWeightLoss = ruledOut ?? underweight(record)
        var targets: [String: String] = [:]
        let goalsText = record.goals ?? ""
        for (want, patterns) in self.targets {
            let found = patterns.flatMap { $0.matches(in: goalsText, range: NSRange(goalsText.startIndex..., in: goalsText)) }
                .sorted { $0.range.location < $1.range.location }
                .compactMap { Range($0.range, in: goalsText).map { String(goalsText[$0]) } }
            let named = Array(found.prefix(3))
            if !named.isEmpty {
                targets[want] = named.count == 1 ? named[0] : named.dropLast().joined(separator: ", ") + (language == "es" ? " y " : " and ") + named.last!
            }
        }
        let conditionIDs = knowledge.conditionIDs(for: record)
        let healthTopic = Self.healthTopic(among: kinds.flatMap(\.topics), goals: goals, conditionIDs: conditionIDs)
        let answers = [record.goals, record.timeline, record.injuries, record.healthNuances, record.mobility, record.physicalBaseline,
            record.anythingElse].compactMap { $0 }.joined(separator: ". ")
        let everything = [answers, record.hobbySports, record.currentRoutine, record.pastAttempts, record.environment, record.movementPrefs]
            .compactMap { $0 }.joined(separator: ". ")
        var frame = GoalFrame(
            wants: wants, event: Self.firstWord(of: words(of: "event"), in: goals),
            sport: Self.firstWord(of: words(of: "sport").filter { $0 != "season" && $0 != "games" }, in: sportsText)?.lowercased(),
            weeks: weeks, month: month, days: days, minutes: minutes, condition: conditions.first, noWeightLoss: noWeightLoss, noWeightTalk: ruledOut != nil,
            pounds: record.weight, askedLoss: Self.askedLoss(in: record.goals ?? ""),
            language: language)
        frame.targets = targets
        frame.conditionIDs = conditionIDs
        frame.healthTopic = healthTopic
        frame.unnamedHealthWords = words(of: "health").filter { !TextMatching.mentions($0, in: everything) }
        let goalAnswers = [record.goals, record.timeline, record.hobbySports].compactMap { $0 }.joined(separator: " ") + (record.age.map { " \($0)" } ?? "")
        frame.numbers = Self.numbers(in: goalAnswers)
        return frame
    }

    func words(of want: String) -> [String] { wants.first { $0.id == want }?.words ?? [] }

    /// The health goal of someone whose goals read `goals`: the topic their goals name
    /// first, else the first whose condition they have; nil when neither.
    static func healthTopic(among topics: [HealthTopic], goals: String, conditionIDs: [String]) -> String? {
        let named = topics.compactMap { topic -> (String, String.Index)? in
            let places = topic.words.filter { TextMatching.mentions($0, in: goals) }
                .compactMap { goals.range(of: $0, options: [.caseInsensitive, .diacriticInsensitive])?.lowerBound }
            return places.min().map { (topic.topic, $0) }
        }
        return named.min { $0.1 < $1.1 }?.0 ?? topics.first { !Set($0.conditions).isDisjoint(with: conditionIDs) }?.topic
    }

    /// The numbers `text` writes ("12", "4,800", "2:08"), without their separators.
    public static func numbers(in text: String) -> Set<String> {
        let regex = try! NSRegularExpression(pattern: #"\d+(?:[.,:]\d+)*"#)
        return Set(regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range, in: text).map { String(text[$0]).filter { $0.isNumber } }
        })
    }

    /// "underweight (BMI 18.2)" when the record's height and weight put them below `underweightBMI`.
    private func underweight(_ record: LocalIntakeData) -> String? {
        guard let pounds = record.weight, let inches = record.height, inches > 0 else { return nil }
        let bmi = 703 * Double(pounds) / Double(inches * inches)
        return bmi < underweightBMI ? "underweight (a body-mass index of \(String(format: "%.1f", bmi)))" : nil
    }

    /// The one of `words` that `text` uses first, as `text` spells it ("triathlon" before
    /// "5K" in "First sprint triathlon… not walk the 5K"); the longer word at one place.
    static func firstWord(of words: [String], in text: String) -> String? {
        let found = words.filter { TextMatching.mentions($0, in: text) }.compactMap { word in
            text.range(of: word, options: [.caseInsensitive, .diacriticInsensitive]).map { (word, $0) }
        }
        let first = found.min { ($0.1.lowerBound, -$0.0.count) < ($1.1.lowerBound, -$1.0.count) }
        return first.map { String(text[$0.1]) } ?? words.first { TextMatching.mentions($0, in: text) }
    }

    /// The pounds a goal asks to lose: "Lose 15 lbs", "lose the 20 lbs".
    static func askedLoss(in goals: String) -> Int? {
        let pattern = #"\b(?:lose|losing|drop|shed|bajar|perder)\b[^.;]{0,24}?\b(\d{1,3})\s*(?:lbs?|pounds?|libras?)\b"#
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]),
              let match = regex.firstMatch(in: goals, range: NSRange(goals.startIndex..., in: goals)),
              let range = Range(match.range(at: 1), in: goals) else { return nil }
        return Int(goals[range])
    }
}

extension GoalKindRules {
    /// The project's goal-kinds.yaml; nil when it has none. A broken value is named by its line.
    static func load(layout: ProjectLayout) throws(PromptError) -> GoalKindRules? {
        guard let file = try RulesFile.read(file(in: layout), layout: layout) else { return nil }
        let root = file.document.value
        func value(_ tokens: [String]) -> JSONValue? {
            var value: JSONValue? = root
            for token in tokens { value = Int(token).flatMap { value?[$0] } ?? value?[token] }
            return value
        }
        func strings(_ tokens: [String], required: Bool = true) throws(PromptError) -> [String] {
            guard let list = value(tokens)?.arrayValue else {
                if required { throw file.problem(tokens, "`\(tokens.joined(separator: "."))` must be a list of words or phrases") }
                return []
            }
            let words = list.compactMap(\.stringValue)
            guard words.count == list.count else { throw file.problem(tokens, "`\(tokens.joined(separator: "."))` must hold only words or phrases") }
            return words
        }
        func number(_ tokens: [String], in range: ClosedRange<Double>) throws(PromptError) -> Double {
            guard let number = value(tokens)?.numberValue, range.contains(number) else {
                throw file.problem(tokens, "`\(tokens.joined(separator: "."))` must be a number from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
        func byLanguage(_ tokens: [String]) throws(PromptError) -> [String: String] {
            guard case .object(let object)? = value(tokens), object["en"]?.stringValue != nil else {
                throw file.problem(tokens, "`\(tokens.joined(separator: "."))` must give a sentence for each language, `en` at least")
            }
            return object.members.reduce(into: [:]) { $0[$1.key] = $1.value.stringValue }
        }
        /// A summary and a detail by language code, `en` at least.
        func byLanguageTexts(_ tokens: [String], what: String) throws(PromptError) -> [String: Text] {
            var texts: [String: Text] = [:]
            guard case .object(let languages)? = value(tokens), languages["en"] != nil else {
                throw file.problem(tokens, "\(what) a summary and a detail in `en` at least")
            }
            for language in languages.members {
                guard let summary = language.value["summary"]?.stringValue, let detail = language.value["detail"]?.stringValue else {
                    throw file.problem(tokens + [language.key], "each language needs a `summary` and a `detail`")
                }
                texts[language.key] = Text(summary: summary, detail: detail)
            }
            return texts
        }
        var rules = GoalKindRules()
        guard case .object(let wants)? = value(["wants"]) else { throw file.problem(["wants"], "`wants` must map each want to its words") }
        for member in wants.members { rules.wants.append(Want(id: member.key, words: try strings(["wants", member.key]))) }
        let known = Set(rules.wants.map(\.id))
        if case .object(let targets)? = value(["targets"]) {
            for member in targets.members {
                guard known.contains(member.key) else { throw file.problem(["targets", member.key], "`\(member.key)` is no want of `wants`") }
                var patterns: [NSRegularExpression] = []
                for (index, pattern) in try strings(["targets", member.key]).enumerated() {
                    guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else {
                        throw file.problem(["targets", member.key, String(index)], "not a regular expression: \(pattern)")
                    }
                    patterns.append(regex)
                }
                rules.targets[member.key] = patterns
            }
        }
        rules.underweightBMI = try number(["underweight_bmi"], in: 10...30)
        rules.offeredWeeklyPercent = try number(["weight", "offered_weekly_percent"], in: 0...2)
        rules.maximumWeeklyPercent = try number(["weight", "maximum_weekly_percent"], in: 0...2)
        rules.gainPoundsAWeek = try number(["weight", "gain_pounds_a_week"], in: 0...2)
        rules.defaultWeeks = Int(try number(["weight", "default_weeks"], in: 1...52))
        for index in (value(["kinds"])?.arrayValue ?? []).indices {
            let at = ["kinds", String(index)]
            guard let id = value(at + ["id"])?.stringValue, let brief = value(at + ["brief"])?.stringValue else {
                throw file.problem(at, "each kind needs an `id` and a `brief`")
            }
            let serves = value(at + ["serves"])?.stringValue
            if let serves, !known.contains(serves) {
                let hint = ClosestMatch.suggestion(for: serves, among: known.sorted()).map { " (did you mean \($0)?)" } ?? ""
                throw file.problem(at + ["serves"], "`\(serves)` is no want of `wants`\(hint)")
            }
            func texts(_ key: String) throws(PromptError) -> [String: Text] {
                try byLanguageTexts(at + [key], what: "kind `\(id)` needs a `\(key)`")
            }
            var kind = Kind(
                id: id, serves: serves, neverFor: try strings(at + ["never_for"], required: false), covers: try strings(at + ["covers"], required: false),
                brief: brief, fallback: try texts("fallback"))
            if value(at + ["with_target"]) != nil { kind.withTarget = try texts("with_target") }
            if value(at + ["occasion"]) != nil { kind.occasion = try texts("occasion") }
            kind.occasions = try strings(at + ["occasions"], required: false)
            if case .object(let conditions)? = value(at + ["for"]) {
                for member in conditions.members {
                    kind.forConditions[member.key] = try byLanguageTexts(at + ["for", member.key], what: "kind `\(id)` for `\(member.key)` needs")
                }
            }
            for index in (value(at + ["topics"])?.arrayValue ?? []).indices {
                let topicAt = at + ["topics", String(index)]
                guard let topic = value(topicAt + ["topic"])?.stringValue else { throw file.problem(topicAt, "each topic needs a `topic`") }
                guard case .object(let text)? = value(at + ["topic_text", topic]), text["en"] != nil else {
                    throw file.problem(topicAt + ["topic"], "topic `\(topic)` needs a `topic_text` entry of its kind, in `en` at least")
                }
                kind.topics.append(HealthTopic(
                    topic: topic, words: try strings(topicAt + ["words"], required: false), conditions: try strings(topicAt + ["conditions"], required: false)))
                kind.topicText[topic] = try byLanguageTexts(at + ["topic_text", topic], what: "topic `\(topic)` needs")
            }
            rules.kinds.append(kind)
        }
        rules.fill = try strings(["fill"])
        for id in rules.fill where rules.kind(id) == nil {
            throw file.problem(["fill"], "`\(id)` in `fill` is no kind of `kinds`")
        }
        var feedback = OptionFeedbackRules()
        feedback.drop = try strings(["feedback", "drop"])
        feedback.wholeSet = try strings(["feedback", "whole_set"])
        feedback.ignored = try strings(["feedback", "ignored"])
        feedback.wishes = try strings(["feedback", "wishes"])
        if case .object(let topics)? = value(["feedback", "topics"]) {
            for member in topics.members { feedback.topics[member.key] = try strings(["feedback", "topics", member.key]) }
        }
        if case .object(let months)? = value(["feedback", "months"]) {
            for member in months.members { feedback.months[member.key] = try strings(["feedback", "months", member.key]) }
        }
        feedback.byMonth = try byLanguage(["feedback", "by_month"])
        feedback.byWeeks = try byLanguage(["feedback", "by_weeks"])
        feedback.declined = try byLanguage(["feedback", "declined"])
        feedback.unchanged = try byLanguage(["feedback", "unchanged"])
        feedback.topicAfter = try strings(["feedback", "topic_after"])
        feedback.topicTrailing = try strings(["feedback", "topic_trailing"])
        feedback.topicPointers = try strings(["feedback", "topic_pointers"])
        feedback.wishText = try byLanguageTexts(["feedback", "wish_text"], what: "`feedback.wish_text` needs, with {topic},")
        feedback.referred = try strings(["feedback", "referred"], required: false)
        feedback.turns = try strings(["feedback", "turns"], required: false)
        if value(["feedback", "already"]) != nil { feedback.already = try byLanguage(["feedback", "already"]) }
        if value(["feedback", "none_about"]) != nil { feedback.noneAbout = try byLanguage(["feedback", "none_about"]) }
        for index in (value(["feedback", "focuses"])?.arrayValue ?? []).indices {
            let at = ["feedback", "focuses", String(index)]
            guard let id = value(at + ["id"])?.stringValue else { throw file.problem(at, "each focus needs an `id`") }
            var focus = OptionFeedbackRules.Focus(
                id: id, words: try strings(at + ["words"]), neverFor: try strings(at + ["never_for"], required: false),
                text: [:])
            guard case .object(let object)? = value(at) else { continue }
            // Its languages sit beside `id` and `words`: every other two-letter key is one.
            for member in object.members where member.key.count == 2 && member.key != "id" {
                guard let summary = member.value["summary"]?.stringValue, let detail = member.value["detail"]?.stringValue else {
                    throw file.problem(at + [member.key], "each language needs a `summary` and a `detail`")
                }
                focus.text[member.key] = Text(summary: summary, detail: detail)
            }
            if focus.text["en"] == nil { throw file.problem(at, "focus `\(id)` needs a summary and a detail in `en` at least") }
            if case .object(let conditions)? = value(at + ["for"]) {
                for member in conditions.members {
                    focus.forConditions[member.key] = try byLanguageTexts(at + ["for", member.key], what: "focus `\(id)` for `\(member.key)` needs")
                }
            }
            feedback.focuses.append(focus)
        }
        rules.feedback = feedback
        return rules
    }
}
