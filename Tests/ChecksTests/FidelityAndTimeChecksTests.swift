import Foundation
import Intake
import JSONSchema
import Testing

@testable import Checks

/// The checks a coach's reading called for: sessions that fill the person's time, a
/// goal line that names a target, edits that change only what was asked.
@Suite("Time, goal line and edit fidelity")
struct FidelityAndTimeChecksTests {
    static func rules() throws -> AdviceRules { try AdviceAndTextChecksTests.rules() }

    static func knowledge() throws -> CoachingKnowledge { try AdviceAndTextChecksTests.knowledge() }

    static func time(_ text: String) throws -> AvailableTime? {
        AvailableTime.read(text, label: "anythingElse", rules: try #require(try rules().sessionTime))
    }

    @Test(arguments: [
        ("An hour max, before work.", 60, 60),
        ("About half an hour is plenty.", 30, 30),
        ("Lunch is 1 hour, so 40 minutes of actual workout.", 40, 60),
        ("Weekdays I have about an hour. Sunday long run can go up to 2 hours.", 60, 120),
        ("30 minutes in the morning before the first meeting is realistic. Sometimes only 15.", 30, 30),
        ("I can realistically get 20-25 minutes after the kids go to bed, around 8:30.", 25, 25),
        ("Tengo media hora en la tarde cuando llego del trabajo.", 30, 30),
        ("Sessions of 1.5 h on weekends", 90, 90),
        ("i have like a our before work maybe less", 60, 60),
    ])
    func theTimeAPersonHasIsReadFromTheirWords(text: String, usual: Int, longest: Int) throws {
        let time = try #require(try Self.time(text))
        #expect(time.usual == usual)
        #expect(time.longest == longest)
    }

    @Test func wordsWithoutATimeNameNone() throws {
        #expect(try Self.time("i have some time before work, our gym opens at 6") == nil, "\"our\" alone is no hour")
        #expect(try Self.time("3 days, 7h of sleep is a 5 min thing") == nil, "times under 10 minutes are not a session")
    }

    @Test func theTimeComesFromTheFirstFieldThatNamesOne() throws {
        let rules = try #require(try Self.rules().sessionTime)
        let record = LocalIntakeData(frequency: "3 days, 45 min", coachingStyle: "Concise. 90 minutes max.", anythingElse: "Nothing else.")
        #expect(AvailableTime.read(record, rules: rules)?.usual == 45)
        #expect(AvailableTime.read(LocalIntakeData(frequency: "3 days"), rules: rules) == nil)
    }

    static func program(minutes: [Int], title: String = "Evening Energy", goal: String = "More energy in 8 weeks") -> JSONValue {
        ["title": .string(title), "goal": .string(goal), "session_minutes": .number(Double(minutes.max() ?? 0)),
         "sessions": .array(minutes.enumerated().map { index, minutes in
             ["day": .number(Double(index + 1)), "name": .string(index == 1 ? "Rest day" : "Full body \(index + 1)"),
              "minutes": .number(Double(minutes)), "exercises": []]
         })]
    }

    @Test func sessionsFillAtLeastThreeQuartersOfTheUsualTimeAndNoMoreThanTheLongest() throws {
        let rules = try Self.rules()
        let hour = try #require(try Self.time("An hour max."))
        #expect(ProgramPlanChecks.fillsTheTime(Self.program(minutes: [45, 10, 60]), time: hour, rules: rules).passed,
                "a rest day's minutes are not held to the time")
        let short = ProgramPlanChecks.fillsTheTime(Self.program(minutes: [20, 10, 60]), time: hour, rules: rules)
        #expect(!short.passed)
        #expect(short.message.contains("\"Full body 1\" 20 min"), "\(short.message)")
        #expect(short.message.contains("An hour max."))
        let long = ProgramPlanChecks.fillsTheTime(Self.program(minutes: [75]), time: hour, rules: rules)
        #expect(!long.passed && long.message.contains("longer than the 60 min"))
    }

    @Test(arguments: [
        ("Evening Energy", "More energy: three 25-minute evenings a week", true),
        ("Build to 30 push-ups", "Do 30 push-ups in a row by June", true),
        ("Evening Energy", "Start with energy rest and gradually increase your routine.", false),
        ("Evening Energy", "Begin with light weights.", false),
        ("Back Plan", "Reduce my lower back pain by 10% in 3 months.", false),
        ("Our Collarbone Training Plan", "Build strength", false),
        ("Fuerza para Lucía", "Caminar 30 minutos sin cansarte", true),
        ("Fuerza", "Mejorar mi energía", false),
        ("Fuerza para ti", "Mejorar tu energía en 12 semanas", true),
        ("Half marathon", "Run 13.1 mi in under 2 hours", true),
    ])
    func theGoalLineNamesATargetAddressedToThePerson(title: String, goal: String, passes: Bool) throws {
        let result = try #require(GoalLineChecks.check(Self.program(minutes: [25], title: title, goal: goal), rules: try Self.rules()))
        #expect(result.passed == passes, "\(result.message)")
    }

    static func edit(_ sessions: [[String]], notes: String = "", days: Int? = nil, minutes: Int = 25) -> JSONValue {
        ["program_json": ["days_per_week": .number(Double(days ?? sessions.count)), "session_minutes": .number(Double(minutes)),
                          "sessions": .array(sessions.map { names in
                              ["minutes": .number(Double(minutes)), "exercises": .array(names.map { ["name": .string($0), "notes": .string(notes)] })]
                          })]]
    }

    static func fidelity(before: JSONValue, after: JSONValue, feedback: String) throws -> [String: CheckResult] {
        let knowledge = try Self.knowledge()
        let results = EditFidelityChecks.check(before: before, after: after, feedback: feedback, knowledge: knowledge)
        return Dictionary(uniqueKeysWithValues: results.map { ($0.name, $0) })
    }

    static let draft = edit([["Dumbbell chair squat", "Dumbbell floor press", "Jump squat", "Dumbbell bent-over row"],
                             ["Goblet squat", "Push-up", "Dumbbell row", "Plank"]])

    @Test func takingOutWhatTheFeedbackNamesPasses() throws {
        let after = Self.edit([["Dumbbell chair squat", "Dumbbell floor press", "Glute bridge", "Dumbbell bent-over row"],
                               ["Goblet squat", "Push-up", "Dumbbell row", "Plank"]])
        let results = try Self.fidelity(before: Self.draft, after: after, feedback: "Can you take out anything jumpy?")
        #expect(results["edit.only-what-was-asked"]?.passed == true, "\(results)")
    }

    @Test func takingOutWhatNobodyNamedFails() throws {
        // Nothing jumpy is in this draft: the edit should change nothing, not drop the squat and rows.
        let draft = Self.edit([["Dumbbell chair squat", "Dumbbell floor press", "Dumbbell bent-over row"], ["Goblet squat", "Dumbbell row"]])
        let after = Self.edit([["Dumbbell floor press"], ["Goblet squat", "Dumbbell row"]])
        let result = try #require(try Self.fidelity(before: draft, after: after, feedback: "Can you take out anything jumpy?")["edit.only-what-was-asked"])
        #expect(!result.passed)
        #expect(result.message.contains("\"Dumbbell chair squat\", \"Dumbbell bent-over row\""), "\(result.message)")
        #expect(result.message.contains("never held what it names (jumps, hops and landings)"), "\(result.message)")
    }

    @Test func aRequestTheDraftAlreadyMeetsChangesNothing() throws {
        let after = Self.edit([["Dumbbell chair squat", "Dumbbell floor press"], ["Goblet squat", "Push-up"]])
        let met = try Self.fidelity(before: Self.draft, after: after, feedback: "Can each workout be doable in 30 minutes?")
        #expect(met["edit.only-what-was-asked"]?.passed == false, "sessions were 25 minutes already")
        let unmet = try Self.fidelity(before: Self.draft, after: after, feedback: "Can each workout be doable in 20 minutes?")
        #expect(unmet["edit.only-what-was-asked"]?.passed == true, "shorter sessions drop exercises")
        let days = try Self.fidelity(before: Self.draft, after: Self.edit([Self.sessions(Self.draft)[0]]), feedback: "Only 1 day a week, please.")
        #expect(days["edit.only-what-was-asked"]?.passed == true)
    }

    @Test func equipmentNamesWhatToTakeOutWhenNoMovementIsNamed() throws {
        let draft = Self.edit([["Treadmill walk", "Goblet squat", "Dumbbell row"]])
        let after = Self.edit([["Stationary bike", "Goblet squat", "Dumbbell row"]])
        let result = try Self.fidelity(before: draft, after: after, feedback: "can u take out the tread mill stuff its always broken lol")
        #expect(result["edit.only-what-was-asked"]?.passed == true, "\(result)")
        // Naming a movement, its equipment alone names nothing: "kettlebell swings" is not every kettlebell exercise.
        let bells = Self.edit([["Kettlebell deadlift", "Kettlebell goblet squat", "Kettlebell row"]])
        let swapped = Self.edit([["Band hip hinge", "Banded squat", "Band row"]])
        let swings = try Self.fidelity(before: bells, after: swapped, feedback: "Can you swap out the kettlebell swings? I leaked doing them.")
        #expect(swings["edit.only-what-was-asked"]?.passed == false)
    }

    @Test func cuesAreNeitherInstructionsNorPastedOverMany() throws {
        let after = Self.edit([["Dumbbell chair squat", "Dumbbell floor press", "Glute bridge", "Dumbbell bent-over row"],
                               ["Goblet squat", "Push-up", "Dumbbell row", "Plank"]], notes: "Replace with dumbbell swings for a safer exercise.")
        let instruction = try #require(try Self.fidelity(before: Self.draft, after: after, feedback: "Take out anything jumpy")["edit.cues-kept"])
        #expect(!instruction.passed && instruction.message.contains("an instruction to the writer"), "\(instruction.message)")
        let pasted = Self.edit([["Dumbbell chair squat", "Dumbbell floor press", "Glute bridge", "Dumbbell bent-over row"],
                                ["Goblet squat", "Push-up", "Dumbbell row", "Plank"]], notes: "Breathe out as you push.")
        let generic = try #require(try Self.fidelity(before: Self.draft, after: pasted, feedback: "Take out anything jumpy")["edit.cues-kept"])
        #expect(!generic.passed && generic.message.contains("pasted over 8 exercises"), "\(generic.message)")
        let asked = try #require(try Self.fidelity(before: Self.draft, after: pasted, feedback: "Jumps are too loud, and tell me how to breathe")["edit.cues-kept"])
        #expect(asked.passed, "the feedback asks how to breathe: one cue on every lift is the answer")
    }

    static func accounted(_ edit: JSONValue, _ account: String) -> JSONValue {
        ["program_json": edit["program_json"] ?? .null, "change": .string(account)]
    }

    @Test func askedToTakeOutWhatTheDraftNeverHeldTheEditSaysSoAndChangesNothing() throws {
        // "a second floor apartment" names no floor press: only the movement asked about counts.
        let feedback = "We're in a second floor apartment, can you take out anything jumpy?"
        let draft = Self.edit([["Dumbbell chair squat", "Dumbbell floor press", "Dumbbell bent-over row"], ["Goblet squat", "Dumbbell row"]])
        let knowledge = try Self.knowledge()
        #expect(EditFidelityChecks.neverHeld(before: draft, feedback: feedback, knowledge: knowledge) == "jumps, hops and landings")

        let honest = Self.accounted(draft, "There were no jumps in your program, so nothing changed: every exercise is already quiet.")
        let said = try #require(try Self.fidelity(before: draft, after: honest, feedback: feedback)["edit.says-it-was-not-there"])
        #expect(said.passed, "\(said.message)")
        let unchanged = Dictionary(uniqueKeysWithValues: ProgramEditChecks.check(
            before: draft, after: honest, neverHeld: EditFidelityChecks.neverHeld(before: draft, feedback: feedback, knowledge: knowledge)).map { ($0.name, $0) })
        #expect(unchanged["edit.changed"]?.passed == true, "leaving it unchanged is the right answer")

        let claimed = Self.accounted(Self.edit([["Dumbbell floor press"], ["Goblet squat", "Dumbbell row"]]),
                                     "Changed: Dumbbell chair squat taken out (day 1); Dumbbell bent-over row taken out.")
        let false_ = try #require(try Self.fidelity(before: draft, after: claimed, feedback: feedback)["edit.says-it-was-not-there"])
        #expect(!false_.passed)
        #expect(false_.message.contains("never held what the feedback names (jumps, hops and landings)"), "\(false_.message)")
        let silent = try #require(try Self.fidelity(before: draft, after: draft, feedback: feedback)["edit.says-it-was-not-there"])
        #expect(!silent.passed && silent.message.contains("gives no account"), "\(silent.message)")
        let spanish = Self.accounted(draft, "Tu programa no tenía saltos, así que no cambié nada.")
        #expect(try Self.fidelity(before: draft, after: spanish, feedback: "¿Puedes quitar los saltos?")["edit.says-it-was-not-there"]?.passed == true)
    }

    @Test func aDraftThatHoldsWhatTheFeedbackNamesOrARequestForSomethingNewIsNotNeverHeld() throws {
        let knowledge = try Self.knowledge()
        #expect(EditFidelityChecks.neverHeld(before: Self.draft, feedback: "Can you take out anything jumpy?", knowledge: knowledge) == nil,
                "the draft holds a jump squat")
        let quiet = Self.edit([["Goblet squat", "Dumbbell row"]])
        #expect(EditFidelityChecks.neverHeld(before: quiet, feedback: "Swap the jumps for something quiet", knowledge: knowledge) == nil,
                "it asks for something new as well")
        #expect(EditFidelityChecks.neverHeld(before: quiet, feedback: "Make Wednesday a rest day", knowledge: knowledge) == nil,
                "it names no movement")
        let results = try Self.fidelity(before: Self.draft, after: Self.draft, feedback: "Can you take out anything jumpy?")
        #expect(results["edit.says-it-was-not-there"] == nil)
    }

    static func sessions(_ output: JSONValue) -> [[String]] {
        EditFidelityChecks.sessions(output["program_json"] ?? .null)
    }
}
