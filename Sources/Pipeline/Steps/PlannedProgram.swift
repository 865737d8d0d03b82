import Checks
import Intake
import JSONSchema

/// A program draft written within the backend's plan (`plan: pinned` in program-draft's
/// `prompt.yaml`). The model's reply is compact: a title, a one-sentence goal, for
/// each day of the `SessionLayout` one `[exercise, sets, reps]` per slot, each from
/// that slot's own lists, and one safety sentence. The backend expands it into the
/// app's program: the plan's weeks, phases, days and session names, the catalogue's
/// cue for each exercise in the person's language, the rest for its unit, and the
/// minutes of the work chosen.
enum PlannedProgram {
    /// A title: letters of the Latin alphabet (Spanish's included), no full stop.
    static let titlePattern = "^[A-ZÁÉÍÓÚÑ¿¡][A-Za-zÁÉÍÓÚÜÑáéíóúüñ0-9 ,:'&-]{2,58}$"
    /// One whole sentence in the Latin alphabet, ending in a full stop: a grammar that
    /// holds it can neither cut it mid-phrase nor switch script.
    static let sentencePattern = "^[A-ZÁÉÍÓÚÑ¿¡][A-Za-zÁÉÍÓÚÜÑáéíóúüñ0-9 ,;:'()%-]{10,150}[.]$"

    /// The reply schema for `layout`: every day's slots pinned in order (`prefixItems`,
    /// bounded by `minItems`/`maxItems`: llama.cpp refuses `"items": false`), each slot
    /// an exercise of its lists with the sets and reps its unit allows.
    static func replySchema(layout: SessionLayout) -> JSONValue {
        let days: [JSONValue] = layout.days.map { day in
            let slots: [JSONValue] = day.slots.map { slot in
                let choices: [JSONValue] = slot.choices.map { choice in
                    tuple([
                        ["enum": .array(choice.names.map(JSONValue.string))],
                        ["type": "integer", "minimum": .number(Double(choice.sets.lowerBound)), "maximum": .number(Double(choice.sets.upperBound))],
                        ["enum": .array(choice.reps.map(JSONValue.string))],
                    ])
                }
                return choices.count == 1 ? choices[0] : ["anyOf": .array(choices)]
            }
            return tuple(slots)
        }
        var properties = JSONObject()
        properties["title"] = ["type": "string", "pattern": .string(titlePattern)]
        properties["goal"] = ["type": "string", "pattern": .string(sentencePattern)]
        properties["days"] = tuple(days)
        properties["safety_note"] = ["type": "string", "pattern": .string(sentencePattern)]
        return [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object", "additionalProperties": false, "required": ["title", "goal", "days", "safety_note"],
            "properties": .object(properties),
        ]
    }

    /// An array of exactly these items, in this order.
    private static func tuple(_ items: [JSONValue]) -> JSONValue {
        ["type": "array", "prefixItems": .array(items), "minItems": .number(Double(items.count)), "maxItems": .number(Double(items.count))]
    }

    /// The output (`program_json`, without the markdown) the reply stands for.
    /// The equipment list holds what the chosen exercises need, bodyweight first, and
    /// no more kinds than `document` (the step's output schema) allows: when the
    /// choice needs more, bodyweight goes first, then the kinds fewest exercises need.
    static func expanded(_ reply: JSONValue, layout: SessionLayout, plan: ProgramPlan, document: JSONValue = .null) -> JSONValue {
        var sessions: [JSONValue] = []
        var used: [Equipment: Int] = [:]
        for (day, chosen) in zip(layout.days, reply["days"]?.arrayValue ?? []) {
            var exercises: [JSONValue] = []
            for (slot, entry) in zip(day.slots, chosen.arrayValue ?? []) {
                guard let name = entry[0]?.stringValue, let sets = entry[1]?.intValue, let reps = entry[2]?.stringValue,
                      let choice = slot.choices.first(where: { $0.names.contains(name) }) else { continue }
                for need in layout.exercises[name]?.needs ?? [] { used[need, default: 0] += 1 }
                exercises.append([
                    "name": .string(name), "sets": .number(Double(sets)), "reps": .string(reps),
                    "rest_seconds": .number(Double(choice.restSeconds)), "notes": .string(layout.cue(of: name) ?? ""),
                ])
            }
            var session: JSONValue = ["day": .number(Double(day.number)), "name": .string(day.name), "exercises": .array(exercises)]
            session = session.setting("minutes", to: .number(Double(SessionTime.statedMinutes(session))))
            sessions.append(session)
        }
        var equipment = [Equipment.bodyweight] + Equipment.allCases.filter { $0 != .bodyweight && used[$0] != nil }
        if let most = document["$defs"]?["program"]?["properties"]?["equipment"]?["maxItems"]?.intValue, equipment.count > most {
            equipment.removeFirst()
            let kept = Set(equipment.sorted { used[$0, default: 0] > used[$1, default: 0] }.prefix(most))
            equipment = equipment.filter(kept.contains)
        }
        let longest = sessions.compactMap { $0["minutes"]?.intValue }.max() ?? plan.minutes
        var program = JSONObject()
        program["title"] = reply["title"] ?? ""
        program["goal"] = reply["goal"] ?? ""
        program["progression"] = .array(plan.phases.map { phase in
            ["weeks": .string("\(phase.weeks.lowerBound)-\(phase.weeks.upperBound)"), "focus": .string(phase.focus)]
        })
        program["duration_weeks"] = .number(Double(plan.weeks))
        program["days_per_week"] = .number(Double(plan.days))
        program["session_minutes"] = .number(Double(longest))
        program["equipment"] = .array(equipment.map { .string($0.rawValue) })
        program["sessions"] = .array(sessions)
        program["safety_notes"] = .array([reply["safety_note"] ?? ""] + layout.notes.map(JSONValue.string))
        return [ProgramMarkdown.programKey: .object(program)]
    }
}

private extension JSONValue {
    func setting(_ key: String, to value: JSONValue) -> JSONValue {
        guard case .object(var object) = self else { return self }
        object[key] = value
        return .object(object)
    }
}

extension PlannedProgram {
    /// An edit's schema with every exercise it may name taken from what the person's
    /// layout offers: a replacement or an added exercise is one that suits them.
    static func narrowingExercises(of document: JSONValue, to layout: SessionLayout) -> JSONValue {
        guard case .object(var root) = document, case .object(var definitions)? = root["$defs"],
              case .object(var exercise)? = definitions["exercise"], case .object(var properties)? = exercise["properties"],
              !layout.exercises.isEmpty
        else { return document }
        let names = layout.days.flatMap { $0.slots.flatMap { $0.choices.flatMap(\.names) } }
        var unique: [String] = []
        for name in names where !unique.contains(name) { unique.append(name) }
        properties["name"] = ["enum": .array(unique.map(JSONValue.string))]
        exercise["properties"] = .object(properties)
        definitions["exercise"] = .object(exercise)
        root["$defs"] = .object(definitions)
        return .object(root)
    }
}

extension PlannedProgram {
    /// An edit's operations schema pinned to `program` and its layout: an exercise the
    /// layout offered is replaced by another of its own slot, with that slot's sets, reps
    /// and rest, so a replacement keeps the session balanced and cannot be the exercise
    /// it replaces; an exercise is added only to a day with room for it, and removed only
    /// where every session keeps its fewest exercises (the output schema's bounds).
    static func pinningOperations(in schema: JSONValue, editing program: JSONValue, layout: SessionLayout) -> JSONValue {
        guard case .object(var root) = schema, case .object(var properties)? = root["properties"],
              case .object(var operations)? = properties["operations"], case .object(var items)? = operations["items"],
              var kinds = items["anyOf"]?.arrayValue, let replaceIndex = kinds.firstIndex(where: { $0["properties"]?["op"]?["const"] == "replace" })
        else { return schema }
        let names = ProgramOperations.exerciseNames(of: program)
        let notes = root["$defs"]?["exercise"]?["properties"]?["notes"] ?? ["type": "string", "maxLength": 80]
        var pinned: [JSONValue] = []
        for name in names {
            guard let slot = layout.slot(offering: name) else { continue }
            let alternatives: [JSONValue] = slot.choices.compactMap { choice in
                let others = choice.names.filter { $0 != name }
                guard !others.isEmpty else { return nil }
                var exercise = JSONObject()
                exercise["name"] = ["enum": .array(others.map(JSONValue.string))]
                exercise["sets"] = ["type": "integer", "minimum": .number(Double(choice.sets.lowerBound)), "maximum": .number(Double(choice.sets.upperBound))]
                exercise["reps"] = ["enum": .array(choice.reps.map(JSONValue.string))]
                exercise["rest_seconds"] = ["const": .number(Double(choice.restSeconds))]
                exercise["notes"] = notes
                return ["type": "object", "additionalProperties": false, "required": .array(exercise.keys.map(JSONValue.string)), "properties": .object(exercise)]
            }
            guard !alternatives.isEmpty else { continue }
            var operation = JSONObject()
            operation["op"] = ["const": "replace"]
            operation["exercise"] = ["const": .string(name)]
            operation["with"] = alternatives.count == 1 ? alternatives[0] : ["anyOf": .array(alternatives)]
            pinned.append(["type": "object", "additionalProperties": false, "required": ["op", "exercise", "with"], "properties": .object(operation)])
        }
        if !pinned.isEmpty { kinds.replaceSubrange(replaceIndex...replaceIndex, with: pinned) }
        let sessions = program["sessions"]?.arrayValue ?? []
        let counts = sessions.map { $0["exercises"]?.arrayValue?.count ?? 0 }
        let session = root["$defs"]?["session"]?["properties"]?["exercises"]
        let most = session?["maxItems"]?.intValue ?? 5
        let fewest = session?["minItems"]?.intValue ?? 1
        let roomy = counts.indices.filter { counts[$0] < most }.map { JSONValue.number(Double($0 + 1)) }
        let removable = names.filter { name in
            sessions.indices.allSatisfy { index in
                !(sessions[index]["exercises"]?.arrayValue ?? []).contains { $0["name"]?.stringValue == name } || counts[index] > fewest
            }
        }
        kinds = kinds.compactMap { kind in
            guard case .object(var operation) = kind, case .object(var fields)? = operation["properties"] else { return kind }
            switch fields["op"]?["const"]?.stringValue {
            case "add":
                guard !roomy.isEmpty else { return nil }
                fields["day"] = ["enum": .array(roomy)]
            case "remove":
                guard !removable.isEmpty else { return nil }
                fields["exercise"] = ["enum": .array(removable.map(JSONValue.string))]
            default:
                return kind
            }
            operation["properties"] = .object(fields)
            return .object(operation)
        }
        items["anyOf"] = .array(kinds)
        operations["items"] = .object(items)
        properties["operations"] = .object(operations)
        root["properties"] = .object(properties)
        return .object(root)
    }
}

extension PlannedProgram {
    /// An edited program (`output`) without what the person's feedback asked to take
    /// out (`requested`: exercise name to the sentence that asked): each such exercise
    /// becomes the first other exercise of its slot that is neither requested out nor
    /// in that session already, with its sets and reps kept where the new one allows
    /// them. `replaced` says what changed, one line each, for the step's interventions.
    static func honouring(_ requested: [String: String], in output: JSONValue, layout: SessionLayout) -> (output: JSONValue, replaced: [String]) {
        guard !requested.isEmpty else { return (output, []) }
        var replaced: [String] = []
        let honoured = changingSessions(of: output) { session, index in
            var exercises = session["exercises"]?.arrayValue ?? []
            for position in exercises.indices {
                guard let name = exercises[position]["name"]?.stringValue, let evidence = requested[name], let slot = layout.slot(offering: name)
                else { continue }
                let held = Set(exercises.compactMap { $0["name"]?.stringValue })
                let options = slot.choices.flatMap { choice in choice.names.map { (choice, $0) } }
                guard let (choice, other) = options.first(where: { requested[$0.1] == nil && !held.contains($0.1) }) else { continue }
                let sets = min(max(exercises[position]["sets"]?.intValue ?? choice.sets.lowerBound, choice.sets.lowerBound), choice.sets.upperBound)
                let reps = exercises[position]["reps"]?.stringValue.flatMap { choice.reps.contains($0) ? $0 : nil } ?? choice.reps.first ?? ""
                exercises[position] = [
                    "name": .string(other), "sets": .number(Double(sets)), "reps": .string(reps),
                    "rest_seconds": .number(Double(choice.restSeconds)), "notes": .string(layout.cue(of: other) ?? ""),
                ]
                replaced.append("replaced \"\(name)\" with \"\(other)\" in day \(index + 1): the feedback said \"\(evidence)\"")
            }
            session["exercises"] = .array(exercises)
        }
        return (honoured, replaced)
    }

    /// `output` with each exercise note that says what must not be shown (`blocked`
    /// judges a note's text) replaced by the catalogue's cue in the person's language;
    /// `replaced` names each, for the step's interventions. An edit's other notes stay:
    /// they carry what the person asked for ("high bar on volume days").
    static func withSafeNotes(
        _ output: JSONValue, layout: SessionLayout, blocked: (String) -> [Intervention]
    ) -> (output: JSONValue, replaced: [String]) {
        // The guardrails judge sentence by sentence, and a note's sentences are sentences of
        // all the notes on their lines: when all of them together hold nothing to block, no
        // one note does, and one look replaces one per exercise.
        let notes = (output[ProgramMarkdown.programKey]?["sessions"]?.arrayValue ?? []).flatMap { session in
            (session["exercises"]?.arrayValue ?? []).compactMap { exercise in
                exercise["name"]?.stringValue.flatMap(layout.cue(of:)) == nil ? nil : exercise["notes"]?.stringValue
            }
        }
        guard !notes.isEmpty, !blocked(notes.joined(separator: "\n")).isEmpty else { return (output, []) }
        var replaced: [String] = []
        let safe = changingSessions(of: output) { session, index in
            session["exercises"] = .array((session["exercises"]?.arrayValue ?? []).map { exercise in
                guard case .object(var fields) = exercise, let name = fields["name"]?.stringValue, let cue = layout.cue(of: name),
                      let note = fields["notes"]?.stringValue, let first = blocked(note).first
                else { return exercise }
                fields["notes"] = .string(cue)
                replaced.append("the note on \"\(name)\" in day \(index + 1) is the catalogue's cue: \(first.detail)")
                return .object(fields)
            })
        }
        return (safe, replaced)
    }

    /// `output` with each session of its program changed by `change`, given the session's position.
    private static func changingSessions(of output: JSONValue, _ change: (inout JSONObject, Int) -> Void) -> JSONValue {
        guard case .object(var object) = output, case .object(var program)? = object[ProgramMarkdown.programKey],
              let sessions = program["sessions"]?.arrayValue
        else { return output }
        program["sessions"] = .array(sessions.changingObjects(change))
        object[ProgramMarkdown.programKey] = .object(program)
        return .object(object)
    }
}
