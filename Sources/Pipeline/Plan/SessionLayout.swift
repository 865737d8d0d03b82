import Checks
import Intake
import JSONSchema

/// The week a backend lays out for one person before a model chooses a single
/// exercise: each training day's kind and name, and its slots, each slot a movement
/// pattern offering only the catalogue's exercises that suit the person, with the sets
/// and reps (or time, or distance) that fit the session's minutes. The model chooses
/// one exercise a slot and its sets and reps from these lists, so it cannot pick an
/// unsafe, unavailable or disliked exercise, repeat one in a session, or give a plank
/// "10-12" reps (`prompts/program-plan.yaml`, `sessions` and `prescriptions`).
public struct SessionLayout: Sendable, Hashable {
    /// The exercises of one unit a slot offers, and what may be prescribed for them.
    public struct Choice: Sendable, Hashable {
        /// `reps`, `time`, `distance` or `conditioning` (a long piece of one set).
        public var prescription: String
        public var names: [String]
        public var sets: ClosedRange<Int>
        public var reps: [String]
        public var restSeconds: Int
    }

    public struct Slot: Sendable, Hashable {
        /// The catalogue's movement pattern.
        public var pattern: String
        /// One choice per unit the slot's exercises count in.
        public var choices: [Choice]
    }

    public struct Day: Sendable, Hashable {
        public var number: Int
        /// The kind of day in `program-plan.yaml` (`full`, `lower`, `upper`, `conditioning`).
        public var kind: String
        /// The session's name in the person's language ("Full body A").
        public var name: String
        public var slots: [Slot]
    }

    public var days: [Day]
    /// `en` or `es`: the language of the names and cues.
    public var language: String
    /// The catalogue entry behind each name offered, for its cue.
    public var exercises: [String: Catalogue.Exercise]
    /// Safety notes the backend adds to the program, in the person's language: the rest
    /// days, and judging effort by feel for someone on a beta blocker.
    public var notes: [String] = []
    /// How the backend tells the person what an edit changed, in their language; nil
    /// when `program-plan.yaml` gives no `edit_account`.
    public var editAccount: EditAccount?
    /// The backend's own title, goal and safety sentence for a draft whose reply kept
    /// saying what must not be shown; nil without `neutral_text`.
    public var neutralText: NeutralText?

    /// A draft's sentences written by the backend, in the person's language: `{weeks}` and `{days}` are the plan's.
    public struct NeutralText: Sendable, Hashable {
        public var title: String
        public var goal: String
        public var safety: String

        func filled(weeks: Int, days: Int) -> NeutralText {
            func fill(_ text: String) -> String {
                text.replacingOccurrences(of: "{weeks}", with: String(weeks)).replacingOccurrences(of: "{days}", with: String(days))
            }
            return NeutralText(title: fill(title), goal: fill(goal), safety: fill(safety))
        }
    }

    /// The template variable that shows the layout.
    public static let variableName = "session_slots"

    /// The layout as a template shows it (`session_slots`): a day a line, then a slot a
    /// line; a day with the same slots as an earlier one says so instead of repeating them.
    public var lines: [String] {
        days.flatMap { day in
            if let earlier = days.first(where: { $0.number < day.number && $0.slots == day.slots }) {
                return ["Day \(day.number), \(day.name): the same slots as day \(earlier.number); choose some different exercises"]
            }
            return ["Day \(day.number), \(day.name):"] + day.slots.enumerated().map { index, slot in
                let names = slot.choices.flatMap(\.names).joined(separator: "; ")
                return "  \(index + 1). \(slot.pattern.replacingOccurrences(of: "-", with: " ")): \(names)"
            }
        }
    }

    /// The catalogue's cue for the offered exercise `name`, in the person's language.
    public func cue(of name: String) -> String? {
        exercises[name].map { language == "es" ? $0.cue.es : $0.cue.en }
    }

    /// The slot that offers `name`.
    public func slot(offering name: String) -> Slot? {
        days.lazy.flatMap(\.slots).first { $0.choices.contains { $0.names.contains(name) } }
    }

    /// How many exercises the person is offered in all.
    public var offeredCount: Int { Set(days.flatMap { $0.slots.flatMap { $0.choices.flatMap(\.names) } }).count }
}

/// The `sessions` and `prescriptions` rules of `prompts/program-plan.yaml`.
struct SessionLayoutRules: Sendable, Hashable {
    struct Kind: Sendable, Hashable {
        var names: [String: String]
        var slots: [String]
    }

    struct Prescription: Sendable, Hashable {
        var sets: ClosedRange<Int>
        var reps: [String]
        var restSeconds: Int
    }

    var byDays: [Int: [String]] = [:]
    var enduranceByDays: [Int: [String]] = [:]
    var kinds: [String: Kind] = [:]
    var standIns: [String: String] = [:]
    struct SlotBound: Sendable, Hashable {
        var upTo: Int
        var slots: Int
    }

    var slotsByMinutes: [SlotBound] = []
    var optionsPerSlot = 8
    /// The rest-day note by language, `{rest}` standing for the days off.
    var restNote: [String: String] = [:]
    var editAccounts: [String: EditAccount] = [:]
    var neutralTexts: [String: SessionLayout.NeutralText] = [:]
    var prescriptions: [String: Prescription] = [:]

    /// The slots a session of `minutes` fills.
    func slotCount(minutes: Int) -> Int {
        (slotsByMinutes.first { minutes <= $0.upTo } ?? slotsByMinutes.last)?.slots ?? 4
    }

    /// The layout for `plan`, offering per slot what `allowed` (the catalogue's exercises
    /// that suit the person, by pattern) holds; `activities` are the endurance activities
    /// the goal names, whose exercises a conditioning slot offers first and alone.
    func layout(
        plan: ProgramPlan, allowed: [String: [Catalogue.Exercise]], beginner: Bool, language: String,
        activities: [AdviceRules.GoalActivity], included: [String] = [], knowledge: CoachingKnowledge
    ) -> SessionLayout {
        let kindsByDay = (activities.isEmpty ? byDays : enduranceByDays)[plan.days] ?? Array(repeating: "full", count: plan.days)
        let slotLimit = slotCount(minutes: plan.minutes)
        var exercises: [String: Catalogue.Exercise] = [:]
        var days: [SessionLayout.Day] = []
        let repeats = Dictionary(grouping: kindsByDay, by: { $0 }).mapValues(\.count)
        var seenOfKind: [String: Int] = [:]
        // A week asks for the same few patterns and prescriptions day after day.
        var offeredByPattern: [String: [Catalogue.Exercise]] = [:]
        var withActivities: [String: [Catalogue.Exercise]] = [:]
        func options(for pattern: String, activities: [AdviceRules.GoalActivity]) -> [Catalogue.Exercise] {
            if activities.isEmpty, let known = offeredByPattern[pattern] { return known }
            if !activities.isEmpty, let known = withActivities[pattern] { return known }
            let offered = self.options(for: pattern, allowed: allowed, beginner: beginner, activities: activities, knowledge: knowledge)
            if activities.isEmpty { offeredByPattern[pattern] = offered } else { withActivities[pattern] = offered }
            return offered
        }
        var fittings: [String: Prescription?] = [:]
        func fitted(_ rule: Prescription, named name: String, within seconds: Double) -> Prescription? {
            let key = "\(name) \(seconds)"
            if let known = fittings[key] { return known }
            let fitting = self.fitted(rule, named: name, within: seconds)
            fittings[key] = .some(fitting)
            return fitting
        }
        for (index, kindName) in kindsByDay.enumerated() {
            guard let kind = kinds[kindName] else { continue }
            var patterns: [String] = []
            for pattern in kind.slots {
                guard patterns.count < slotLimit else { break }
                var candidate: String? = pattern
                var tried: Set<String> = []
                while let current = candidate, !tried.contains(current),
                      patterns.contains(current) || options(for: current, activities: []).isEmpty {
                    tried.insert(current)
                    candidate = standIns[current]
                }
                if let chosen = candidate, !patterns.contains(chosen), !tried.contains(chosen) { patterns.append(chosen) }
            }
            for pattern in included where !patterns.contains(pattern)
                && !options(for: pattern, activities: []).isEmpty {
                if patterns.count >= slotLimit, patterns.count > 1 { patterns.removeLast() }
                patterns.append(pattern)
            }
            let workSeconds = Double(max(plan.minutes - 5, 5) * 60)
            let conditioningShare = kindName == "conditioning" && patterns.first == "conditioning" && patterns.count > 1 ? 0.6 : nil
            var slots: [SessionLayout.Slot] = []
            for (position, pattern) in patterns.enumerated() {
                let share: Double
                if let conditioningShare {
                    share = position == 0 ? workSeconds * conditioningShare : workSeconds * (1 - conditioningShare) / Double(patterns.count - 1)
                } else {
                    share = workSeconds / Double(patterns.count)
                }
                let offered = options(for: pattern, activities: pattern == "conditioning" ? activities : [])
                var choices: [SessionLayout.Choice] = []
                for prescriptionName in ["reps", "time", "distance", "conditioning"] {
                    let names = offered.filter { prescriptionKey(for: $0) == prescriptionName }
                    guard !names.isEmpty, let rule = prescriptions[prescriptionName],
                          let choice = fitted(rule, named: prescriptionName, within: share) else { continue }
                    let labels = names.map { language == "es" ? $0.es : $0.en }
                    for (label, exercise) in zip(labels, names) { exercises[label] = exercise }
                    choices.append(SessionLayout.Choice(
                        prescription: prescriptionName, names: labels, sets: choice.sets, reps: choice.reps, restSeconds: choice.restSeconds))
                }
                if !choices.isEmpty { slots.append(SessionLayout.Slot(pattern: pattern, choices: choices)) }
            }
            seenOfKind[kindName, default: 0] += 1
            let baseName = kind.names[language] ?? kind.names["en"] ?? kindName
            let letter = repeats[kindName, default: 1] > 1 ? " " + String(UnicodeScalar(UInt8(64 + seenOfKind[kindName]!))) : ""
            days.append(SessionLayout.Day(number: index + 1, kind: kindName, name: baseName + letter, slots: slots))
        }
        var notes: [String] = []
        if let note = restNote[language] ?? restNote["en"], plan.days < 7 {
            notes.append(note.replacingOccurrences(of: "{rest}", with: String(7 - plan.days)))
        }
        return SessionLayout(days: days, language: language, exercises: exercises, notes: notes, editAccount: editAccounts[language] ?? editAccounts["en"],
            neutralText: neutralTexts[language] ?? neutralTexts["en"])
    }

    /// The prescription an exercise takes: a timed conditioning piece is one long set.
    func prescriptionKey(for exercise: Catalogue.Exercise) -> String {
        exercise.pattern == "conditioning" && exercise.unit == .time ? "conditioning" : exercise.unit.rawValue
    }

    /// The exercises of `pattern` offered to the person: those of the goal's activities
    /// alone when there are any, a beginner no advanced one, the person's own equipment
    /// first, at most `optionsPerSlot`.
    func options(
        for pattern: String, allowed: [String: [Catalogue.Exercise]], beginner: Bool, activities: [AdviceRules.GoalActivity],
        knowledge: CoachingKnowledge
    ) -> [Catalogue.Exercise] {
        var candidates = allowed[pattern] ?? []
        if beginner { candidates = candidates.filter { $0.level != .advanced } }
        let ofActivity = candidates.filter { exercise in activities.contains { knowledge.isActivity(exercise.en, $0) } }
        if !ofActivity.isEmpty { candidates = ofActivity }
        let equipped = candidates.filter { !$0.needs.isEmpty } + candidates.filter(\.needs.isEmpty)
        return Array(equipped.prefix(optionsPerSlot))
    }

    /// `rule` narrowed so that its longest prescription, with rest, fits `seconds`: fewer
    /// sets, then shorter pieces; nil when not even one set of the shortest fits.
    func fitted(_ rule: Prescription, named name: String, within seconds: Double) -> Prescription? {
        let reps = rule.reps.filter { ProgramPlanChecks.workSeconds(reps: $0) + Double(rule.restSeconds) <= seconds }
        guard let longest = reps.map({ ProgramPlanChecks.workSeconds(reps: $0) }).max() else { return nil }
        let perSet = longest + Double(rule.restSeconds)
        let most = min(rule.sets.upperBound, max(1, Int(seconds / perSet)))
        return Prescription(sets: min(rule.sets.lowerBound, most)...most, reps: reps, restSeconds: rule.restSeconds)
    }

    /// Reads the `sessions` and `prescriptions` blocks; nil when the file has no `sessions`.
    static func read(_ file: RulesFile, patterns: [String]) throws(PromptError) -> SessionLayoutRules? {
        let document = file.document.value
        guard document["sessions"] != nil else { return nil }
        func value(_ tokens: [String]) -> JSONValue? {
            var value: JSONValue? = document
            for token in tokens { value = value?[token] }
            return value
        }
        func strings(_ tokens: [String]) throws(PromptError) -> [String] {
            guard let list = value(tokens)?.arrayValue, !list.isEmpty, case let words = list.compactMap(\.stringValue), words.count == list.count else {
                throw file.problem(tokens, "`\(tokens.joined(separator: "."))` must be a non-empty list of names")
            }
            return words
        }
        var rules = SessionLayoutRules()
        guard case .object(let kinds)? = value(["sessions", "kinds"]), !kinds.isEmpty else {
            throw file.problem(["sessions", "kinds"], "`sessions.kinds` must map each kind of day to its name and slots")
        }
        for member in kinds {
            let at = ["sessions", "kinds", member.key]
            let slots = try strings(at + ["slots"])
            if !patterns.isEmpty, let unknown = slots.first(where: { !patterns.contains($0) }) {
                throw file.problem(at + ["slots"], "`\(unknown)` is not a pattern of catalogue.yaml: " + patterns.joined(separator: ", "))
            }
            let names = (member.value["name"]?.objectValue?.members ?? []).compactMap { name in name.value.stringValue.map { (name.key, $0) } }
            guard names.contains(where: { $0.0 == "en" }) else { throw file.problem(at + ["name"], "each kind of day needs an English `name`") }
            rules.kinds[member.key] = Kind(names: Dictionary(uniqueKeysWithValues: names), slots: slots)
        }
        for (key, target) in [("by_days", \SessionLayoutRules.byDays), ("endurance_by_days", \SessionLayoutRules.enduranceByDays)] {
            for days in 1...7 {
                guard value(["sessions", key, String(days)]) != nil else { continue }
                let list = try strings(["sessions", key, String(days)])
                guard list.count == days else { throw file.problem(["sessions", key, String(days)], "\(days) training days need \(days) kinds, got \(list.count)") }
                if let unknown = list.first(where: { rules.kinds[$0] == nil }) {
                    throw file.problem(["sessions", key, String(days)], "`\(unknown)` is not a kind of day in `sessions.kinds`")
                }
                rules[keyPath: target][days] = list
            }
        }
        for member in value(["sessions", "stand_ins"])?.objectValue?.members ?? [] {
            guard let target = member.value.stringValue, patterns.isEmpty || patterns.contains(target) else {
                throw file.problem(["sessions", "stand_ins", member.key], "a stand-in must be a pattern of catalogue.yaml")
            }
            rules.standIns[member.key] = target
        }
        for (index, entry) in (value(["sessions", "slots_by_minutes"])?.arrayValue ?? []).enumerated() {
            guard let upTo = entry["up_to"]?.intValue, let slots = entry["slots"]?.intValue, (1...8).contains(slots) else {
                throw file.problem(["sessions", "slots_by_minutes", String(index)], "each entry needs `up_to` minutes and 1 to 8 `slots`")
            }
            rules.slotsByMinutes.append(SlotBound(upTo: upTo, slots: slots))
        }
        rules.optionsPerSlot = value(["sessions", "options_per_slot"])?.intValue ?? rules.optionsPerSlot
        for member in value(["sessions", "rest_note"])?.objectValue?.members ?? [] {
            guard let note = member.value.stringValue, note.contains("{rest}") else {
                throw file.problem(["sessions", "rest_note", member.key], "a rest note is a sentence holding {rest}, the days off")
            }
            rules.restNote[member.key] = note
        }
        for member in value(["sessions", "edit_account"])?.objectValue?.members ?? [] {
            let at = ["sessions", "edit_account", member.key]
            func phrase(_ key: String, holding placeholders: [String] = []) throws(PromptError) -> String {
                guard let text = member.value[key]?.stringValue, placeholders.allSatisfy({ text.contains("{\($0)}") }) else {
                    let holding = placeholders.isEmpty ? "" : " holding " + placeholders.map { "{\($0)}" }.joined(separator: " and ")
                    throw file.problem(at + [key], "`\(key)` must be a phrase\(holding)")
                }
                return text
            }
            rules.editAccounts[member.key] = EditAccount(
                replaced: try phrase("replaced", holding: ["new", "old", "days"]), added: try phrase("added", holding: ["name", "days"]),
                removed: try phrase("removed", holding: ["name", "days"]), daysPerWeek: try phrase("days_per_week", holding: ["n"]),
                weeks: try phrase("weeks", holding: ["n"]), note: try phrase("note"), day: try phrase("day"), dayPlural: try phrase("days"),
                more: try phrase("more", holding: ["n"]), lead: try phrase("lead"), unchanged: try phrase("unchanged"))
        }
        for member in value(["sessions", "neutral_text"])?.objectValue?.members ?? [] {
            let at = ["sessions", "neutral_text", member.key]
            func sentence(_ key: String) throws(PromptError) -> String {
                guard let text = member.value[key]?.stringValue, !text.isEmpty else { throw file.problem(at + [key], "`\(key)` must be a sentence") }
                return text
            }
            rules.neutralTexts[member.key] = SessionLayout.NeutralText(title: try sentence("title"), goal: try sentence("goal"), safety: try sentence("safety"))
        }
        for name in ["reps", "time", "distance", "conditioning"] {
            let at = ["prescriptions", name]
            guard let sets = value(at + ["sets"])?.arrayValue?.compactMap(\.intValue), sets.count == 2, 1 <= sets[0], sets[0] <= sets[1] else {
                throw file.problem(at + ["sets"], "`prescriptions.\(name).sets` must be [fewest, most], at least 1")
            }
            guard let rest = value(at + ["rest_seconds"])?.intValue, rest >= 0 else {
                throw file.problem(at + ["rest_seconds"], "`prescriptions.\(name).rest_seconds` must be a whole number of seconds")
            }
            rules.prescriptions[name] = Prescription(sets: sets[0]...sets[1], reps: try strings(at + ["reps"]), restSeconds: rest)
        }
        return rules
    }
}
