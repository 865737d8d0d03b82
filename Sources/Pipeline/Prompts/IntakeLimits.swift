import Foundation
import Intake
import JSONSchema

/// What one person's intake bounds in a program, read from their own answers:
/// the days a week they can train, the equipment they have, the longest session.
/// Nil means the answers do not say.
public struct IntakeLimits: Sendable, Hashable {
    public var days: Int?
    /// The equipment their environment names (bodyweight always included); nil for any.
    public var equipment: [Equipment]?
    public var sessionMinutes: Int?

    public init(days: Int? = nil, equipment: [Equipment]? = nil, sessionMinutes: Int? = nil) {
        self.days = days
        self.equipment = equipment
        self.sessionMinutes = sessionMinutes
    }

    /// The template variables a program step's `user.mustache` may show the limits
    /// with, so that the model reads them as words and not only as a decoding
    /// grammar: `available_days` ("3"), `available_minutes` ("25") and
    /// `available_equipment` ("bodyweight, mat, dumbbell"), and `available_sets`, the
    /// sets in all that fill `available_minutes` ("13" for 25: a 5-minute warm-up, then
    /// about a minute and a half a set of 10 reps and a minute's rest). A limit the
    /// answers do not set is absent, so a `{{#available_days}}` section drops out.
    public static let variableNames: Set<String> = ["available_days", "available_minutes", "available_equipment", "available_sets"]

    var templateVariables: [String: String] {
        var variables: [String: String] = [:]
        if let days { variables["available_days"] = String(days) }
        if let sessionMinutes {
            variables["available_minutes"] = String(sessionMinutes)
            variables["available_sets"] = String(max(3, Int(Double(sessionMinutes - 5) / 1.5)))
        }
        if let equipment { variables["available_equipment"] = equipment.map(\.rawValue).joined(separator: ", ") }
        return variables
    }

    /// A program schema (`program.schema.json`'s shape) with these bounds written in:
    /// `days_per_week` and `sessions`, the equipment words, the minutes. A path the
    /// schema does not have is left alone.
    public func narrowing(_ schema: JSONValue) -> JSONValue {
        var schema = schema
        func update(_ path: [String], _ change: (inout JSONObject) -> Void) {
            schema = Self.updating(schema, at: path[...], change)
        }
        let program = ["$defs", "program", "properties"]
        if let days {
            update(program + ["days_per_week"]) { $0["maximum"] = .number(Double(days)) }
            update(program + ["sessions"]) { $0["maxItems"] = .number(Double(days)) }
        }
        if let sessionMinutes {
            update(program + ["session_minutes"]) { $0["maximum"] = .number(Double(sessionMinutes)) }
            update(["$defs", "session", "properties", "minutes"]) { $0["maximum"] = .number(Double(sessionMinutes)) }
        }
        if let equipment {
            update(["$defs", "equipment"]) { $0["enum"] = .array(equipment.map { .string($0.rawValue) }) }
            // Unique items of N words are at most N; a grammar cannot enforce `uniqueItems`,
            // so without this bound a small model can repeat one word to the token limit.
            update(program + ["equipment"]) { $0["maxItems"] = .number(Double(equipment.count)) }
        }
        return schema
    }

    private static func updating(_ value: JSONValue, at path: ArraySlice<String>, _ change: (inout JSONObject) -> Void) -> JSONValue {
        guard case .object(var object) = value else { return value }
        guard let key = path.first else {
            change(&object)
            return .object(object)
        }
        guard let child = object[key] else { return value }
        object[key] = updating(child, at: path.dropFirst(), change)
        return .object(object)
    }
}

/// The vocabulary `prompts/intake-limits.yaml` reads an intake with.
public struct IntakeLimitRules: Sendable {
    var dayNumbers: [String: Int] = [:]
    var everyDay: [[String]] = []
    var minuteFields: [String] = []
    var everything: [[String]] = []
    var gym: [[String]] = []
    var negators: Set<String> = []
    var equipmentWords: [(Equipment, [[String]])] = []

    /// The file's place in a project.
    public static func file(in layout: ProjectLayout) -> URL { layout.prompts.appendingPathComponent("intake-limits.yaml") }

    /// The rules of `prompts/intake-limits.yaml`; nil when the project has none.
    static func load(layout: ProjectLayout) throws(PromptError) -> IntakeLimitRules? {
        guard let file = try RulesFile.read(file(in: layout), layout: layout) else { return nil }
        let document = file.document
        let problem = file.problem
        func phrases(_ tokens: [String]) throws(PromptError) -> [[String]] {
            var value: JSONValue? = document.value
            for token in tokens { value = value?[token] }
            guard let list = value?.arrayValue, case let words = list.compactMap(\.stringValue), words.count == list.count else {
                throw problem(tokens, "`\(tokens.joined(separator: "."))` must be a list of words or phrases")
            }
            return words.map(Self.words)
        }
        var rules = IntakeLimitRules()
        guard let numbers = document.value["days"]?["numbers"], case .object(let object) = numbers else {
            throw problem(["days", "numbers"], "`days.numbers` must map number words to 1-7")
        }
        for member in object {
            guard let number = member.value.intValue, (1...7).contains(number) else {
                throw problem(["days", "numbers", member.key], "`\(member.key)` must be a whole number from 1 to 7")
            }
            rules.dayNumbers[member.key.lowercased()] = number
        }
        rules.everyDay = try phrases(["days", "every_day"])
        rules.minuteFields = (document.value["minutes"]?["fields"]?.arrayValue ?? []).compactMap(\.stringValue)
        let textFields = Set(LocalIntakeData.fields.filter(\.isText).map(\.key))
        for field in rules.minuteFields where !textFields.contains(field) {
            throw problem(["minutes", "fields"], "`\(field)` is not a free-text intake field")
        }
        rules.everything = try phrases(["equipment", "everything"])
        rules.gym = try phrases(["equipment", "gym"])
        rules.negators = Set(try phrases(["equipment", "negators"]).flatMap { $0 })
        guard case .object(let words)? = document.value["equipment"]?["words"] else {
            throw problem(["equipment", "words"], "`equipment.words` must map equipment words to lists of phrases")
        }
        for member in words {
            guard let equipment = Equipment(rawValue: member.key) else {
                throw problem(["equipment", "words", member.key], "`\(member.key)` is not an equipment word of the program schema")
            }
            rules.equipmentWords.append((equipment, try phrases(["equipment", "words", member.key])))
        }
        return rules
    }

    /// Lower-case words: letters, digits, hyphens and apostrophes.
    static func words(_ text: String) -> [String] {
        text.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "'") }.map(String.init)
    }

    /// Where `phrase` occurs in `words`, as ranges of word positions.
    static func occurrences(of phrase: [String], in words: [String]) -> [Range<Int>] {
        guard !phrase.isEmpty, words.count >= phrase.count else { return [] }
        return (0...(words.count - phrase.count)).filter { words[$0..<($0 + phrase.count)].elementsEqual(phrase) }.map { $0..<($0 + phrase.count) }
    }

    static func contains(_ phrase: [String], in words: [String]) -> Bool {
        !occurrences(of: phrase, in: words).isEmpty
    }

    /// The bounds `record` sets.
    public func limits(for record: LocalIntakeData) -> IntakeLimits {
        IntakeLimits(days: days(record.frequency), equipment: equipment(record.environment), sessionMinutes: minutes(record))
    }

    /// The most days `frequency` names.
    func days(_ frequency: String?) -> Int? {
        guard let frequency else { return nil }
        let words = Self.words(frequency)
        if everyDay.contains(where: { Self.contains($0, in: words) }) { return 7 }
        // "3-4" and "5x" hold their numbers inside a word.
        let numbers = words.flatMap { word in word.split { !$0.isNumber }.compactMap { Int($0) } }.filter { (1...7).contains($0) }
        let named = words.compactMap { dayNumbers[$0] }
        return (numbers + named).max()
    }

    /// A number of minutes or hours: `45 min`, `1 hour`, `1.5 h`, `30 minutos`.
    private static let timePattern = try! NSRegularExpression(
        pattern: #"(\d+(?:\.\d+)?)\s*(hours?|hrs?|h|horas?|minutes?|mins?|minutos?|min)\b"#, options: [.caseInsensitive])

    /// The longest session the first field that names a time names, in minutes, at
    /// most 180: `anythingElse` before `coachingStyle`, so that a line pasted into the
    /// latter does not outweigh the person's own answer.
    func minutes(_ record: LocalIntakeData) -> Int? {
        let pattern = Self.timePattern
        var longest: Int?
        for field in minuteFields {
            guard let key = LocalIntakeData.fields.first(where: { $0.key == field }), let text = record.displayValue(of: key) else { continue }
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let numberRange = Range(match.range(at: 1), in: text), let unitRange = Range(match.range(at: 2), in: text),
                      let number = Double(text[numberRange]) else { continue }
                let minutes = text[unitRange].lowercased().hasPrefix("h") ? number * 60 : number
                guard minutes >= 10 else { continue }
                longest = max(longest ?? 0, min(180, Int(minutes.rounded())))
            }
            if longest != nil { return longest }
        }
        return longest
    }

    /// The equipment `environment` names; nil when it names everything, a gym without
    /// a list, or nothing at all.
    func equipment(_ environment: String?) -> [Equipment]? {
        guard let environment else { return nil }
        let clauses = environment.lowercased().split { ".,;:()+!?\n".contains($0) }.map { Self.words(String($0)) }
        let said = clauses.filter { $0.allSatisfy { !negators.contains($0) } }
        let all = said.flatMap { $0 + ["|"] }
        if everything.contains(where: { Self.contains($0, in: all) }) { return nil }
        var found: Set<Equipment> = [.bodyweight]
        for clause in said {
            var matches: [(equipment: Equipment, words: Range<Int>)] = []
            for (equipment, phrases) in equipmentWords {
                for phrase in phrases { matches += Self.occurrences(of: phrase, in: clause).map { (equipment, $0) } }
            }
            // A word inside a longer phrase belongs to it: "a cable machine" is no weight machine.
            for match in matches where !matches.contains(where: { $0.words.count > match.words.count && $0.words.clamped(to: match.words) == match.words }) {
                found.insert(match.equipment)
            }
        }
        if found.count == 1, gym.contains(where: { Self.contains($0, in: all) }) { return nil }
        return Equipment.allCases.filter(found.contains)
    }
}
