import Intake
import JSONSchema

/// What a coach knows that the checks apply to every program, read from the reviewed
/// files in `prompts/coaching/`: movement families and the words exercise names use
/// for them (`movements.yaml`), and the conditions an intake can mention with the
/// families a program keeps out for them (`conditions.yaml`).
public struct CoachingKnowledge: Sendable {
    /// Movements of one kind, such as jumps or lunges.
    public struct Family: Sendable, Hashable {
        public let id: String
        /// How a message names the family: `jumps, hops and landings`.
        public let label: String
        /// Words an exercise name uses for the family, matched as whole words.
        public let words: [String]
        /// Safer variants that are not the family even though they share its words (`box squat`).
        public let except: [String]
        /// Its words are looked for in the cues and notes too, not only in exercise names
        /// and warm-ups: "hold your breath" in a cue is the breath-holding itself.
        public let inCues: Bool
        /// `words` and `except` prepared once for searching: every program is searched for them.
        let wordTerms: [TextMatching.SearchTerm]
        let exceptTerms: [TextMatching.SearchTerm]

        public init(id: String, label: String, words: [String], except: [String], inCues: Bool = false) {
            (self.id, self.label, self.words, self.except, self.inCues) = (id, label, words, except, inCues)
            wordTerms = words.map(TextMatching.SearchTerm.init)
            exceptTerms = except.map(TextMatching.SearchTerm.init)
        }

        public static func == (lhs: Family, rhs: Family) -> Bool {
            (lhs.id, lhs.label, lhs.words, lhs.except, lhs.inCues) == (rhs.id, rhs.label, rhs.words, rhs.except, rhs.inCues)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(id)
            hasher.combine(words)
            hasher.combine(except)
            hasher.combine(inCues)
        }
    }

    /// A condition an intake can mention.
    public struct Condition: Sendable, Hashable {
        public var id: String
        /// How a message names it: `a knee injury`.
        public var label: String
        /// Words people use for it, matched as whole words in the record's health answers.
        public var words: [String]
        /// Found by age instead of words: this age or over.
        public var minimumAge: Int?
        /// When not empty, found only when the person's experience level says one of
        /// these as well ("Beginner"): what a newcomer with the condition keeps out.
        public var experienceWords: [String]
        /// Families a program keeps out, by id.
        public var avoid: [String]
        /// A family at least one exercise must belong to, by id.
        public var include: String?
        /// How a safety note speaks of the condition ("knee", "pelvic floor"); empty when none is owed.
        public var noteWords: [String]
        /// Goals must not set a weight-loss target.
        public var noWeightTargets: Bool
        /// Why, in a coach's words.
        public var reason: String
    }

    /// Equipment an exercise name implies without naming it: `Deadlifts` needs a barbell.
    public struct ImpliedEquipment: Sendable, Hashable {
        public let words: [String]
        /// Names that also use one of these say what they use instead (`Dumbbell Deadlift`).
        public let unless: [String]
        public let needs: [Equipment]
        /// `words` and `unless` prepared once for searching.
        let wordTerms: [TextMatching.SearchTerm]
        let unlessTerms: [TextMatching.SearchTerm]

        public init(words: [String], unless: [String], needs: [Equipment]) {
            (self.words, self.unless, self.needs) = (words, unless, needs)
            wordTerms = words.map(TextMatching.SearchTerm.init)
            unlessTerms = unless.map(TextMatching.SearchTerm.init)
        }

        /// The word of the rule that `name` uses, unless the name or its notes say what it uses instead.
        func word(in name: TextMatching.Searchable, notes: TextMatching.Searchable) -> String? {
            guard let found = wordTerms.firstIndex(where: { TextMatching.firstMatch(of: $0, in: name) != nil }),
                  !unlessTerms.contains(where: { TextMatching.firstMatch(of: $0, in: name) != nil || TextMatching.firstMatch(of: $0, in: notes) != nil })
            else { return nil }
            return words[found]
        }

        public static func == (lhs: ImpliedEquipment, rhs: ImpliedEquipment) -> Bool {
            (lhs.words, lhs.unless, lhs.needs) == (rhs.words, rhs.unless, rhs.needs)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(words)
            hasher.combine(unless)
            hasher.combine(needs)
        }
    }

    /// How people say what they do not want to do (`dislikes.yaml`).
    public struct DislikeWording: Sendable, Hashable {
        /// Words before what is disliked ("hate running") and after it ("push-ups, heavens no").
        public var before: [String]
        public var after: [String]
        /// Words that stand for a whole family, by family id: "running" is any run, jog or sprint.
        public var activities: [String: [String]]
        /// Words dropped from an item ("anything overhead right now").
        public var fillers: Set<String>
        /// Words that start the reason, which is not part of the item ("brincar por las rodillas").
        public var reasons: Set<String>
        /// Words before what an edit's feedback asks to take out ("swap out the swings").
        public var requestBefore: [String]
        /// Words that end such an item besides the reasons ("swap the lunges for step-ups").
        public var requestUntil: Set<String>

        public init(
            before: [String] = [], after: [String] = [], activities: [String: [String]] = [:], fillers: Set<String> = [],
            reasons: Set<String> = [], requestBefore: [String] = [], requestUntil: Set<String> = []
        ) {
            (self.before, self.after, self.activities, self.fillers, self.reasons) = (before, after, activities, fillers, reasons)
            (self.requestBefore, self.requestUntil) = (requestBefore, requestUntil)
        }

        /// The wording that reads an edit's feedback: every cue, and items that also end at `requestUntil`.
        var forRequests: DislikeWording {
            var wording = self
            wording.before += requestBefore
            wording.reasons.formUnion(requestUntil)
            return wording
        }
    }

    /// An exercise of the library (`exercises.yaml`), with all the equipment it needs.
    public struct LibraryExercise: Sendable, Hashable {
        public let name: String
        /// Empty for bodyweight alone.
        public let needs: [Equipment]

        public init(name: String, needs: [Equipment] = []) {
            (self.name, self.needs) = (name, needs)
        }
    }

    /// Exercises that train one thing (`Legs and hips`), simpler ones first.
    public struct ExerciseGroup: Sendable, Hashable {
        public let label: String
        public let exercises: [LibraryExercise]

        public init(label: String, exercises: [LibraryExercise]) {
            (self.label, self.exercises) = (label, exercises)
        }
    }

    public let families: [String: Family]
    /// Phrases that look like a family's words but are not movements ("hop on the bike").
    public let notMovements: [String]
    /// `notMovements` prepared once for searching: every item of every program is searched for them.
    let notMovementTerms: [TextMatching.SearchTerm]
    public let conditions: [Condition]
    public let impliedEquipment: [ImpliedEquipment]
    public let dislikeWording: DislikeWording
    /// The exercise library a request can offer (`exercise_menu`), by group.
    public let exerciseGroups: [ExerciseGroup]
    /// What a trainer never writes, and what an intake obliges (`advice.yaml`).
    public let advice: AdviceRules
    /// Every exercise a request can offer, by session slot (`catalogue.yaml`).
    public let catalogue: Catalogue
    /// Tells two sets of knowledge apart cheaply, for caching what a record mentions.
    let identity: Int

    public init(
        families: [String: Family] = [:], notMovements: [String] = [], conditions: [Condition] = [], impliedEquipment: [ImpliedEquipment] = [],
        dislikeWording: DislikeWording = DislikeWording(), exerciseGroups: [ExerciseGroup] = [], advice: AdviceRules = .none,
        catalogue: Catalogue = .empty
    ) {
        self.families = families
        self.notMovements = notMovements
        notMovementTerms = notMovements.map(TextMatching.SearchTerm.init)
        self.conditions = conditions
        self.impliedEquipment = impliedEquipment
        self.dislikeWording = dislikeWording
        self.exerciseGroups = exerciseGroups
        self.advice = advice
        self.catalogue = catalogue
        var hasher = Hasher()
        hasher.combine(families)
        hasher.combine(notMovements)
        hasher.combine(conditions)
        hasher.combine(impliedEquipment)
        hasher.combine(dislikeWording)
        hasher.combine(exerciseGroups)
        hasher.combine(advice)
        hasher.combine(catalogue)
        identity = hasher.finalize()
    }

    /// No knowledge: the checks that need it find nothing to check.
    public static let none = CoachingKnowledge()

    /// Reads the documents as parsed from YAML. A problem names the document, the
    /// JSON pointer of the value at fault, and what was expected.
    public init(
        movements: JSONValue, conditions: JSONValue, equipment: JSONValue? = nil, dislikes: JSONValue? = nil, exercises: JSONValue? = nil,
        advice: JSONValue? = nil, catalogue: JSONValue? = nil
    ) throws(CoachingKnowledgeError) {
        guard case .object(let families)? = movements["families"] else {
            throw CoachingKnowledgeError(document: .movements, pointer: "/families", message: "expected a mapping of family id to label, words and except")
        }
        var parsedFamilies: [String: Family] = [:]
        for member in families {
            let at = "/families/\(member.key)"
            parsedFamilies[member.key] = Family(
                id: member.key,
                label: try Self.string(member.value["label"], at: at + "/label", in: .movements),
                words: try Self.strings(member.value["words"], at: at + "/words", in: .movements),
                except: member.value["except"] == nil ? [] : try Self.strings(member.value["except"], at: at + "/except", in: .movements),
                inCues: member.value["in_cues"]?.boolValue ?? false)
        }
        guard case .array(let list)? = conditions["conditions"] else {
            throw CoachingKnowledgeError(document: .conditions, pointer: "/conditions", message: "expected a list of conditions")
        }
        var parsedConditions: [Condition] = []
        for (index, item) in list.enumerated() {
            let at = "/conditions/\(index)"
            let avoid = item["avoid"] == nil ? [] : try Self.strings(item["avoid"], at: at + "/avoid", in: .conditions)
            let include = item["include"] == nil ? nil : try Self.string(item["include"], at: at + "/include", in: .conditions)
            for (offset, family) in (avoid + [include].compactMap { $0 }).enumerated() where parsedFamilies[family] == nil {
                let pointer = offset < avoid.count ? "\(at)/avoid/\(offset)" : "\(at)/include"
                throw CoachingKnowledgeError(document: .conditions, pointer: pointer, message: "`\(family)` is not a family in movements.yaml")
            }
            let minimumAge = item["min_age"]?.intValue
            let words = item["words"] == nil ? [] : try Self.strings(item["words"], at: at + "/words", in: .conditions)
            let experienceWords = item["experience_words"] == nil ? [] : try Self.strings(item["experience_words"], at: at + "/experience_words", in: .conditions)
            let noteWords = item["note_words"] == nil ? [] : try Self.strings(item["note_words"], at: at + "/note_words", in: .conditions)
            if words.isEmpty, minimumAge == nil {
                throw CoachingKnowledgeError(document: .conditions, pointer: at, message: "a condition needs `words` or `min_age` to be found by")
            }
            parsedConditions.append(Condition(
                id: try Self.string(item["id"], at: at + "/id", in: .conditions),
                label: try Self.string(item["label"], at: at + "/label", in: .conditions),
                words: words, minimumAge: minimumAge, experienceWords: experienceWords, avoid: avoid, include: include, noteWords: noteWords,
                noWeightTargets: item["no_weight_targets"]?.boolValue ?? false,
                reason: try Self.string(item["reason"], at: at + "/reason", in: .conditions)))
        }
        func equipmentList(_ value: JSONValue?, at pointer: String, in document: CoachingKnowledgeError.Document) throws(CoachingKnowledgeError) -> [Equipment] {
            var list: [Equipment] = []
            for (offset, name) in try Self.strings(value, at: pointer, in: document).enumerated() {
                guard let item = Equipment(rawValue: name) else {
                    throw CoachingKnowledgeError(
                        document: document, pointer: "\(pointer)/\(offset)",
                        message: "`\(name)` is not equipment; use one of " + Equipment.allCases.map(\.rawValue).joined(separator: ", "))
                }
                list.append(item)
            }
            return list
        }
        var implied: [ImpliedEquipment] = []
        if let equipment, equipment != .null {
            guard case .array(let rules)? = equipment["implied"] else {
                throw CoachingKnowledgeError(document: .equipment, pointer: "/implied", message: "expected a list of words, unless and needs")
            }
            for (index, rule) in rules.enumerated() {
                let at = "/implied/\(index)"
                let needs = try equipmentList(rule["needs"], at: at + "/needs", in: .equipment)
                implied.append(ImpliedEquipment(
                    words: try Self.strings(rule["words"], at: at + "/words", in: .equipment),
                    unless: rule["unless"] == nil ? [] : try Self.strings(rule["unless"], at: at + "/unless", in: .equipment),
                    needs: needs))
            }
        }
        var wording = DislikeWording()
        if let dislikes, dislikes != .null {
            wording.before = try Self.strings(dislikes["cues"]?["before"], at: "/cues/before", in: .dislikes)
            wording.after = dislikes["cues"]?["after"] == nil ? [] : try Self.strings(dislikes["cues"]?["after"], at: "/cues/after", in: .dislikes)
            for member in dislikes["activities"]?.objectValue ?? JSONObject() {
                guard parsedFamilies[member.key] != nil else {
                    throw CoachingKnowledgeError(
                        document: .dislikes, pointer: "/activities/\(member.key)", message: "`\(member.key)` is not a family in movements.yaml")
                }
                wording.activities[member.key] = try Self.strings(member.value, at: "/activities/\(member.key)", in: .dislikes)
            }
            if dislikes["fillers"] != nil { wording.fillers = Set(try Self.strings(dislikes["fillers"], at: "/fillers", in: .dislikes)) }
            if dislikes["reasons"] != nil { wording.reasons = Set(try Self.strings(dislikes["reasons"], at: "/reasons", in: .dislikes)) }
            if dislikes["requests"] != nil {
                wording.requestBefore = try Self.strings(dislikes["requests"]?["before"], at: "/requests/before", in: .dislikes)
                wording.requestUntil = Set(try Self.strings(dislikes["requests"]?["until"], at: "/requests/until", in: .dislikes))
            }
        }
        var groups: [ExerciseGroup] = []
        if let exercises, exercises != .null {
            guard case .array(let list)? = exercises["groups"] else {
                throw CoachingKnowledgeError(document: .exercises, pointer: "/groups", message: "expected a list of groups, each with a label and exercises")
            }
            for (index, group) in list.enumerated() {
                let at = "/groups/\(index)"
                guard case .array(let entries)? = group["exercises"], !entries.isEmpty else {
                    throw CoachingKnowledgeError(document: .exercises, pointer: at + "/exercises", message: "expected a non-empty list of exercises")
                }
                var library: [LibraryExercise] = []
                for (offset, entry) in entries.enumerated() {
                    let pointer = "\(at)/exercises/\(offset)"
                    if let name = entry.stringValue, !name.isEmpty {
                        library.append(LibraryExercise(name: name))
                    } else {
                        library.append(LibraryExercise(
                            name: try Self.string(entry["name"], at: pointer + "/name", in: .exercises),
                            needs: entry["needs"] == nil ? [] : try equipmentList(entry["needs"], at: pointer + "/needs", in: .exercises)))
                    }
                }
                groups.append(ExerciseGroup(label: try Self.string(group["label"], at: at + "/label", in: .exercises), exercises: library))
            }
        }
        var rules = AdviceRules.none
        if let advice, advice != .null { rules = try AdviceRules(document: advice) }
        let notMovements = movements["not_movements"] == nil ? [] : try Self.strings(movements["not_movements"], at: "/not_movements", in: .movements)
        var parsedCatalogue = Catalogue.empty
        if let catalogue, catalogue != .null { parsedCatalogue = try Catalogue(document: catalogue, families: parsedFamilies) }
        self.init(
            families: parsedFamilies, notMovements: notMovements, conditions: parsedConditions, impliedEquipment: implied,
            dislikeWording: wording, exerciseGroups: groups, advice: rules, catalogue: parsedCatalogue)
    }

    private static func string(_ value: JSONValue?, at pointer: String, in document: CoachingKnowledgeError.Document) throws(CoachingKnowledgeError) -> String {
        guard let text = value?.stringValue, !text.isEmpty else {
            throw CoachingKnowledgeError(document: document, pointer: pointer, message: "expected a non-empty string")
        }
        return text
    }

    private static func strings(_ value: JSONValue?, at pointer: String, in document: CoachingKnowledgeError.Document) throws(CoachingKnowledgeError) -> [String] {
        guard let items = value?.arrayValue, !items.isEmpty else {
            throw CoachingKnowledgeError(document: document, pointer: pointer, message: "expected a non-empty list of strings")
        }
        var strings: [String] = []
        for (index, item) in items.enumerated() {
            strings.append(try string(item, at: "\(pointer)/\(index)", in: document))
        }
        return strings
    }
}

/// A coaching file that cannot be used: which file, where in it, and what was expected.
public struct CoachingKnowledgeError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Document: String, Sendable {
        case movements = "movements.yaml"
        case conditions = "conditions.yaml"
        case equipment = "equipment.yaml"
        case dislikes = "dislikes.yaml"
        case exercises = "exercises.yaml"
        case advice = "advice.yaml"
        case catalogue = "catalogue.yaml"
    }

    public var document: Document
    /// The JSON pointer of the value at fault, such as `/conditions/2/avoid/0`.
    public var pointer: String
    public var message: String

    public var description: String { "\(document.rawValue) \(pointer): \(message)" }
}
