import JSONSchema

/// What an edit changed, told by the backend (prompt sets that pin the plan): the
/// person reads what was applied, never the model's claim about it, which can name a
/// change no operation made or echo their feedback. The phrases, per language, are
/// `sessions.edit_account` of `prompts/program-plan.yaml`.
public struct EditAccount: Sendable, Hashable {
    /// `{new} in place of {old} ({days})`.
    public var replaced: String
    /// `{name} added ({days})`.
    public var added: String
    /// `{name} taken out ({days})`.
    public var removed: String
    /// `{n} days a week`.
    public var daysPerWeek: String
    /// `{n} weeks`.
    public var weeks: String
    /// A safety note was added.
    public var note: String
    /// `day` and `days`, before the day numbers.
    public var day: String
    public var dayPlural: String
    /// `and {n} more changes`, when the sentence has no room for them all.
    public var more: String
    /// Before the list of changes: `Changed: `.
    public var lead: String
    /// When nothing changed.
    public var unchanged: String

    /// The longest account the output schema's `change` takes.
    static let maxLength = 200

    /// The one sentence for the change from `before` to `after` (two programs).
    func sentence(from before: JSONValue, to after: JSONValue) -> String {
        var clauses: [(text: String, days: [Int])] = []
        func record(_ text: String, day: Int) {
            if let index = clauses.firstIndex(where: { $0.text == text }) { clauses[index].days.append(day) } else { clauses.append((text, [day])) }
        }
        let old = before["sessions"]?.arrayValue ?? []
        let new = after["sessions"]?.arrayValue ?? []
        for index in 0..<min(old.count, new.count) {
            let was = ProgramOperations.exerciseNames(of: ["sessions": [old[index]]])
            let now = ProgramOperations.exerciseNames(of: ["sessions": [new[index]]])
            let day = (new[index]["day"]?.intValue ?? index + 1)
            // What stayed splits each session into stretches; what left and what came in
            // the same stretch are replacements, paired in order.
            let kept = Set(was).intersection(now)
            let stretchesBefore = Self.stretches(of: was, between: kept), stretchesAfter = Self.stretches(of: now, between: kept)
            let pairs = stretchesBefore.count == stretchesAfter.count
                ? Array(zip(stretchesBefore, stretchesAfter)) : [(was.filter { !kept.contains($0) }, now.filter { !kept.contains($0) })]
            for (gone, came) in pairs {
                for (out, into) in zip(gone, came) { record(fill(replaced, ["new": into, "old": out]), day: day) }
                for out in gone.dropFirst(came.count) { record(fill(removed, ["name": out]), day: day) }
                for into in came.dropFirst(gone.count) { record(fill(added, ["name": into]), day: day) }
            }
        }
        var parts = clauses.map { clause in
            let numbers = clause.days.map(String.init).joined(separator: ", ")
            return clause.text.replacingOccurrences(of: "{days}", with: (clause.days.count == 1 ? day : dayPlural) + " " + numbers)
        }
        if old.count != new.count { parts.append(fill(daysPerWeek, ["n": String(new.count)])) }
        if let weeksNow = after["duration_weeks"]?.intValue, weeksNow != before["duration_weeks"]?.intValue {
            parts.append(fill(weeks, ["n": String(weeksNow)]))
        }
        let notesBefore = before["safety_notes"]?.arrayValue ?? []
        if (after["safety_notes"]?.arrayValue ?? []).contains(where: { !notesBefore.contains($0) }) { parts.append(note) }
        guard !parts.isEmpty else { return unchanged }
        var sentence = lead
        for (index, part) in parts.enumerated() {
            let next = (index == 0 ? "" : "; ") + part
            let rest = parts.count - index - 1
            let room = Self.maxLength - 1 - (rest > 0 ? fill(more, ["n": String(parts.count)]).count + 2 : 0)
            guard index == 0 || sentence.count + next.count <= room else {
                sentence += "; " + fill(more, ["n": String(parts.count - index)])
                break
            }
            sentence += next
        }
        return String(sentence.prefix(Self.maxLength - 1)) + "."
    }

    /// `output` (an applied edit: `change` beside `program_json`) with the account of
    /// what it changes from `program` in place of the model's `change`.
    func telling(_ output: JSONValue, editedFrom program: JSONValue) -> JSONValue {
        guard case .object(var object) = output, let edited = object[ProgramMarkdown.programKey], object["change"] != nil else { return output }
        object["change"] = .string(sentence(from: program, to: edited))
        return .object(object)
    }

    /// `names` cut at every name in `kept`: the stretches before, between and after them.
    private static func stretches(of names: [String], between kept: Set<String>) -> [[String]] {
        var stretches: [[String]] = [[]]
        for name in names {
            if kept.contains(name) { stretches.append([]) } else { stretches[stretches.count - 1].append(name) }
        }
        return stretches
    }

    private func fill(_ phrase: String, _ values: [String: String]) -> String {
        values.reduce(phrase) { $0.replacingOccurrences(of: "{\($1.key)}", with: $1.value) }
    }
}
