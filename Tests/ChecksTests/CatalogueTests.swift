import Foundation
import Intake
import JSONSchema
import Testing

@testable import Checks

/// The exercise catalogue (`catalogue.yaml`) as reviewed data: enough exercises, every
/// family and piece of equipment covered, and every exercise's families and equipment
/// the very ones the checks read in its names.
struct CatalogueTests {
    static func knowledge() throws -> CoachingKnowledge {
        let folder = Samples.root.appendingPathComponent("prompts/coaching")
        func read(_ name: String) throws -> JSONValue {
            try YAMLDocument(text: String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)).value
        }
        return try CoachingKnowledge(
            movements: read("movements.yaml"), conditions: read("conditions.yaml"), equipment: read("equipment.yaml"), dislikes: read("dislikes.yaml"),
            catalogue: read("catalogue.yaml"))
    }

    /// The families the checks find in `name`.
    static func families(of name: String, in knowledge: CoachingKnowledge) -> Set<String> {
        let item = SafetyChecks.Item(name: name, kind: .exercise, knowledge: knowledge)
        return Set(knowledge.families.values.filter { SafetyChecks.belongs(item, to: $0) }.map(\.id))
    }

    /// Equipment no exercise name can show: bodyweight is no equipment, and a mat has no telltale word.
    static let unnamedEquipment: Set<Equipment> = [.bodyweight, .mat]

    /// Families a catalogue offers nothing of: a maximal effort (a one-rep max, breath-holding)
    /// is a test, not an exercise, and no program a request offers from this catalogue calls for one.
    static let pureRiskFamilies: Set<String> = ["maximal-efforts"]

    @Test func theCatalogueHasEnoughExercisesAndCoversEveryFamilyAndPieceOfEquipment() throws {
        let knowledge = try Self.knowledge()
        let exercises = knowledge.catalogue.exercises
        #expect(exercises.count >= 150)
        let usedFamilies = Set(exercises.flatMap(\.families))
        #expect(Set(knowledge.families.keys).subtracting(Self.pureRiskFamilies).subtracting(usedFamilies).isEmpty)
        #expect(usedFamilies.isDisjoint(with: Self.pureRiskFamilies))
        var usedEquipment = Set(exercises.flatMap(\.needs))
        if exercises.contains(where: \.needs.isEmpty) { usedEquipment.insert(.bodyweight) }
        #expect(Set(Equipment.allCases).subtracting(usedEquipment).isEmpty, "unused: \(Set(Equipment.allCases).subtracting(usedEquipment))")
        #expect(Set(exercises.map(\.pattern)) == Set(knowledge.catalogue.patterns), "every pattern has exercises")
    }

    @Test func noNameOrIdIsUsedTwice() throws {
        let exercises = try Self.knowledge().catalogue.exercises
        for names in [exercises.map(\.id), exercises.map { $0.en.lowercased() }, exercises.map { $0.es.lowercased() }] {
            let repeated = Dictionary(grouping: names, by: { $0 }).filter { $0.value.count > 1 }.keys
            #expect(repeated.isEmpty, "\(repeated.sorted())")
        }
    }

    @Test func familiesAreTheOnesTheChecksReadInTheNames() throws {
        let knowledge = try Self.knowledge()
        for exercise in knowledge.catalogue.exercises {
            let english = Self.families(of: exercise.en, in: knowledge)
            #expect(Set(exercise.families) == english, "\(exercise.id): listed \(exercise.families.sorted()), the checks read \(english.sorted()) in \"\(exercise.en)\"")
            let spanish = Self.families(of: exercise.es, in: knowledge)
            #expect(spanish.isSubset(of: Set(exercise.families)), "\(exercise.id): the checks read \(spanish.sorted()) in \"\(exercise.es)\"")
        }
    }

    @Test func equipmentIsWhatTheChecksReadInTheNames() throws {
        let knowledge = try Self.knowledge()
        for exercise in knowledge.catalogue.exercises {
            let needs = Set(exercise.needs)
            let english = knowledge.equipmentNeeded(by: exercise.en)
            #expect(needs.subtracting(Self.unnamedEquipment) == english, "\(exercise.id): listed \(needs.map(\.rawValue).sorted()), the checks read \(english.map(\.rawValue).sorted()) in \"\(exercise.en)\"")
            let spanish = knowledge.equipmentNeeded(by: exercise.es)
            #expect(spanish.isSubset(of: needs), "\(exercise.id): the checks read \(spanish.map(\.rawValue).sorted()) in \"\(exercise.es)\"")
            #expect(!needs.contains(.bodyweight), "\(exercise.id): bodyweight alone is an empty list")
        }
    }

    @Test func seatedExercisesAreNeitherStandingNorFloorWork() throws {
        let seated = try Self.knowledge().catalogue.exercises.filter { $0.en.lowercased().contains("seated") }
        #expect(seated.count >= 15)
        for exercise in seated {
            #expect(Set(exercise.families).isDisjoint(with: ["standing-legs", "floor-work"]), "\(exercise.id)")
        }
    }

    @Test func everyCueIsOneShortSentenceInEachLanguage() throws {
        for exercise in try Self.knowledge().catalogue.exercises {
            for cue in [exercise.cue.en, exercise.cue.es] {
                #expect(cue.count < 90 && cue.hasSuffix("."), "\(exercise.id): \"\(cue)\"")
                #expect(!cue.dropLast().contains(". "), "\(exercise.id): one sentence: \"\(cue)\"")
            }
        }
    }

    @Test func aBrokenCatalogueNamesThePointerAtFault() throws {
        let knowledge = try Self.knowledge()
        let exercise: JSONValue = [
            "id": "chair-squat", "en": "Chair squat", "es": "Sentadilla a la silla", "pattern": "knee-dominant", "families": ["standing-legs"],
            "needs": [], "level": "beginner", "unit": "reps", "cue": ["en": "Sit.", "es": "Siéntate."],
        ]
        func error(_ change: (inout JSONObject) -> Void) -> CoachingKnowledgeError? {
            var entry = exercise.objectValue!
            change(&entry)
            do {
                _ = try Catalogue(document: ["patterns": ["knee-dominant"], "exercises": [.object(entry)]], families: knowledge.families)
                return nil
            } catch {
                return error
            }
        }
        #expect(error { _ in } == nil)
        #expect(error { $0["pattern"] = "legs" }?.pointer == "/exercises/0/pattern")
        #expect(error { $0["families"] = ["squats"] }?.pointer == "/exercises/0/families/0")
        #expect(error { $0["needs"] = ["chair"] }?.pointer == "/exercises/0/needs/0")
        #expect(error { $0["level"] = "expert" }?.pointer == "/exercises/0/level")
        #expect(error { $0["cue"] = ["en": "Sit."] }?.pointer == "/exercises/0/cue/es")
        #expect(error { $0["id"] = "Chair squat" }?.document == .catalogue)
    }
}

/// Check results read back from a file are the ones written, by either decoder.
@Suite("Check results read back")
struct CheckResultReadingTests {
    @Test func aCheckResultReadsTheSameThroughEitherDecoder() throws {
        let results = [CheckResult(name: "program.days-per-week", passed: true, message: "3 days"),
                       CheckResult(name: "output.not-cut-off", passed: false, message: "ends \"mid\"\nsentence")]
        let data = try JSONEncoder().encode(results)
        #expect(try JSONValueDecoder().decode([CheckResult].self, from: data) == results)
        #expect(try JSONDecoder().decode([CheckResult].self, from: data) == results)
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(CheckResult.self, from: Data(#"{"name": "x", "passed": "yes", "message": ""}"#.utf8)) }
    }
}
