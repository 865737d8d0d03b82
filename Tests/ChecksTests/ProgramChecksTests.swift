import Intake
import JSONSchema
import Testing

@testable import Checks

@Suite("Program checks")
struct ProgramChecksTests {
    func results(_ output: JSONValue, _ expectations: Expectations) -> [String: CheckResult] {
        Dictionary(uniqueKeysWithValues: ProgramChecks.check(output, expectations: expectations).map { ($0.name, $0) })
    }

    let keisha = Expectations(
        maxDaysPerWeek: 3, maxSessionMinutes: 25, equipment: [.bodyweight, .mat, .dumbbell], avoid: ["burpee", "jump"],
        mention: ["Keisha"], professionalReferral: true)

    @Test func aProgramThatFitsPassesEveryCheck() {
        let checks = ProgramChecks.check(Samples.program(notes: ["Check with your doctor before starting."]), expectations: keisha)
        #expect(checks.allSatisfy { $0.passed }, "\(checks.filter { !$0.passed })")
        #expect(checks.count == 9)
    }

    @Test(arguments: [
        (Samples.program(days: 4), "program.days-per-week", "4 days a week; the person can train at most 3"),
        (Samples.program(minutes: 40), "program.session-length", "sessions up to 40 min; the person has 25"),
        (Samples.program(exercises: [["Barbell back squat", "Dumbbell row"]]), "program.equipment", "\"Barbell back squat\" needs barbell"),
        (Samples.program(equipment: ["bodyweight", "kettlebell"]), "program.equipment", "lists kettlebell"),
        (Samples.program(exercises: [["Jump squats", "Plank"]]), "program.avoids", "\"jump\" in"),
        (Samples.program(progression: [("1-2", "Learn"), ("5-9", "Add")]), "program.progression-covers-weeks", "weeks 3, 4 have no phase; phases 5-9 run past week 8"),
        (Samples.program(notes: ["Warm up first."]), "program.professional-referral", "no note to check with a doctor"),
    ])
    func failsWithTheOffendingDetail(output: JSONValue, check: String, fragment: String) throws {
        let result = try #require(results(output, keisha)[check])
        #expect(!result.passed)
        #expect(result.message.contains(fragment), "\(result.message)")
    }

    @Test func aSafetyNoteMayNameWhatTheProgramAvoids() {
        let output = Samples.program(notes: ["No jumping: Keisha lives upstairs. See your doctor if your wrists hurt."])
        #expect(results(output, keisha)["program.avoids"]?.passed == true)
    }

    @Test func avoidedWordsMatchWholeWordsAndTheirForms() {
        let avoidRun = Expectations(avoid: ["run"])
        #expect(results(Samples.program(exercises: [["Brunch walk"]]), avoidRun)["program.avoids"]?.passed == true)
        #expect(results(Samples.program(exercises: [["Easy running"]]), avoidRun)["program.avoids"]?.passed == false)
    }

    @Test func theMarkdownMustMatchTheJSON() throws {
        let missing = Samples.program(markdownOverride: "# Evening Energy\n## Day 1: Full body 1\n- **Goblet squat**: 3 × 10\n- **Burpee**: 3 × 10\n")
        let result = try #require(results(missing, Expectations())["program.markdown-agrees"])
        #expect(!result.passed)
        #expect(result.message.contains("exercises not in the markdown: \"Dumbbell row\""))
        #expect(result.message.contains("exercises only in the markdown: \"Burpee\""))
        #expect(result.message.contains("sessions not in the markdown: \"Full body 2\""))
    }

    @Test func markdownExercisesAreTheBoldNamesUnderSessionHeadings() {
        let markdown = """
        # Plan
        - **Not an exercise**: under the title
        ## Día 1: Piernas
        - **Sentadilla**: 3 × 10
        ##  SESIÓN 2
        * **Remo**: 3 × 8
        ### Upper Strength (45 min)
        - **Press**: 3 × 5
        ## Safety notes
        - **Warm up**: always
        """
        #expect(ProgramChecks.markdownExercises(markdown, sessionNames: ["upper strength"]) == ["Sentadilla", "Remo", "Press"])
    }

    @Test func expectationsOfTheEditOverlayTheScenarios() {
        let merged = keisha.overlaid(with: Expectations(maxDaysPerWeek: 2, avoid: ["skater", "JUMP"]))
        #expect(merged.maxDaysPerWeek == 2)
        #expect(merged.maxSessionMinutes == 25)
        #expect(merged.avoid == ["burpee", "jump", "skater"])
    }
}
