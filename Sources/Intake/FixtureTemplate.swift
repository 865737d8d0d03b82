import Foundation
import JSONSchema

/// `fixtures new NAME`: a starting record and scenario for a new person.
///
/// The record is the one given (an intake exported from the app, say), or every
/// field of the app's form with a `TODO:` saying what the app asks. The scenario
/// holds every expectation the record calls for, each with the answer it comes from
/// in a comment and `TODO` where the value goes. The values are left to the author
/// on purpose: a scenario's expectations are the oracle the outputs are judged by,
/// so they come from a person reading the answers, never from the backend's own
/// reading of them. `fixtures check` names every `TODO` still there.
public enum FixtureTemplate {
    /// What a template leaves for its author: a text starting with it is a placeholder.
    public static let placeholder = "TODO"

    /// Writes `fixtures/NAME.json` and `fixtures/NAME.yaml`, never over an existing file.
    /// `record`, when given, is checked as `fixtures check` checks one.
    public static func write(name: String, record recordFile: URL?, corpus: FixtureCorpus) throws(FixtureTemplateError) -> (record: URL, scenario: URL) {
        let layout = corpus.layout
        guard name.range(of: #"^[a-z0-9]+(-[a-z0-9]+)*$"#, options: .regularExpression) != nil else {
            throw .badName(name)
        }
        guard ReservedGoldenFolder.all[name] == nil else { throw .reservedName(name) }
        let recordURL = layout.fixtures.appendingPathComponent("\(name).json")
        let scenarioURL = layout.fixtures.appendingPathComponent("\(name).yaml")
        for url in [recordURL, scenarioURL, layout.fixtures.appendingPathComponent("\(name).yml")] where FileManager.default.fileExists(atPath: url.path) {
            throw .exists(layout.displayPath(of: url))
        }
        var record: (value: LocalIntakeData, json: JSONValue)?
        if let recordFile {
            let checked = corpus.checkRecord(at: recordFile)
            guard let value = checked.value, let json = checked.json else { throw .badRecord(checked.problems.map(\.description)) }
            record = (value, json)
        }
        do {
            try FileManager.default.createDirectory(at: layout.fixtures, withIntermediateDirectories: true)
            try Data(recordText(record?.json).utf8).write(to: recordURL, options: .withoutOverwriting)
            try Data(scenarioText(name: name, record: record?.value).utf8).write(to: scenarioURL, options: .withoutOverwriting)
        } catch {
            throw .unwritable(error.localizedDescription)
        }
        return (recordURL, scenarioURL)
    }

    /// What the app asks for each field, for the blank record.
    static let questions: [String: String] = [
        "name": "their first name", "age": "their age in years, a whole number",
        "gender": "their gender as they chose it", "goals": "what they want, in their own words, typed or dictated",
        "timeline": "by when, in their words (\"3 months\", \"by summer\")", "experienceLevel": "their training experience",
        "frequency": "the days a week they can train, in their words", "currentRoutine": "what they do now",
        "pastAttempts": "what worked or failed before", "hobbySports": "their sports and hobbies",
        "height": "their height in inches, a whole number (5'8\" is 68)", "weight": "their weight in pounds, a whole number",
        "bodyComp": "their body composition, if they said", "physicalBaseline": "what they can do now (push-ups, a run)",
        "mobility": "how they move, what is tight", "injuries": "current limitations and past injuries, or none",
        "healthNuances": "conditions, medication, pregnancy", "supplements": "what they take",
        "activityLevel": "how active their days are", "sleep": "how they sleep", "nutrition": "how they eat",
        "environment": "where they train and the equipment they have", "movementPrefs": "what they like and dislike doing",
        "coachingStyle": "how they want to be coached", "anythingElse": "anything else, such as the time they have for a session",
    ]

    /// The record as the app encodes it: its fields in the app's order, two spaces deep.
    /// Without one, every field holds a placeholder saying what the app asks; remove the
    /// fields the person skipped.
    static func recordText(_ record: JSONValue?) -> String {
        let members: [(String, JSONValue)] = LocalIntakeData.fieldKeys.compactMap { key in
            guard let record else { return (key, .string("\(placeholder): \(questions[key] ?? key); remove the field if they skipped it")) }
            return record[key].map { (key, $0) }
        }
        let lines = members.map { "  \(JSONValue.string($0.0).serialized(.compact)): \($0.1.serialized(.compact))" }
        return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }

    /// The scenario: the keys every scenario has, then each expectation the record calls
    /// for (for a blank record, all of them), its answer quoted above it.
    static func scenarioText(name: String, record: LocalIntakeData?) -> String {
        var lines = [
            "# What the pipeline does with \(name)'s record and what every output must respect;",
            "# fixtures/README.md says what each key means. Replace every \(placeholder), then run",
            "# `trainer-eval fixtures check`, which names any left.",
            "summary: \"\(placeholder): who this person is and what the fixture tests, in one line\"",
            "tags: []                 # short kebab-case labels (injury, home...); `dev` marks the development set",
            "option_edits: []         # rounds of their feedback on the goal options: - feedback: \"...\"",
            "confirm:",
            "  position: 1            # the option they confirm; `prefer: [words]` picks by its words",
            "program_edit:",
            "  feedback: \"\(placeholder): what they say about the drafted program, in their words\"",
            "expect:",
        ]
        let asks = ExpectationCoverage.requirements.compactMap { requirement -> (ExpectationCoverage.Requirement, String?)? in
            guard let record else { return (requirement, nil) }
            for field in requirement.fields {
                if let answer = record[keyPath: field.answer], let range = requirement.evidence(answer) {
                    return (requirement, "\(field.key): \"\(ExpectationCoverage.quote(answer, around: range))\"")
                }
            }
            return nil
        }
        for (requirement, source) in asks {
            lines.append("  # " + (source ?? "from \(requirement.fields.map(\.key).joined(separator: " or "))"))
            lines.append("  \(requirement.key): \(Self.placeholderValue(for: requirement.key))")
        }
        let health = [("injuries", record?.injuries), ("healthNuances", record?.healthNuances)].compactMap { key, answer -> String? in
            guard let answer, let range = ExpectationCoverage.unlessNothingToReport(answer) else { return nil }
            return "\(key): \"\(ExpectationCoverage.quote(answer, around: range))\""
        }
        if record == nil || !health.isEmpty {
            lines += (health.isEmpty ? ["from injuries and healthNuances"] : health).map { "  # " + $0 }
            lines.append("  professional_referral: \(placeholder)   # true when they should check with a professional first")
        }
        if let first = record?.name {
            lines.append("  mention: [\(JSONValue.string(first).serialized(.compact))]")
        } else {
            lines.append("  # mention: [their first name]")
        }
        lines.append("  # language: es          # when they wrote in another language than English")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A value `fixtures check` refuses until the author replaces it.
    private static func placeholderValue(for key: String) -> String {
        switch key {
        case "max_days_per_week": "\(placeholder)   # the most days a week they said, 1..7"
        case "max_session_minutes": "\(placeholder)   # the longest session they said they have, in minutes"
        case "equipment": "[\(placeholder)]   # only what they have: " + Equipment.allCases.map(\.rawValue).joined(separator: ", ")
        case "avoid": "[\(placeholder)]   # words of the movements their injuries rule out, as exercise names use them"
        default: placeholder
        }
    }

    /// Where `value` still holds a placeholder, as JSON Pointers.
    static func placeholders(in value: JSONValue, at pointer: JSONPointer = JSONPointer(tokens: [])) -> [JSONPointer] {
        switch value {
        case .string(let text): return text.hasPrefix(placeholder) ? [pointer] : []
        case .array(let items): return items.enumerated().flatMap { placeholders(in: $0.element, at: pointer.appending(String($0.offset))) }
        case .object(let object): return object.members.flatMap { placeholders(in: $0.value, at: pointer.appending($0.key)) }
        default: return []
        }
    }
}

/// `fixtures new` cannot write the pair.
public enum FixtureTemplateError: Error, Equatable, CustomStringConvertible {
    case badName(String)
    case reservedName(String)
    case exists(String)
    case badRecord([String])
    case unwritable(String)

    public var description: String {
        switch self {
        case .badName(let name): "`\(name)` is not a fixture name: use lowercase letters, digits and single hyphens (`new-runner`)."
        case .reservedName(let name): "`\(name)` is reserved: golden/\(name)/ holds \(ReservedGoldenFolder.all[name] ?? "files of its own"); choose another name."
        case .exists(let path): "\(path) already exists; fixtures new never overwrites a fixture. Choose another name, or edit that one."
        case .badRecord(let problems): "The record cannot be used:\n" + problems.map { "  \($0)" }.joined(separator: "\n")
        case .unwritable(let reason): "The fixture could not be written: \(reason)."
        }
    }
}
