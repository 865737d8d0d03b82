import Checks
import Intake
import JSONSchema

/// Goal options written within the backend's layout (`plan: pinned` in a goal-option
/// step's `prompt.yaml`). The model's reply holds only the options the layout asks it
/// to write, each a summary and a detail in whole sentences; the backend gives each its
/// id, kind and weeks, puts the kept ones back in their places and adds its note.
enum PlannedOptions {
    /// Letters of a word in the Latin alphabet (Spanish's included), digits and the
    /// signs a goal uses ("2:00", "5K", "10-mile", "30%").
    private static let letter = "[A-Za-zÁÉÍÓÚÜÑáéíóúüñ0-9,;:'%&/()+-]"
    /// A sentence of at most `words` words, capitalised, ending in a full stop. The
    /// prompt asks for fewer words than the bound, which is a backstop the grammar
    /// rarely reaches; it cannot end a phrase mid-word or switch script.
    static func sentence(words: Int) -> String {
        "[A-ZÁÉÍÓÚÑ¿¡0-9]\(letter){0,19}( \(letter){1,20}){2,\(words - 1)}[.]"
    }
    static let summaryPattern = "^" + sentence(words: 24) + "$"
    /// One sentence: a small model asked for two tends to say the first one twice.
    static let detailPattern = "^" + sentence(words: 44) + "$"
    /// The most words the guardrails let through; the prompt asks for fewer.
    static let mostWords = (summary: 12, detail: 30)

    /// The reply schema for `layout`: exactly its written options, in order.
    static func replySchema(layout: OptionLayout) -> JSONValue {
        let option: JSONValue = [
            "type": "object", "additionalProperties": false, "required": ["summary", "detail"],
            "properties": ["summary": ["type": "string", "pattern": .string(summaryPattern)], "detail": ["type": "string", "pattern": .string(detailPattern)]],
        ]
        let count = JSONValue.number(Double(layout.slots.count))
        return [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object", "additionalProperties": false, "required": ["options"],
            "properties": ["options": ["type": "array", "prefixItems": .array(layout.slots.map { _ in option }), "minItems": count, "maxItems": count]],
        ]
    }

    /// The step's output: every option of the layout, the written ones from `reply`
    /// (or, for the indices in `fallback`, the backend's own text), with the note.
    static func expanded(_ reply: JSONValue, layout: OptionLayout, fallback: Set<Int> = []) -> JSONValue {
        var written = (reply["options"]?.arrayValue ?? []).makeIterator()
        var options: [JSONValue] = []
        var slotNumber = 0
        for entry in layout.entries {
            switch entry {
            case .kept(let option):
                options.append(option)
            case .written(let slot):
                let text = written.next()
                var option = JSONObject()
                option["id"] = .string(slot.id)
                let replaced = fallback.contains(slotNumber)
                option["summary"] = .string(replaced ? slot.fallback.summary : text?["summary"]?.stringValue ?? slot.fallback.summary)
                option["detail"] = .string(replaced ? slot.fallback.detail : text?["detail"]?.stringValue ?? slot.fallback.detail)
                option["kind"] = .string(slot.kind)
                if let weeks = layout.weeks { option["weeks"] = .number(Double(weeks)) }
                options.append(.object(option))
                slotNumber += 1
            }
        }
        var output = JSONObject()
        output["options"] = .array(options)
        if let note = layout.note { output["note"] = .string(note) }
        return .object(output)
    }

    private static func text(of option: JSONValue) -> String {
        [option["summary"]?.stringValue, option["detail"]?.stringValue].compactMap { $0 }.joined(separator: " ")
    }

    /// The faults of each written option of `output` (0-based among the written ones), judged by the guardrails.
    /// The backend's own text (`trusted`, 0-based among the written options) is not judged again.
    static func faults(
        in output: JSONValue, layout: OptionLayout, record: LocalIntakeData, personText: String, knowledge: CoachingKnowledge,
        trusted: Set<Int> = []
    ) -> [Int: [Intervention]] {
        var faults: [Int: [Intervention]] = [:]
        let options = output["options"]?.arrayValue ?? []
        var slotNumber = 0
        for (index, entry) in layout.entries.enumerated() {
            guard case .written = entry else { continue }
            defer { slotNumber += 1 }
            if trusted.contains(slotNumber) { continue }
            let option = options.indices.contains(index) ? options[index] : .null
            var found = Guardrails.optionFaults(
                number: index + 1, summary: option["summary"]?.stringValue ?? "", detail: option["detail"]?.stringValue ?? "",
                record: record, personText: personText, knowledge: knowledge)
            for (part, most) in [("summary", mostWords.summary), ("detail", mostWords.detail)] {
                let count = (option[part]?.stringValue ?? "").split(whereSeparator: \.isWhitespace).count
                if count > most {
                    found.append(Intervention(kind: Intervention.tooLong, detail: "option \(index + 1): its \(part) has \(count) words; write at most \(most)"))
                }
            }
            for part in ["summary", "detail"] {
                let texts = options.map { $0[part]?.stringValue ?? "" }
                if let twin = Guardrails.twin(of: index, among: texts) {
                    found.append(Intervention(kind: Intervention.repeatedOption, detail: "option \(index + 1): its \(part) says what option \(twin + 1)'s says: \"\(texts[index])\""))
                    break
                }
            }
            if let name = record.name?.split(whereSeparator: \.isWhitespace).first.map(String.init), name.count > 1,
               TextMatching.mentions(name, in: text(of: option)) {
                found.append(Intervention(kind: Intervention.firstPerson, detail: "option \(index + 1): speaks of \(name) instead of to them as \"you\""))
            }
            if case .written(let slot) = entry, !slot.mentions.isEmpty, !slot.mentions.contains(where: { TextMatching.mentions($0, in: text(of: option)) }) {
                found.append(Intervention(
                    kind: Intervention.offTopic, detail: "option \(index + 1): is not about what it is for (\(slot.brief.prefix(60))); it names none of \(slot.mentions.prefix(4).joined(separator: ", "))"))
            }
            // Back as it was: the same headline, or, for a new option in its place (a wish's, another kind's), the old one's detail.
            if case .written(let slot) = entry, let before = slot.replacing, before["summary"] == option["summary"]
                || (before["detail"] == option["detail"] && (before["kind"]?.stringValue != slot.kind || before["id"]?.stringValue != slot.id)) {
                found.append(Intervention(
                    kind: Intervention.unchangedOption,
                    detail: "option \(index + 1): came back as it was (\"\(before["summary"]?.stringValue ?? "")\"); write it again to answer the feedback"))
            }
            if case .written(let slot) = entry, let copied = Guardrails.copiedRun(from: slot.brief, in: text(of: option), length: 6)
                ?? Guardrails.copiedRun(from: personText, in: text(of: option), length: 4) {
                found.append(Intervention(kind: Intervention.copiedRequest, detail: "option \(index + 1): copies the request's own words \"\(copied)\""))
            }
            if let food = layout.referredWords.first(where: { TextMatching.mentions($0, in: text(of: option)) }) {
                found.append(Intervention(kind: Intervention.offTopic, detail: "option \(index + 1): speaks of what they eat (\"\(food)\"), which the options leave to a dietitian"))
            }
            if let number = GoalKindRules.numbers(in: text(of: option)).sorted().first(where: { !layout.numbers.contains($0) }) {
                found.append(Intervention(
                    kind: Intervention.unfounded, detail: "option \(index + 1): uses the number \(number), which neither their answers nor the request gives"))
            }
            if let word = layout.unnamedHealthWords.first(where: { TextMatching.mentions($0, in: text(of: option)) }) {
                found.append(Intervention(kind: Intervention.unfounded, detail: "option \(index + 1): speaks of \"\(word)\", which none of their answers mentions"))
            }
            if !found.isEmpty { faults[slotNumber] = found }
        }
        return faults
    }
}
