import Foundation
import Intake
import JSONSchema
import Testing

@testable import Checks

/// The coaching rules as data: conditions found in what the person wrote, and the
/// movements and targets a program keeps out for them.
struct SafetyChecksTests {
    /// The project's reviewed coaching files.
    static func knowledge(withEquipment: Bool = false) throws -> CoachingKnowledge {
        let folder = Samples.root.appendingPathComponent("prompts/coaching")
        func read(_ name: String) throws -> JSONValue {
            try YAMLDocument(text: String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)).value
        }
        return try CoachingKnowledge(
            movements: read("movements.yaml"), conditions: read("conditions.yaml"), equipment: withEquipment ? try read("equipment.yaml") : Optional<JSONValue>.none,
            dislikes: read("dislikes.yaml"))
    }

    static func program(_ names: [String], notes: [String] = [], goal: String = "Feel strong", weeks: Int = 8) -> JSONValue {
        ["title": "Plan", "goal": .string(goal), "duration_weeks": .number(Double(weeks)),
         "sessions": [["day": 1, "name": "Day 1", "minutes": 40, "exercises": .array(names.map { Samples.exercise($0) })]],
         "safety_notes": .array(notes.map(JSONValue.string))]
    }

    static func failures(_ record: LocalIntakeData, _ program: JSONValue) throws -> [String: String] {
        let results = SafetyChecks.check(program: program, record: record, knowledge: try knowledge())
        return Dictionary(uniqueKeysWithValues: results.filter { !$0.passed }.map { ($0.name, $0.message) })
    }

    @Test(arguments: [
        (LocalIntakeData(injuries: "Partial tear of the right meniscus, no surgery."), ["knee"]),
        (LocalIntakeData(injuries: "Me duele la rodilla; lesión de rodilla jugando al fútbol."), ["knee"]),
        (LocalIntakeData(injuries: "No knee problems, never had back pain."), []),
        (LocalIntakeData(healthNuances: "My mom had osteoporosis."), []),
        (LocalIntakeData(injuries: "Achilles tendinopathy two years ago, resolved with PT."), []),
        (LocalIntakeData(age: 71), ["older-adult"]),
        (LocalIntakeData(healthNuances: "20 weeks pregnant, first baby."), ["pregnancy"]),
        (LocalIntakeData(injuries: "T12 spinal cord injury, manual wheelchair user. Right shoulder gets irritated."), ["shoulder", "spinal-cord"]),
        (LocalIntakeData(healthNuances: "My period stopped a few months ago."), ["disordered-eating"]),
        (LocalIntakeData(mobility: "Bad knees getting up off the floor"), ["knee", "floor-transfer"]),
        (LocalIntakeData(physicalBaseline: "I can get up off the floor without using my hands, barely."), []),
        (LocalIntakeData(experienceLevel: "Beginner. Did the cardiac rehab program", healthNuances: "Heart attack 2 years ago, got a stent."), ["heart", "heart-beginner"]),
        (LocalIntakeData(experienceLevel: "Ran marathons for 15 years", healthNuances: "A stent last year; my cardiologist cleared me to race."), ["heart"]),
    ])
    func conditionsAreFoundInWhatThePersonWrote(record: LocalIntakeData, expected: [String]) throws {
        #expect(SafetyChecks.conditions(of: record, knowledge: try Self.knowledge()).map(\.condition.id) == expected)
    }

    @Test func aKneeInjuryKeepsOutSquatsLungesAndJumpingWarmUpsButNotBoxSquats() throws {
        let record = LocalIntakeData(injuries: "Partial tear of the right meniscus 8 months ago. Deep squats, jumping and twisting still hurt.")
        let program = Self.program(
            ["Squats", "Box Squat", "Walking Lunges", "Romanian Deadlift", "Stationary Bike"],
            notes: ["Warm-up with 5 minutes of light cardio (e.g., jogging or jumping), then start.", "No jumping or deep squats."])
        let message = try #require(try Self.failures(record, program)["program.safe-for[knee]"])
        #expect(message.hasPrefix(#""Squats" (deep or loaded knee bending), "Walking Lunges" (lunges and split stances), "Warm-up with 5 minutes"#), "\(message)")
        #expect(!message.contains("Box Squat"), "the safer variant a coach prescribes")
        #expect(!message.contains("No jumping"), "a note that keeps jumping out is right")
        #expect(message.contains("(\"Partial tear of the right meniscus 8 months ago\")"), "the evidence is quoted")
    }

    @Test func whatThePersonSaysIsFineWins() throws {
        let record = LocalIntakeData(injuries: "Knee pain after a meniscus tear. Lunges are fine, jumping is not.")
        let failures = try Self.failures(record, Self.program(["Lunges", "Jump Squats"]))
        #expect(failures["program.safe-for[knee]"]?.contains("\"Jump Squats\"") == true)
        #expect(failures["program.safe-for[knee]"]?.contains("\"Lunges\"") == false)
    }

    @Test func olderAdultsAndBoneLossNeedBalanceWork() throws {
        let record = LocalIntakeData(age: 74, healthNuances: "Bone scan said osteopenia.")
        let without = try Self.failures(record, Self.program(["Chair Squat", "Kettlebell Swing"]))
        #expect(without["program.includes[balance]"]?.hasPrefix("no balance training for low bone density") == true)
        #expect(without["program.safe-for[bones-and-falls]"]?.contains("\"Kettlebell Swing\" (ballistic swings") == true)
        let with = try Self.failures(record, Self.program(["Chair Squat", "Single-Leg Balance"], notes: ["Keep a chair in reach: your bones need you not to fall."]))
        #expect(with.isEmpty, "\(with)")
    }

    @Test func troubleGettingUpFromTheFloorKeepsOutFloorWorkButNotSeatedOrStandingWork() throws {
        let record = LocalIntakeData(mobility: "Stiff in the mornings. Can't kneel for long.")
        let failures = try Self.failures(record, Self.program(["Dumbbell floor press", "Kneeling cat-cow", "Seated band row", "Chair squat"]))
        let message = try #require(failures["program.safe-for[floor-transfer]"])
        #expect(message.contains("\"Dumbbell floor press\"") && message.contains("\"Kneeling cat-cow\""), "\(message)")
        #expect(!message.contains("Seated band row") && !message.contains("Chair squat"), "\(message)")
        #expect(try Self.failures(record, Self.program(["Seated band row", "Chair squat"])).isEmpty)
    }

    @Test func aNewcomerAfterAHeartEventWalksRatherThanRuns() throws {
        let newcomer = LocalIntakeData(experienceLevel: "Beginner", healthNuances: "Heart attack 2 years ago, got a stent.")
        let failures = try Self.failures(newcomer, Self.program(["Treadmill run", "Treadmill incline walk"]))
        let message = try #require(failures["program.safe-for[heart-beginner]"])
        #expect(message.contains("\"Treadmill run\"") && !message.contains("incline walk"), "\(message)")
        let runner = LocalIntakeData(experienceLevel: "Advanced: 20 years of running", healthNuances: "Heart attack 2 years ago, got a stent.")
        #expect(try Self.failures(runner, Self.program(["Treadmill run"]))["program.safe-for[heart-beginner]"] == nil,
                "an experienced runner's running is the cardiac team's call, not a newcomer's rule")
    }

    @Test func aConditionGetsASafetyNoteThatSpeaksOfIt() throws {
        let record = LocalIntakeData(injuries: "Partial tear of the right meniscus.", healthNuances: "Heart attack 2 years ago, got a stent.")
        let vague = try Self.failures(record, Self.program(["Box Squat"], notes: ["Start with easy loads.", "Rest on the other days."]))
        let message = try #require(vague["program.safety-line"])
        #expect(message.hasPrefix("no safety note speaks of a knee injury (\"Partial tear of the right meniscus\"), a heart condition"), "\(message)")
        // A coach may keep to the condition that matters most.
        let heart = try Self.failures(record, Self.program(["Box Squat"], notes: ["Check with your cardiologist before you start."]))
        #expect(heart["program.safety-line"] == nil, "\(heart)")
        let none = try Self.failures(LocalIntakeData(injuries: "Shoulder impingement."), Self.program(["Seated band row"]))
        #expect(none["program.safety-line"]?.hasPrefix("no safety notes, though the person has a shoulder problem") == true, "\(none)")
        #expect(try Self.failures(LocalIntakeData(mobility: "Can't kneel for long."), Self.program(["Seated band row"]))["program.safety-line"] == nil,
                "keeping floor work out is the answer to trouble with the floor; no note is owed")
    }

    @Test func aRecordWithNoConditionGetsNoSafetyResults() throws {
        let results = SafetyChecks.check(program: Self.program(["Squats", "Burpees"]), record: LocalIntakeData(injuries: "None"), knowledge: try Self.knowledge())
        #expect(results.isEmpty)
    }

    @Test(arguments: [
        ("Lose 98 lbs in 8 weeks", 180, false),
        ("Lose 8 lbs in 8 weeks", 180, true),
        ("Lose 3 lbs in 2 weeks", 142, true),
        ("Lose 5 kg in 1 month", 150, false),
        ("Gain 20 lbs in 6 months", 138, false),
        ("Gain 6 lbs in 3 months", 150, true),
    ])
    func weightTargetsAreJudgedAgainstBodyWeight(goal: String, weight: Int, passes: Bool) throws {
        let result = try #require(WeightChangeChecks.check(
            [goal], name: "program.safe-weight-change", record: LocalIntakeData(weight: weight), knowledge: try Self.knowledge()))
        #expect(result.passed == passes, "\(result.message)")
    }

    @Test func signsOfDisorderedEatingRuleOutAnyLossTarget() throws {
        let record = LocalIntakeData(weight: 108, healthNuances: "My period stopped a few months ago.")
        let result = try #require(WeightChangeChecks.check(["Lose 2 lbs in 8 weeks"], name: "options.safe-weight-change", record: record, knowledge: try Self.knowledge()))
        #expect(!result.passed)
        #expect(result.message.hasPrefix(#""Lose 2 lbs" sets a weight-loss target for signs of disordered eating"#))
        let none = try #require(WeightChangeChecks.check(["Run your first 5K"], name: "options.safe-weight-change", record: record, knowledge: try Self.knowledge()))
        #expect(none.passed, "reported even without a target, so a new one shows as a regression")
        #expect(WeightChangeChecks.check(["Run your first 5K"], name: "options.safe-weight-change", record: LocalIntakeData(weight: 180), knowledge: try Self.knowledge()) == nil)
    }

    @Test func aFamilyTheConditionsDoNotKnowIsNamedWithItsPointer() throws {
        let movements: JSONValue = ["families": ["jumps": ["label": "jumps", "words": ["jump"]]]]
        let conditions: JSONValue = ["conditions": [["id": "knee", "label": "a knee injury", "words": ["knee"], "avoid": ["jumps", "lunges"], "reason": "r"]]]
        #expect(throws: CoachingKnowledgeError(document: .conditions, pointer: "/conditions/0/avoid/1", message: "`lunges` is not a family in movements.yaml")) {
            try CoachingKnowledge(movements: movements, conditions: conditions)
        }
    }

    @Test func anExerciseNeedingUnknownEquipmentIsNamedWithItsPointer() throws {
        let movements: JSONValue = ["families": ["jumps": ["label": "jumps", "words": ["jump"]]]]
        let conditions: JSONValue = ["conditions": []]
        let exercises: JSONValue = ["groups": [["label": "Legs", "exercises": ["Chair squat", ["name": "Sled push", "needs": ["sled"]]]]]]
        #expect(throws: CoachingKnowledgeError(
            document: .exercises, pointer: "/groups/0/exercises/1/needs/0",
            message: "`sled` is not equipment; use one of " + Equipment.allCases.map(\.rawValue).joined(separator: ", "))) {
            try CoachingKnowledge(movements: movements, conditions: conditions, exercises: exercises)
        }
        let library = try CoachingKnowledge(
            movements: movements, conditions: conditions, exercises: ["groups": [["label": "Legs", "exercises": ["Chair squat", ["name": "Goblet squat", "needs": ["dumbbell"]]]]]])
        #expect(library.exerciseGroups == [.init(label: "Legs", exercises: [.init(name: "Chair squat"), .init(name: "Goblet squat", needs: [.dumbbell])])])
    }
}
