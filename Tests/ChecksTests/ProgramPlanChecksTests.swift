import Intake
import JSONSchema
import Testing

@testable import Checks

/// Whether a plan holds together, and whether options and notes speak to the person.
struct ProgramPlanChecksTests {
    @Test func phasesThatRepeatOneFocusDoNotProgress() {
        let same = Samples.program(progression: [("1-3", "Strength and endurance"), ("4-6", "Strength and endurance."), ("7-8", "Taper")])
        let result = ProgramPlanChecks.phasesDiffer(same["program_json"]!)
        #expect(!result.passed)
        #expect(result.message == #"phases repeat the same focus: "Strength and endurance.""#)
        #expect(ProgramPlanChecks.phasesDiffer(Samples.program()["program_json"]!).passed)
    }

    @Test(arguments: [
        ("Meet is in 16 weeks (USAPL, mid-March)", "More energy", 8, false, "8 weeks stops well short of the timeline \"Meet is in 16 weeks (USAPL, mid-March)\" (16 weeks)"),
        ("3-6 months", "More energy", 12, true, "12 weeks for the timeline \"3-6 months\" (13 weeks)"),
        ("3 months", "Run a 5K in 8 weeks", 8, true, "8 weeks for its goal (8 weeks)"),
        ("6 weeks", "More energy", 12, false, "12 weeks runs past the timeline \"6 weeks\" (6 weeks)"),
    ])
    func aProgramRunsAboutAsLongAsItsGoalOrTimeline(timeline: String, goal: String, weeks: Int, passes: Bool, message: String) throws {
        let program = Samples.replacing("goal", with: .string(goal), in: Samples.program(weeks: weeks))
        let result = try #require(ProgramPlanChecks.fitsTimeline(program["program_json"]!, timeline: timeline))
        #expect(result.passed == passes)
        #expect(result.message == message)
        #expect(ProgramPlanChecks.fitsTimeline(Samples.program()["program_json"]!, timeline: "by summer") == nil, "no length to judge")
    }

    @Test func aSessionsWorkMustRoughlyFillItsMinutes() {
        let thin = Samples.replacing("sessions", with: [["day": 1, "name": "Full body", "minutes": 45, "exercises": [Samples.exercise("Push-ups")]]], in: Samples.program())
        let result = ProgramPlanChecks.sessionTime(thin["program_json"]!)
        #expect(!result.passed)
        #expect(result.message == "\"Full body\": about 10 min of work and rest for 45 min")
        let run = Samples.replacing("sessions", with: [["day": 1, "name": "Easy run", "minutes": 40, "exercises": [Samples.exercise("Easy run 30 minutes", reps: "1")]]], in: Samples.program())
        #expect(ProgramPlanChecks.sessionTime(run["program_json"]!).passed, "an endurance piece fills the time it names")
        #expect(ProgramPlanChecks.workSeconds(reps: "8-10 reps") == 30)
        #expect(ProgramPlanChecks.workSeconds(reps: "30 s") == 30)
        #expect(ProgramPlanChecks.workSeconds(reps: "2 min") == 120)
    }

    @Test func aReferralIsAdviceInTheNotesNotThePersonsOwnWords() {
        let expectations = Expectations(professionalReferral: true)
        let ownWords = Samples.program(notes: ["El doctor me dijo que tengo prediabetes."])
        #expect(ProgramChecks.check(ownWords, expectations: expectations).first { $0.name == "program.professional-referral" }?.passed == false)
        let advice = Samples.program(notes: ["Consulta a tu médico antes de empezar."])
        #expect(ProgramChecks.check(advice, expectations: expectations).first { $0.name == "program.professional-referral" }?.passed == true)
    }

    @Test func optionsSpeakToThePersonAndDifferentDirectionsAreDistinct() {
        let options: JSONValue = ["options": [
            ["id": "strength", "summary": "Strength train 3x a week for 8 weeks", "detail": ""],
            ["id": "endurance", "summary": "Endurance train 3x a week for 8 weeks", "detail": ""],
            ["id": "copied", "summary": "I want to lose my belly by June", "detail": ""],
        ]]
        let results = Dictionary(uniqueKeysWithValues: GoalOptionChecks.check(options, edit: nil, before: nil).map { ($0.name, $0) })
        #expect(results["options.distinct"]?.passed == true)
        #expect(results["options.addressed-to-user"]?.passed == false)
        #expect(results["options.addressed-to-user"]?.message == #"written in the person's own first person: "I want to lose my belly by June""#)
    }
}
