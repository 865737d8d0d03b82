import Checks
import Foundation
import Intake
import JSONSchema

/// The goal options of one pinned step, as the backend lays them out before a model
/// writes any: for each option either the option kept as it was (an edit keeps what
/// the feedback did not touch) or a slot the model writes, with what it is about.
public struct OptionLayout: Sendable, Hashable {
    /// An option the model writes.
    public struct Slot: Sendable, Hashable {
        /// The option's id, made by the backend.
        public var id: String
        /// The goal-kinds.yaml kind, or `wish` for what the feedback asked for.
        public var kind: String
        /// What the model is asked to write, for the request.
        public var brief: String
        /// The backend's own text, when the model's cannot be shown: the kind's, or for
        /// a rewritten option the option it replaces.
        public var fallback: GoalKindRules.Text
        /// Words one of which an option of this kind names ("half marathon", "lose"); empty when any will do.
        public var mentions: [String] = []
        /// For an edit, the option this one is written in place of.
        public var replacing: JSONValue?
        /// Its fallback is reviewed text for exactly what was asked (a `focuses` entry):
        /// the backend answers with it and no model writes this option.
        public var curated = false
    }

    public enum Entry: Sendable, Hashable {
        case kept(JSONValue)
        case written(Slot)
    }

    public var entries: [Entry]
    /// The weeks each option carries: the person's timeline, for the program's length.
    public var weeks: Int?
    /// A sentence for the person about what the feedback asked and could not be done.
    public var note: String?
    /// What the backend declined or left unanswered, for the step's interventions.
    public var declined: [String] = []
    /// The options the backend answered with its own reviewed text, for the step's interventions.
    public var answered: [String] = []

    /// What the backend did before any model wrote: declined requests and its own answers.
    public var interventions: [Intervention] {
        declined.map { Intervention(kind: Intervention.feedbackDeclined, detail: $0) }
            + answered.map { Intervention(kind: Intervention.backendText, detail: $0) }
    }
    /// What the feedback asks every written option to leave out, in the person's words.
    public var leaveOut: [String] = []
    /// What every written option must keep to.
    public var facts: String
    /// The numbers a written option may use: their goal answers', the request's and the feedback's.
    public var numbers: Set<String> = []
    /// Health words none of their answers uses (`GoalFrame.unnamedHealthWords`).
    public var unnamedHealthWords: [String] = []
    /// Words about what they eat (`feedback.referred`), which no option speaks of.
    public var referredWords: [String] = []

    /// The slots the model writes, in order.
    public var slots: [Slot] {
        entries.compactMap { if case .written(let slot) = $0 { return slot } else { return nil } }
    }

    /// The template variable that shows what to write.
    public static let variableName = "options_to_write"

    /// What the request shows: which options to write, what each is about, and the
    /// facts they keep to.
    public var lines: [String] {
        var lines: [String] = []
        let kept = entries.indices.filter { if case .kept = entries[$0] { return true } else { return false } }.map { "\($0 + 1)" }
        lines.append(kept.isEmpty ? "Write these options, in this order:"
            : "Option\(kept.count == 1 ? "" : "s") \(kept.joined(separator: ", ")) stay\(kept.count == 1 ? "s" : "") as \(kept.count == 1 ? "it is" : "they are"). Write only these, in this order:")
        for (index, entry) in entries.enumerated() {
            if case .written(let slot) = entry { lines.append("\(index + 1). \(slot.brief)") }
        }
        lines.append(facts)
        if !leaveOut.isEmpty { lines.append("Leave out what they asked to leave out: " + leaveOut.map { PromptData.fenced(.string($0), pretty: false) }.joined(separator: "; ")) }
        return lines
    }
}

extension GoalKindRules {
    /// The options `goal-options` offers for `frame`: three distinct kinds, the person's
    /// wants first (an event first of all), never a kind they must not be offered.
    func layout(for frame: GoalFrame) -> OptionLayout {
        var order = frame.wants
        // An event they name comes first; a time they want to beat in it comes before that, and covers it.
        for lead in ["event", "time"] where frame.event != nil {
            if let index = order.firstIndex(of: lead) { order.insert(order.remove(at: index), at: 0) }
        }
        var chosen: [Kind] = []
        var covered = Set<String>()
        for want in order + fill {
            guard chosen.count < 3, !covered.contains(want),
                  let kind = kinds.first(where: { $0.serves == want }) ?? (fill.contains(want) ? self.kind(want) : nil),
                  !chosen.contains(where: { $0.id == kind.id }), allowed(kind, for: frame) else { continue }
            chosen.append(kind)
            covered.formUnion(kind.covers)
        }
        let entries = chosen.map { OptionLayout.Entry.written(slot(kind: $0, id: $0.id, frame: frame, by: by(frame))) }
        return grounded(OptionLayout(entries: entries, weeks: frame.weeks, facts: facts(frame)), frame: frame)
    }

    /// `layout` with what its written options may draw on: the numbers of their goal
    /// answers, of the request and of the options it keeps, and the health words they never used.
    func grounded(_ layout: OptionLayout, frame: GoalFrame, feedback: String = "") -> OptionLayout {
        var layout = layout
        let kept = layout.entries.compactMap { entry -> String? in
            guard case .kept(let option) = entry else { return nil }
            return [option["summary"]?.stringValue, option["detail"]?.stringValue].compactMap { $0 }.joined(separator: " ")
        }
        let fallbacks = layout.slots.map { $0.fallback.summary + " " + $0.fallback.detail }
        layout.numbers = frame.numbers.union(GoalKindRules.numbers(in: (layout.lines + kept + fallbacks + [feedback]).joined(separator: " ")))
        layout.unnamedHealthWords = frame.unnamedHealthWords.filter { !TextMatching.mentions($0, in: feedback) }
        layout.referredWords = self.feedback.referred
        return layout
    }

    func allowed(_ kind: Kind, for frame: GoalFrame) -> Bool {
        if kind.neverFor.contains(where: { ["no-weight-targets", "underweight"].contains($0) }), frame.noWeightLoss != nil { return false }
        if kind.neverFor.contains(where: frame.conditionIDs.contains) { return false }
        if kind.serves == "event" || kind.serves == "time", frame.event == nil { return false }
        if kind.serves == "sport", frame.sport == nil { return false }
        if kind.serves == "health", frame.condition == nil, frame.healthTopic == nil { return false }
        return true
    }

    /// " in 12 weeks" when their timeline states weeks, " by December" when it names a month.
    func by(_ frame: GoalFrame) -> String {
        if let weeks = frame.weeks {
            return feedback.byWeeks[frame.language].map { $0.replacingOccurrences(of: "{weeks}", with: "\(weeks)") } ?? ""
        }
        return frame.month.flatMap { month in feedback.byMonth[frame.language].map { $0.replacingOccurrences(of: "{month}", with: month) } } ?? ""
    }

    func facts(_ frame: GoalFrame) -> String {
        var facts = "Every option fits \(frame.days) training days a week of \(frame.minutes) minutes"
        if let condition = frame.condition { facts += ", and suits someone with \(condition)" }
        if frame.noWeightTalk {
            facts += ". No option mentions weight, size, body fat, calories or food"
        } else if frame.noWeightLoss != nil {
            facts += ". No option aims at losing weight"
        }
        return facts + ". Write in \(frame.language == "es" ? "Spanish" : "English"), to the person as \"\(frame.language == "es" ? "tú" : "you")\"."
    }

    func slot(kind: Kind, id: String, frame: GoalFrame, by: String) -> OptionLayout.Slot {
        let target = kind.serves.flatMap { frame.targets[$0] }?.lowercased()
        var frame = frame
        // A health option is about the health goal their answers name, with that goal's own text.
        let topicText = frame.healthTopic.flatMap { kind.topicText[$0] }
        if topicText != nil { frame.condition = frame.healthTopic }
        let forCondition = frame.conditionIDs.lazy.compactMap { kind.forConditions[$0] }.first
        let occasion = frame.event.map { event in kind.occasions.contains { TextMatching.mentions($0, in: event) } } == true && !kind.occasion.isEmpty
            ? kind.occasion : nil
        let texts = topicText ?? forCondition ?? (target != nil && !kind.withTarget.isEmpty ? kind.withTarget : nil) ?? occasion ?? kind.fallback
        let text = texts[frame.language] ?? texts["en"] ?? Text(summary: "", detail: "")
        let brief = fill(kind.brief, frame: frame, by: by) + (target.map { " (your target: \($0))" } ?? "")
        // What an option of the kind cannot leave unnamed: the event or sport it is for, else its want's words.
        let named: [String] = switch kind.serves {
        case "event", "time": [frame.event].compactMap { $0 }
        case "sport": [frame.sport].compactMap { $0 }
        // A health goal's option names what its own text names ("your pregnancy", "blood pressure").
        case "health" where topicText != nil:
            words(of: "health").filter { TextMatching.mentions($0, in: text.summary + " " + text.detail) }
        case .some(let want): words(of: want) + (feedback.topics[want] ?? [])
        case nil: []
        }
        return OptionLayout.Slot(
            id: id, kind: kind.id, brief: brief,
            fallback: Text(summary: fill(text.summary, frame: frame, by: by, target: target ?? ""), detail: fill(text.detail, frame: frame, by: by, target: target ?? "")),
            mentions: named)
    }

    /// `template` with the frame's values in its placeholders.
    /// `target`: what their goals name in numbers for the kind's want, lowercased.
    func fill(_ template: String, frame: GoalFrame, by: String, target: String = "") -> String {
        let weeks = frame.weeks ?? defaultWeeks
        // Whole pounds a week, so that the loss and its rate agree: at most
        // `maximumWeeklyPercent` of their weight when they asked for more, else
        // `offeredWeeklyPercent`, and never less than a pound.
        let pounds = Double(frame.pounds ?? 0)
        let fastest = max(1, Int(pounds * maximumWeeklyPercent / 100))
        let offered = min(fastest, max(1, Int(pounds * offeredWeeklyPercent / 100)))
        let loss = frame.askedLoss.map { min($0, fastest * weeks) } ?? offered * weeks
        // A loss spread thinner than a pound a week reads in half pounds ("about 0.5 lb a week").
        let halves = (Double(loss) / Double(weeks) * 2).rounded() / 2
        let rateText = halves >= 1 ? "\(Int(halves.rounded()))" : String(format: "%.1f", max(0.5, halves))
        let values: [String: String] = [
            "event": frame.event ?? "", "by": by, "days": "\(frame.days)", "minutes": "\(frame.minutes)", "weeks": "\(weeks)",
            "sport": frame.sport ?? "", "condition": frame.condition ?? "", "loss": "\(loss)",
            "target": target,
            "rate": rateText,
            "gain": "\(max(1, Int((gainPoundsAWeek * Double(weeks)).rounded())))",
        ]
        var text = template
        for (key, value) in values { text = text.replacingOccurrences(of: "{\(key)}", with: value) }
        return text
    }
}
