import Intake
import JSONSchema
import Testing

@testable import Checks

@Suite("Goal option checks")
struct GoalOptionChecksTests {
    func byName(_ results: [CheckResult]) -> [String: CheckResult] {
        Dictionary(uniqueKeysWithValues: results.map { ($0.name, $0) })
    }

    @Test func goodOptionsPass() {
        #expect(GoalOptionChecks.check(Samples.options, edit: nil, before: nil).allSatisfy { $0.passed })
    }

    @Test func repeatedIdsAndNearDuplicatesAreNamed() throws {
        let output: JSONValue = ["options": [
            ["id": "lose-10", "summary": "Lose 10 lbs in 12 weeks", "detail": ""],
            ["id": "lose-10", "summary": "Lose 10 lbs in 10 weeks", "detail": ""],
            ["id": "run-5k", "summary": "Run a 5K by June\nwith friends", "detail": ""],
        ]]
        let results = byName(GoalOptionChecks.check(output, edit: nil, before: nil))
        #expect(results["options.unique-ids"]?.message == "repeated id `lose-10`")
        #expect(results["options.distinct"]?.passed == false)
        #expect(results["options.distinct"]?.message.contains("\"Lose 10 lbs in 12 weeks\" ~ \"Lose 10 lbs in 10 weeks\"") == true)
        #expect(results["options.one-line-summaries"]?.passed == false)
    }

    @Test(arguments: [(2, "2 options; the app shows 3 or 4"), (5, "5 options; the app shows 3 or 4"), (0, "0 options; the app shows 3 or 4")])
    func aListOfTheWrongSizeSaysHowManyCameBack(count: Int, message: String) throws {
        let option: JSONValue = ["id": "walk", "summary": "Walk 10,000 steps a day", "detail": ""]
        let output: JSONValue = ["options": .array(Array(repeating: option, count: count))]
        let result = try #require(byName(GoalOptionChecks.check(output, edit: nil, before: nil))["options.count"])
        #expect(!result.passed)
        #expect(result.message == message)
    }

    @Test func summariesThatAreNotOneShortLineAreQuotedWithTheReason() throws {
        let long = "Build the strength to carry both kids up the stairs without stopping by the end of the summer holidays"
        let output: JSONValue = ["options": [
            ["id": "run-5k", "summary": "Run a 5K by June\nwith friends", "detail": ""],
            ["id": "stairs", "summary": .string(long), "detail": ""],
            ["id": "walk", "summary": "Walk 10,000 steps a day", "detail": ""],
        ]]
        let result = try #require(byName(GoalOptionChecks.check(output, edit: nil, before: nil))["options.one-line-summaries"])
        #expect(!result.passed)
        #expect(result.message == "not one short line: \"Run a 5K by June⏎with friends\" (a line break); \"\(long.prefix(100))…\" (102 characters; at most 80)")
        #expect(!result.message.contains("Walk"))
        #expect(!result.message.contains("\n"), "a report shows each check on one line")
    }

    @Test func anEditMustChangeTheListAndShowTheFeedback() {
        let edit = OptionEdit(feedback: "more about running", expect: OptionEditExpectations(mentionAny: ["run", "5K"]))
        let unchanged = byName(GoalOptionChecks.check(Samples.options, edit: edit, before: Samples.options))
        #expect(unchanged["edit.changed"]?.passed == false)
        #expect(unchanged["edit.reflects-feedback"]?.message == "none of \"run\", \"5K\" appears in what changed after the feedback \"more about running\" (nothing changed)")
        let kept = Array((Samples.options["options"]?.arrayValue ?? []).prefix(2))
        let running: JSONValue = ["options": .array([["id": "run-5k", "summary": "Run a 5K without stopping by June", "detail": ""]] + kept)]
        let changed = byName(GoalOptionChecks.check(running, edit: edit, before: Samples.options))
        #expect(changed["edit.changed"]?.passed == true)
        #expect(changed["edit.reflects-feedback"]?.message == "the changed options mention \"run\"")
    }

    /// A wish word's family counts ("caminar" in "Camina"), and a wish an option kept from
    /// before already answers passes when the options changed around it; a kept option
    /// alone, with nothing changed, does not.
    @Test func aWishIsSeenInItsWordsFamilyAndInTheOptionsKeptForIt() {
        let options: [JSONValue] = [
            ["id": "energy", "summary": "Have more energy through your day.", "detail": "You train 3 days a week."],
            ["id": "back", "summary": "Build a back that hurts less by June.", "detail": "You strengthen your back and core."],
            ["id": "weight", "summary": "Lose up to 12 pounds by June.", "detail": "About 1 lb a week."],
        ]
        let before: JSONValue = ["options": .array(options)]
        let dance = OptionEdit(feedback: "Quiero algo más de caminar y bailar", expect: OptionEditExpectations(mentionAny: ["caminar", "bailar"]))
        let spanish: JSONValue = ["options": .array([["id": "wish", "summary": "Camina y baila con más aguante.", "detail": "Tres días a la semana."]] + options.dropFirst())]
        #expect(byName(GoalOptionChecks.check(spanish, edit: dance, before: before))["edit.reflects-feedback"]?.message == "the changed options mention \"caminar\"")
        let notAWord: JSONValue = ["options": .array([["id": "wish", "summary": "Camisetas para correr.", "detail": "Tres días a la semana."]] + options.dropFirst())]
        #expect(byName(GoalOptionChecks.check(notAWord, edit: dance, before: before))["edit.reflects-feedback"]?.passed == false, "\"camis\" is no family of caminar")

        let back = OptionEdit(feedback: "less about the weight and more about my back", expect: OptionEditExpectations(mentionAny: ["back", "core"]))
        let swapped: JSONValue = ["options": .array(Array(options.prefix(2)) + [["id": "stamina", "summary": "Build your stamina by June.", "detail": "Walk a little more each week."]])]
        #expect(byName(GoalOptionChecks.check(swapped, edit: back, before: before))["edit.reflects-feedback"]?.message
            == "an option kept from before already mentions \"back\", and the options changed around it")
        #expect(byName(GoalOptionChecks.check(before, edit: back, before: before))["edit.reflects-feedback"]?.passed == false, "nothing changed and no note")
    }

    @Test func feedbackShowsOnlyInTextTheEditChangedNeverInIDs() {
        let edit = OptionEdit(feedback: "something with kettlebells", expect: OptionEditExpectations(mentionAny: ["kettlebell", "energy"]))
        // "energy" was already in the list, and the id is not text a person reads.
        let renamed: JSONValue = ["options": .array((Samples.options["options"]?.arrayValue ?? []).enumerated().map { index, option in
            guard index == 0, var object = option.objectValue else { return option }
            object["id"] = "override-accepted-kettlebell-focused"
            return .object(object)
        })]
        let result = byName(GoalOptionChecks.check(renamed, edit: edit, before: Samples.options))["edit.reflects-feedback"]
        #expect(result?.passed == false)
    }
}

@Suite("Scenario assertions")
struct AssertionChecksTests {
    @Test(arguments: [
        (Assertion(step: .programDraft, kind: .contains, value: "goblet squat"), true),
        (Assertion(step: .programDraft, kind: .contains, value: "squats"), false),
        (Assertion(step: .programDraft, kind: .notContains, value: "barbell"), true),
        (Assertion(step: .programDraft, kind: .notContains, value: "plank"), false),
        (Assertion(step: .programDraft, kind: .regex, value: "(?i)\\bday 3\\b"), true),
        (Assertion(step: .programDraft, kind: .notRegex, value: "\\d+ ?kcal"), true),
        (Assertion(step: .programDraft, kind: .pointerEquals, pointer: "/program_json/days_per_week", equals: 3), true),
        (Assertion(step: .programDraft, kind: .pointerEquals, pointer: "/program_json/title", equals: "Other"), false),
        (Assertion(step: .programDraft, kind: .pointerRange, pointer: "/program_json/session_minutes", min: 10, max: 30), true),
        (Assertion(step: .programDraft, kind: .pointerRange, pointer: "/program_json/duration_weeks", max: 6), false),
        (Assertion(step: .programDraft, kind: .countRange, pointer: "/program_json/sessions", min: 2, max: 3), true),
        (Assertion(step: .programDraft, kind: .countRange, pointer: "/program_json/safety_notes", min: 2), false),
        (Assertion(step: .programDraft, kind: .pointerEquals, pointer: "/program_json/nothing", equals: 1), false),
    ])
    func evaluatesEachKind(assertion: Assertion, passes: Bool) throws {
        let result = try #require(AssertionChecks.check(Samples.program(), assertions: [assertion]).first)
        #expect(result.passed == passes, "\(result.message)")
        #expect(result.name == "assertion.\(assertion.kind.rawValue) \(assertion.value ?? assertion.pointer ?? "")")
    }

    @Test(arguments: [
        (Assertion(step: .programDraft, kind: .contains, value: "squats", why: "legs"), "does not contain \"squats\" (legs)"),
        (Assertion(step: .programDraft, kind: .regex, value: "(?i)\\bday 9\\b", why: "nine days"), "nothing matches /(?i)\\bday 9\\b/ (nine days)"),
        (Assertion(step: .programDraft, kind: .pointerEquals, pointer: "/program_json/title", equals: "Other", why: "renamed"),
         "/program_json/title is \"Evening Energy\", expected \"Other\" (renamed)"),
        (Assertion(step: .programDraft, kind: .pointerEquals, pointer: "/program_json/nothing", equals: 1, why: "needed"),
         "nothing at /program_json/nothing (needed)"),
        (Assertion(step: .programDraft, kind: .pointerRange, pointer: "/program_json/duration_weeks", max: 6, why: "short block"),
         "/program_json/duration_weeks is 8, outside range -∞...6 (short block)"),
        (Assertion(step: .programDraft, kind: .pointerRange, pointer: "/program_json/title", min: 1, why: "a number"),
         "/program_json/title is string, not a number (a number)"),
        (Assertion(step: .programDraft, kind: .countRange, pointer: "/program_json/safety_notes", min: 2, why: "two notes"),
         "/program_json/safety_notes has 1 item, outside range 2...∞ (two notes)"),
        (Assertion(step: .programDraft, kind: .countRange, pointer: "/program_json/sessions", max: 2, why: "two days"),
         "/program_json/sessions has 3 items, outside range -∞...2 (two days)"),
        (Assertion(step: .programDraft, kind: .countRange, pointer: "/program_json/title", max: 2, why: "a list"),
         "/program_json/title is string, not an array (a list)"),
    ])
    func aFailureNamesWhatTheOutputHasInstead(assertion: Assertion, message: String) throws {
        let result = try #require(AssertionChecks.check(Samples.program(), assertions: [assertion]).first)
        #expect(!result.passed)
        #expect(result.message == message)
    }

    @Test func aMatchingForbiddenPatternIsQuotedInContext() throws {
        let assertion = Assertion(step: .programDraft, kind: .notRegex, value: "(?i)goblet \\w+", why: "no goblets")
        let result = try #require(AssertionChecks.check(Samples.program(), assertions: [assertion]).first)
        #expect(!result.passed)
        #expect(result.message.hasPrefix("/(?i)goblet \\w+/ matches: "), "\(result.message)")
        #expect(result.message.contains("Goblet squat"), "\(result.message)")
        #expect(result.message.hasSuffix("(no goblets)"), "\(result.message)")
    }

    @Test func aFailureQuotesTheOffendingTextAndTheReason() throws {
        let assertion = Assertion(step: .programDraft, kind: .notContains, value: "plank", why: "wrist pain")
        let result = try #require(AssertionChecks.check(Samples.program(), assertions: [assertion]).first)
        #expect(result.message.hasPrefix("contains \"plank\": "))
        #expect(result.message.contains("Plank"))
        #expect(result.message.hasSuffix("(wrist pain)"))
    }
}

@Suite("Program edit checks")
struct ProgramEditChecksTests {
    @Test func reportsHowMuchElseChanged() {
        let draft = Samples.program()
        let edited = Samples.program(exercises: [["Goblet squat", "Dumbbell row", "Plank"], ["Glute bridge", "Dead bug", "Dumbbell press"], ["Step-up", "Bird dog", "Side plank"]])
        let result = ProgramEditChecks.keepsTheRest(before: draft, after: edited)
        #expect(result.passed)
        #expect(result.message == "kept 8 of 9 exercises (88%), 1 new; days 3 → 3")
        let unchanged = ProgramEditChecks.check(before: draft, after: draft)
        #expect(unchanged.map(\.name) == ["edit.changed", "edit.keeps-the-rest"], "both are reported, so either can be tracked")
        #expect(unchanged.map(\.passed) == [false, true])
        #expect(ProgramEditChecks.check(before: draft, after: edited).map(\.passed) == [true, true])
        let rewritten = Samples.program(exercises: [["A", "B"], ["C", "D"], ["E", "F"]])
        #expect(ProgramEditChecks.keepsTheRest(before: draft, after: rewritten).message.hasPrefix("rewrote most of the program"))
    }

    @Test func theFixtureScenarioDrivesTheProgramEditChecks() throws {
        let fixture = try Samples.fixture("busy-parent")
        let draft = Samples.program()
        let jumpy = Samples.program(exercises: [["Goblet squat", "Dumbbell row"], ["Glute bridge", "Dead bug"], ["Skater hops", "Plank"]])
        let results = DomainChecks.check(.programEdit, output: jumpy, context: DomainChecks.Context(fixture: fixture, before: draft))
        let avoids = try #require(results.first { $0.name == "program.avoids[skater]" })
        #expect(!avoids.passed)
        #expect(avoids.message.contains("\"skater\""))
    }
}
