import JSONSchema
import Testing

@testable import Checks

/// A run's programs side by side: one day for many people, or one dose for everything.
@Suite("Programs side by side")
struct SuiteChecksTests {
    static let rules = AdviceRules.SuiteSamenessRules(minimumPrograms: 3, maxPeoplePerDay: 2, maxPrescriptionShare: 0.5)

    static func program(_ days: [[(String, String)]], sets: Int = 3) -> JSONValue {
        ["program_json": ["sessions": .array(days.map { day in
            ["exercises": .array(day.map { name, reps in ["name": .string(name), "sets": .number(Double(sets)), "reps": .string(reps)] })]
        })]]
    }

    static func results(_ programs: [(String, JSONValue)]) -> [String: CheckResult] {
        let checked = SuiteChecks.check(programs.map { SuiteChecks.Program(fixture: $0.0, output: $0.1) }, rules: rules)
        return Dictionary(uniqueKeysWithValues: checked.map { ($0.name, $0) })
    }

    @Test func theSameDayForMorePeopleThanAllowedFailsNamingThem() throws {
        let template = [("Push-up", "8-12"), ("Plank", "30 s")]
        let results = Self.results([
            ("ana", Self.program([template, [("Goblet squat", "5")]])),
            // The same exercises in another order and spelling are the same day.
            ("ben", Self.program([[("plank", "30 s"), ("Push-Up", "10")], [("Deadlift", "3-5")]])),
            ("cai", Self.program([template, [("Row", "6")]])),
            ("dee", Self.program([[("Lunge", "10"), ("Row", "6")]])),
        ])
        let sameDay = try #require(results["suite.same-day"])
        #expect(!sameDay.passed)
        #expect(sameDay.message.hasPrefix("3 people (ana, ben, cai) get the same day: \"Push-up\", \"Plank\""), "\(sameDay.message)")
    }

    @Test func daysWrittenForEachPersonPass() throws {
        let results = Self.results([
            ("ana", Self.program([[("Push-up", "8-12"), ("Plank", "30 s")]])),
            ("ben", Self.program([[("Push-up", "8-12"), ("Plank", "30 s")]])),
            ("cai", Self.program([[("Back squat", "5"), ("Bench press", "5")]])),
        ])
        #expect(results["suite.same-day"]?.passed == true, "two people may share a day")
        #expect(results["suite.same-day"]?.message.contains("the most: 2") == true)
    }

    @Test func oneDoseForMostExercisesFails() throws {
        let same = [("Push-up", "8-12"), ("Row", "8-12"), ("Squat", "8-12"), ("Lunge", "8-12")]
        let results = Self.results([
            ("ana", Self.program([same])),
            ("ben", Self.program([[("Back squat", "5"), ("Bench press", "5"), ("Row", "8-12")]])),
            ("cai", Self.program([[("Walk", "20 min")]], sets: 1)),
        ])
        let share = try #require(results["suite.prescription-share"])
        #expect(!share.passed)
        #expect(share.message.hasPrefix("\"3 × 8-12\" 62.5%, \"3 × 5\" 25%, \"1 × 20 min\" 12.5% of 8 prescriptions"), "\(share.message)")
        let varied = Self.results([
            ("ana", Self.program([[("Push-up", "8-12"), ("Row", "10")]])),
            ("ben", Self.program([[("Back squat", "5")]])),
            ("cai", Self.program([[("Walk", "20 min")]], sets: 1)),
        ])
        #expect(varied["suite.prescription-share"]?.passed == true)
    }

    @Test func aRunOfTooFewProgramsOrNoRulesIsNotJudged() {
        let two = [("ana", Self.program([[("Push-up", "8-12"), ("Plank", "30 s")]])), ("ben", Self.program([[("Push-up", "8-12"), ("Plank", "30 s")]]))]
        #expect(Self.results(two).isEmpty)
        #expect(SuiteChecks.check(two.map { SuiteChecks.Program(fixture: $0.0, output: $0.1) }, rules: nil).isEmpty)
    }

    @Test func theRulesAreReadFromAdviceAndBadValuesNamed() throws {
        let rules = try #require(try AdviceAndTextChecksTests.rules().suiteSameness)
        #expect(rules.minimumPrograms > 1 && rules.maxPeoplePerDay > 0 && rules.maxPrescriptionShare <= 1)
        #expect(throws: CoachingKnowledgeError.self) {
            try AdviceRules(document: ["suite_sameness": ["min_programs": 5, "max_people_per_day": 3, "max_prescription_share": 1.5]])
        }
    }
}

/// Pressing balanced by pulling, over the exercises the catalogue names.
@Suite("Push and pull")
struct BalanceChecksTests {
    static let catalogue = Catalogue(patterns: [], exercises: [
        .init(id: "chest-press", en: "Seated band chest press", es: "Press de pecho con banda sentado", pattern: "horizontal-push", cue: .init(en: "", es: "")),
        .init(id: "floor-press", en: "Dumbbell floor press", es: "Press de suelo con mancuernas", pattern: "horizontal-push", cue: .init(en: "", es: "")),
        .init(id: "row", en: "Seated band row", es: "Remo con banda sentado", pattern: "horizontal-pull", cue: .init(en: "", es: "")),
        .init(id: "squat", en: "Chair squat", es: "Sentadilla a la silla", pattern: "knee-dominant", cue: .init(en: "", es: "")),
    ])
    static let rules = AdviceRules.PushPullRules(
        pushPatterns: ["horizontal-push", "vertical-push"], pullPatterns: ["horizontal-pull", "vertical-pull"], minimumPushes: 2, pullAtLeastPushFor: ["spinal-cord"])

    static func program(_ names: [String]) -> JSONValue {
        ["sessions": [["exercises": .array(names.map { ["name": .string($0)] })]]]
    }

    static func check(_ names: [String], conditions: [String] = []) -> CheckResult? {
        BalanceChecks.pushPull(program: program(names), conditions: conditions, catalogue: catalogue, rules: rules)
    }

    @Test func pressesWithNoPullFail() throws {
        let result = try #require(Self.check(["Seated band chest press", "Chair squat", "dumbbell floor press"]))
        #expect(!result.passed)
        #expect(result.message == "2 pushing, 0 pulling: \"Seated band chest press\", \"dumbbell floor press\" with no row or pulldown to balance them")
        #expect(Self.check(["Seated band chest press", "Dumbbell floor press", "Seated band row"])?.passed == true)
        #expect(Self.check(["Press de pecho con banda sentado", "Press de suelo con mancuernas", "Remo con banda sentado"])?.passed == true,
                "Spanish names are the same exercises")
    }

    @Test func aWheelchairUserPullsAtLeastAsOftenAsTheyPush() throws {
        let names = ["Seated band chest press", "Dumbbell floor press", "Seated band row"]
        let result = try #require(Self.check(names, conditions: ["spinal-cord"]))
        #expect(!result.passed && result.message.contains("for spinal-cord"), "\(result.message)")
        #expect(Self.check(names + ["Seated band row"], conditions: ["spinal-cord"])?.passed == true)
    }

    @Test func littlePressingOrNamesTheCatalogueDoesNotHoldAreNotJudged() {
        #expect(Self.check(["Seated band chest press", "Chair squat"]) == nil)
        #expect(Self.check(["Push-Ups", "Bench Press", "Overhead Press"]) == nil)
    }
}
