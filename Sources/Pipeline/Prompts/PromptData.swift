import Foundation
import Intake
import JSONSchema

/// Renders user-provided data for a prompt so it cannot escape its fence.
///
/// Data goes into prompts as JSON inside tags such as `<intake_data>`. JSON
/// escaping keeps quotes and newlines from breaking out of a value, and `<`,
/// `>` are written as `\u003c`, `\u003e` so no text in a value can close the
/// tag it sits in or open a fake one. Values are never parsed as templates.
public enum PromptData {
    /// `value` as JSON text that is safe inside a tag fence.
    public static func fenced(_ value: JSONValue, pretty: Bool = true) -> String {
        value.serialized(JSONWriteOptions(pretty: pretty, escapesAngleBrackets: true))
    }

    /// A goal option with its fields in the order the app reads them (`id`, `summary`,
    /// `detail`, then the backend's `kind` and `weeks`, then any other in its own order),
    /// whether it comes from a run or from an approved file, whose keys are sorted:
    /// `render` then shows the confirmed goal exactly as a run sends it.
    public static func goalOption(_ option: JSONValue) -> JSONValue {
        guard case .object(let object) = option else { return option }
        let order = ["id", "summary", "detail", "kind", "weeks"]
        let known = order.compactMap { key in object[key].map { JSONObject.Member(key: key, value: $0) } }
        return .object(JSONObject(known + object.members.filter { !order.contains($0.key) }))
    }

    /// Goal options as numbered lines of their summary and detail, each a fenced JSON
    /// string, without ids: a list to read, not a JSON answer a small model can copy
    /// back unchanged.
    public static func optionLines(_ options: JSONValue) -> String {
        (options["options"]?.arrayValue ?? []).enumerated().map { index, option in
            let summary = fenced(option["summary"] ?? .string(""), pretty: false)
            let detail = fenced(option["detail"] ?? .string(""), pretty: false)
            return "\(index + 1). \(summary): \(detail)"
        }.joined(separator: "\n")
    }

    /// A program as short lines a small model reads quickly: its weeks and days, each
    /// session's exercises with their sets and reps, and its safety notes.
    public static func programLines(_ program: JSONValue) -> String {
        var lines: [String] = []
        if let weeks = program["duration_weeks"]?.intValue, let days = program["days_per_week"]?.intValue {
            lines.append("\(weeks) weeks, \(days) days a week")
        }
        for session in program["sessions"]?.arrayValue ?? [] {
            let exercises = (session["exercises"]?.arrayValue ?? []).map { exercise in
                "\(exercise["name"]?.stringValue ?? "?") \(exercise["sets"]?.intValue ?? 0) x \(exercise["reps"]?.stringValue ?? "")"
            }
            lines.append("Day \(session["day"]?.intValue ?? 0), \(session["name"]?.stringValue ?? ""): " + exercises.joined(separator: "; "))
        }
        for note in program["safety_notes"]?.arrayValue?.compactMap(\.stringValue) ?? [] { lines.append("Safety note: \(note)") }
        return lines.joined(separator: "\n")
    }

    /// The answered intake fields in the app's order, with height and weight in
    /// readable units (`5'8" (68 in)`, `150 lb`).
    public static func intake(_ record: LocalIntakeData) -> JSONValue {
        var object = JSONObject()
        for field in record.answeredFields {
            if field.key == "age", let age = record.age {
                object[field.key] = .number(Double(age))
            } else if let value = record.displayValue(of: field) {
                object[field.key] = .string(value)
            }
        }
        return .object(object)
    }

    /// The answers a goal option is written from: their age, goals, timeline, experience
    /// and sports. The backend has read the rest into the option's brief and facts.
    public static func goalAnswers(_ record: LocalIntakeData) -> JSONValue {
        guard case .object(let all) = intake(record) else { return intake(record) }
        var object = JSONObject()
        for key in ["age", "goals", "timeline", "experienceLevel", "hobbySports"] { if let value = all[key] { object[key] = value } }
        return .object(object)
    }

    /// The labels of the questions the user skipped, comma separated, or nil when none were.
    public static func skippedFields(_ record: LocalIntakeData) -> String? {
        let answered = Set(record.answeredFields.map(\.key))
        let skipped = LocalIntakeData.fields.filter { !answered.contains($0.key) }.map(\.key)
        return skipped.isEmpty ? nil : skipped.joined(separator: ", ")
    }
}
