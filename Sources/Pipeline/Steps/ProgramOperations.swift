import JSONSchema

/// A program edit given as operations (`edit: operations` in program-edit's
/// `prompt.yaml`): the model names its change and the smallest list of operations that
/// makes it, and the harness applies them, in order, to the current program. The model
/// no longer copies the whole program to change one exercise, so it cannot return the
/// draft unchanged by copying it, and it writes a tenth of the tokens.
///
/// The reply schema is fitted to the program being edited: an operation names one of
/// its exercises (an `enum` of their names) or one of its days (`1` to the number of
/// sessions), so it always applies.
enum ProgramOperations {
    /// The operations, each an object whose `op` comes first.
    enum Kind: String, CaseIterable, Sendable {
        /// Every occurrence of `exercise` becomes `with`.
        case replace
        /// `exercise` joins the session of `day`.
        case add
        /// Every occurrence of `exercise` goes.
        case remove
        /// The session of `day` goes, and the days after it move up.
        case removeDay = "remove-day"
        /// `session` joins the week as its last day.
        case addDay = "add-day"
        /// The plan runs `duration_weeks`.
        case weeks
        /// `text` joins the safety notes, in place of the last when the schema's limit is reached.
        case safetyNote = "safety-note"
    }

    /// What an edit needs from the step's schema: where the parts of a program are defined.
    static let requiredDefinitions = ["exercise", "session", "program"]

    /// The reply schema for editing `program` (as the step shows it), from the step's
    /// output schema `document` (fitted to the person when the step asks): `change`
    /// when the schema has one, then `operations`.
    static func replySchema(editing program: JSONValue, document: JSONValue) -> JSONValue {
        let sessions = program["sessions"]?.arrayValue ?? []
        let names = exerciseNames(of: program).map(JSONValue.string)
        let programProperties = document["$defs"]?["program"]?["properties"]
        let exerciseName: JSONValue = names.isEmpty ? ["type": "string"] : ["enum": .array(names)]
        let day: JSONValue = ["type": "integer", "minimum": 1, "maximum": .number(Double(max(sessions.count, 1)))]
        let exercise: JSONValue = ["$ref": "#/$defs/exercise"]
        let operation = { (kind: Kind, fields: [(String, JSONValue)]) -> JSONValue in
            var properties = JSONObject()
            properties["op"] = ["const": .string(kind.rawValue)]
            for (name, schema) in fields { properties[name] = schema }
            return [
                "type": "object", "additionalProperties": false, "properties": .object(properties),
                "required": .array(properties.keys.map(JSONValue.string)),
            ]
        }
        let operations: [JSONValue] = [
            operation(.replace, [("exercise", exerciseName), ("with", exercise)]),
            operation(.add, [("day", day), ("exercise", exercise)]),
            operation(.remove, [("exercise", exerciseName)]),
            operation(.removeDay, [("day", day)]),
            operation(.addDay, [("session", ["$ref": "#/$defs/session"])]),
            operation(.weeks, [("duration_weeks", programProperties?["duration_weeks"] ?? ["type": "integer", "minimum": 1])]),
            operation(.safetyNote, [("text", programProperties?["safety_notes"]?["items"] ?? ["type": "string", "minLength": 3])]),
        ]
        var properties = JSONObject()
        if let change = document["properties"]?["change"] { properties["change"] = change }
        properties["operations"] = [
            "type": "array", "minItems": 1, "maxItems": 6, "items": ["anyOf": .array(operations)],
            "description": "Applied in order to the current program; a day is numbered as it is when its operation runs.",
        ]
        var schema = JSONObject()
        for key in ["$schema", "$id"] { if let value = document[key] { schema[key] = value } }
        schema["type"] = "object"
        schema["additionalProperties"] = false
        schema["required"] = .array(properties.keys.map(JSONValue.string))
        schema["properties"] = .object(properties)
        if let definitions = document["$defs"] { schema["$defs"] = definitions }
        return .object(schema)
    }

    /// The names of `program`'s exercises, each once, in the order the sessions hold them.
    static func exerciseNames(of program: JSONValue) -> [String] {
        var names: [String] = []
        for session in program["sessions"]?.arrayValue ?? [] {
            for exercise in session["exercises"]?.arrayValue ?? [] {
                if let name = exercise["name"]?.stringValue, !names.contains(name) { names.append(name) }
            }
        }
        return names
    }

    /// The reply's program: `program` with the reply's operations applied in order,
    /// beside the reply's `change`. `document` is the step's output schema, which says
    /// how many safety notes a program holds.
    static func applying(_ reply: JSONValue, to program: JSONValue, document: JSONValue) -> JSONValue {
        let noteLimit = document["$defs"]?["program"]?["properties"]?["safety_notes"]?["maxItems"]?.intValue
        var result = program
        for operation in reply["operations"]?.arrayValue ?? [] {
            result = apply(operation, to: result, noteLimit: noteLimit)
        }
        return output(of: reply, program: result)
    }

    /// The reply's `change` beside the program its operations made.
    private static func output(of reply: JSONValue, program: JSONValue) -> JSONValue {
        var output = JSONObject()
        if let change = reply["change"] { output["change"] = change }
        output[ProgramMarkdown.programKey] = program
        return .object(output)
    }

    /// `applying(_:to:document:)` for a pinned program, which the backend keeps whole: an
    /// operation is applied to each session only where it leaves no exercise twice and
    /// at least the session's fewest exercises (the schema's `minItems`); where it would
    /// not, that session keeps what it had. A day beyond `mostDays` (the plan's days) is
    /// not added. `limited` says, one line each, what was held back, for the step's
    /// interventions.
    static func applyingWithinBounds(
        _ reply: JSONValue, to program: JSONValue, document: JSONValue, mostDays: Int? = nil
    ) -> (output: JSONValue, limited: [String]) {
        let noteLimit = document["$defs"]?["program"]?["properties"]?["safety_notes"]?["maxItems"]?.intValue
        let fewest = document["$defs"]?["session"]?["properties"]?["exercises"]?["minItems"]?.intValue ?? 1
        var result = program
        var limited: [String] = []
        for operation in reply["operations"]?.arrayValue ?? [] {
            let before = result["sessions"]?.arrayValue ?? []
            let candidate = apply(operation, to: result, noteLimit: noteLimit)
            guard case .object(var object) = candidate, var after = candidate["sessions"]?.arrayValue else { continue }
            let described = describe(operation)
            if let mostDays, after.count > max(mostDays, before.count) {
                limited.append("\(described) not applied: the plan has \(mostDays) days a week")
                continue
            }
            if after.count != before.count {
                let faulty = { (sessions: [JSONValue]) in sessions.indices.filter { !fault(in: sessions[$0], fewest: fewest).isEmpty } }
                if faulty(after).count > faulty(before).count, let broken = faulty(after).last {
                    limited.append("\(described) not applied: day \(broken + 1) would have \(fault(in: after[broken], fewest: fewest))")
                    continue
                }
            } else {
                for index in after.indices where after[index] != before[index] {
                    let problem = fault(in: after[index], fewest: fewest)
                    guard !problem.isEmpty, fault(in: before[index], fewest: fewest).isEmpty else { continue }
                    after[index] = before[index]
                    limited.append("\(described) not applied to day \(index + 1): it would have \(problem)")
                }
                object["sessions"] = .array(after)
            }
            result = .object(object)
        }
        return (output(of: reply, program: result), limited)
    }

    /// What makes a pinned session unusable, in words ("held X twice"), or "" when nothing does.
    private static func fault(in session: JSONValue, fewest: Int) -> String {
        let names = (session["exercises"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue?.lowercased() }
        if names.count < fewest { return "held \(names.count) exercises, fewer than \(fewest)" }
        var seen: Set<String> = []
        if let twice = names.first(where: { !seen.insert($0).inserted }) { return "held \"\(twice)\" twice" }
        return ""
    }

    /// An operation as a reader would name it: `remove "Goblet squat"`, `remove-day day 2`.
    private static func describe(_ operation: JSONValue) -> String {
        let kind = operation["op"]?.stringValue ?? "operation"
        let name = operation["exercise"]?.stringValue ?? operation["exercise"]?["name"]?.stringValue
        let day = name == nil ? operation["day"]?.intValue : nil
        return [kind, name.map { "\"\($0)\"" }, day.map { "day \($0)" }].compactMap { $0 }.joined(separator: " ")
    }

    private static func apply(_ operation: JSONValue, to program: JSONValue, noteLimit: Int?) -> JSONValue {
        guard case .object(var object) = program, let kind = operation["op"]?.stringValue.flatMap(Kind.init(rawValue:)) else { return program }
        var sessions = object["sessions"]?.arrayValue ?? []
        /// Each session's exercises, changed by `change`.
        func eachSession(_ change: ([JSONValue]) -> [JSONValue]) {
            sessions = sessions.changingObjects { fields, _ in fields["exercises"] = .array(change(fields["exercises"]?.arrayValue ?? [])) }
        }
        let named = operation["exercise"]
        let dayIndex = (operation["day"]?.intValue).map { $0 - 1 }.flatMap { sessions.indices.contains($0) ? $0 : nil }
        switch kind {
        case .replace:
            if let replacement = operation["with"] {
                eachSession { $0.map { $0["name"] == named ? replacement : $0 } }
            }
        case .add:
            if let dayIndex, case .object(var session) = sessions[dayIndex], let exercise = operation["exercise"] {
                session["exercises"] = .array((session["exercises"]?.arrayValue ?? []) + [exercise])
                sessions[dayIndex] = .object(session)
            }
        case .remove:
            eachSession { $0.filter { $0["name"] != named } }
        case .removeDay:
            if let dayIndex, sessions.count > 1 { sessions.remove(at: dayIndex) }
        case .addDay:
            if let session = operation["session"] { sessions.append(session) }
        case .weeks:
            if let weeks = operation["duration_weeks"] { object["duration_weeks"] = weeks }
        case .safetyNote:
            if let text = operation["text"] {
                var notes = object["safety_notes"]?.arrayValue ?? []
                if let noteLimit, notes.count >= noteLimit, !notes.isEmpty { notes.removeLast() }
                object["safety_notes"] = .array(notes + [text])
            }
        }
        if kind == .removeDay || kind == .addDay {
            sessions = sessions.changingObjects { fields, index in fields["day"] = .number(Double(index + 1)) }
            object["days_per_week"] = .number(Double(sessions.count))
        }
        object["sessions"] = .array(sessions)
        return .object(object)
    }
}
