import Intake
import JSONSchema

/// The exercise catalogue (`catalogue.yaml`): every exercise a program request can
/// offer, each with the session slot it fills, the movement families it belongs to
/// and the equipment it needs, so a request can offer a person only what suits them.
public struct Catalogue: Sendable, Hashable {
    public enum Level: String, Sendable, Hashable, CaseIterable {
        case beginner, intermediate, advanced
    }

    /// What a prescription of the exercise counts.
    public enum Unit: String, Sendable, Hashable, CaseIterable {
        case reps, time, distance
    }

    /// A short coaching sentence in each language.
    public struct Cue: Sendable, Hashable {
        public let en: String
        public let es: String

        public init(en: String, es: String) {
            (self.en, self.es) = (en, es)
        }
    }

    public struct Exercise: Sendable, Hashable {
        public let id: String
        public let en: String
        public let es: String
        /// The session slot it fills, one of the catalogue's `patterns`.
        public let pattern: String
        /// Movement family ids (`movements.yaml`).
        public let families: [String]
        /// Empty for bodyweight alone.
        public let needs: [Equipment]
        public let level: Level
        public let unit: Unit
        /// One coaching sentence in each language.
        public let cue: Cue

        public init(
            id: String, en: String, es: String, pattern: String, families: [String] = [], needs: [Equipment] = [], level: Level = .beginner,
            unit: Unit = .reps, cue: Cue
        ) {
            (self.id, self.en, self.es, self.pattern, self.families, self.needs) = (id, en, es, pattern, families, needs)
            (self.level, self.unit, self.cue) = (level, unit, cue)
        }
    }

    /// The session slots, in the order a session fills them.
    public let patterns: [String]
    public let exercises: [Exercise]
    /// Each exercise's pattern by its normalised name, English and Spanish, made once:
    /// every program's exercises are looked up in it.
    let patternsByName: [String: String]

    public init(patterns: [String] = [], exercises: [Exercise] = []) {
        (self.patterns, self.exercises) = (patterns, exercises)
        var byName: [String: String] = [:]
        for exercise in exercises {
            byName[SessionContentChecks.normalized(exercise.en)] = exercise.pattern
            byName[SessionContentChecks.normalized(exercise.es)] = exercise.pattern
        }
        patternsByName = byName
    }

    /// No catalogue: a request has nothing to offer from it.
    public static let empty = Catalogue()

    /// Reads the document as parsed from YAML, against the movement families it may
    /// name. A problem names the JSON pointer of the value at fault.
    public init(document: JSONValue, families: [String: CoachingKnowledge.Family]) throws(CoachingKnowledgeError) {
        func problem(_ pointer: String, _ message: String) -> CoachingKnowledgeError {
            CoachingKnowledgeError(document: .catalogue, pointer: pointer, message: message)
        }
        func string(_ value: JSONValue?, at pointer: String) throws(CoachingKnowledgeError) -> String {
            guard let text = value?.stringValue, !text.isEmpty else { throw problem(pointer, "expected a non-empty string") }
            return text
        }
        func strings(_ value: JSONValue?, at pointer: String) throws(CoachingKnowledgeError) -> [String] {
            guard let items = value?.arrayValue else { throw problem(pointer, "expected a list of strings, [] for none") }
            var strings: [String] = []
            for (index, item) in items.enumerated() { strings.append(try string(item, at: "\(pointer)/\(index)")) }
            return strings
        }
        let patterns = try strings(document["patterns"], at: "/patterns")
        if patterns.isEmpty { throw problem("/patterns", "expected a non-empty list of session slots") }
        guard case .array(let entries)? = document["exercises"], !entries.isEmpty else {
            throw problem("/exercises", "expected a non-empty list of exercises")
        }
        var exercises: [Exercise] = []
        var seen: [String: Set<String>] = ["id": [], "en": [], "es": []]
        for (index, entry) in entries.enumerated() {
            let at = "/exercises/\(index)"
            for key in ["id", "en", "es"] {
                let value = try string(entry[key], at: "\(at)/\(key)")
                guard seen[key, default: []].insert(key == "id" ? value : value.lowercased()).inserted else {
                    throw problem("\(at)/\(key)", "`\(value)` is already another exercise's \(key == "id" ? "id" : "name")")
                }
            }
            let id = try string(entry["id"], at: at + "/id")
            guard id.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }), !id.hasPrefix("-"), !id.hasSuffix("-"), !id.contains("--") else {
                throw problem(at + "/id", "`\(id)` is not kebab-case")
            }
            let pattern = try string(entry["pattern"], at: at + "/pattern")
            guard patterns.contains(pattern) else {
                throw problem(at + "/pattern", "`\(pattern)` is not one of the patterns: " + patterns.joined(separator: ", "))
            }
            let familyIDs = try strings(entry["families"], at: at + "/families")
            for (offset, family) in familyIDs.enumerated() where families[family] == nil {
                throw problem("\(at)/families/\(offset)", "`\(family)` is not a family in movements.yaml")
            }
            var needs: [Equipment] = []
            for (offset, name) in try strings(entry["needs"], at: at + "/needs").enumerated() {
                guard let item = Equipment(rawValue: name) else {
                    throw problem("\(at)/needs/\(offset)", "`\(name)` is not equipment; use one of " + Equipment.allCases.map(\.rawValue).joined(separator: ", "))
                }
                needs.append(item)
            }
            let levelName = try string(entry["level"], at: at + "/level")
            guard let level = Level(rawValue: levelName) else {
                throw problem(at + "/level", "`\(levelName)` is not one of " + Level.allCases.map(\.rawValue).joined(separator: ", "))
            }
            let unitName = try string(entry["unit"], at: at + "/unit")
            guard let unit = Unit(rawValue: unitName) else {
                throw problem(at + "/unit", "`\(unitName)` is not one of " + Unit.allCases.map(\.rawValue).joined(separator: ", "))
            }
            exercises.append(Exercise(
                id: id, en: try string(entry["en"], at: at + "/en"), es: try string(entry["es"], at: at + "/es"), pattern: pattern,
                families: familyIDs, needs: needs, level: level, unit: unit,
                cue: Cue(en: try string(entry["cue"]?["en"], at: at + "/cue/en"), es: try string(entry["cue"]?["es"], at: at + "/cue/es"))))
        }
        self.init(patterns: patterns, exercises: exercises)
    }
}
