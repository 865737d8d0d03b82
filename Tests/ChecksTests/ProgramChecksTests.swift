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
        #expect(checks.map(\.name) == [
            "program.days-per-week", "program.sessions-match-days", "program.session-length", "program.equipment", "program.avoids[burpee]",
            "program.avoids[jump]", "program.mentions[Keisha]", "program.professional-referral", "program.exercises-per-session",
            "program.progression-covers-weeks", "program.markdown-agrees",
        ])
    }

    @Test(arguments: [
        (Samples.program(days: 4), "program.days-per-week", "4 days a week; the person can train at most 3"),
        (Samples.program(minutes: 40), "program.session-length", "sessions up to 40 min; the person has 25"),
        (Samples.program(exercises: [["Barbell back squat", "Dumbbell row"]]), "program.equipment[barbell]", "\"Barbell back squat\" (\"barbell\")"),
        (Samples.program(equipment: ["bodyweight", "kettlebell"]), "program.equipment[kettlebell]", "needs kettlebell, which the person does not have (bodyweight, dumbbell, mat): listed"),
        (Samples.program(exercises: [["Jump squats", "Plank"]]), "program.avoids[jump]", "\"jump\" in"),
        (Samples.program(exercises: [["Goblet squat"]]), "program.exercises-per-session", "sessions need 3-8 exercises: \"Full body 1\" has 1"),
        (Samples.program(progression: [("1-2", "Learn"), ("5-9", "Add")]), "program.progression-covers-weeks", "weeks 3, 4 have no phase; phases 5-9 run past week 8"),
        (Samples.program(notes: ["Warm up first."]), "program.professional-referral", "no safety note tells the person to check with a doctor"),
        (Samples.replacing("days_per_week", with: 4, in: Samples.program()), "program.sessions-match-days",
         "3 sessions (days 1, 2, 3) for days_per_week 4"),
        (Samples.program(markdownOverride: "# Evening Energy\n"), "program.mentions[Keisha]", "never mentions \"Keisha\""),
    ])
    func failsWithTheOffendingDetail(output: JSONValue, check: String, fragment: String) throws {
        let result = try #require(results(output, keisha)[check])
        #expect(!result.passed)
        #expect(result.message.contains(fragment), "\(result.message)")
    }

    @Test func repeatedDayNumbersAreListed() throws {
        let sessions = try #require(Samples.program()["program_json"]?["sessions"]?.arrayValue)
        let repeated = sessions.enumerated().map { index, session -> JSONValue in
            guard var object = session.objectValue else { return session }
            object["day"] = index == 2 ? 1 : .number(Double(index + 1))
            return .object(object)
        }
        let result = try #require(results(Samples.replacing("sessions", with: .array(repeated), in: Samples.program()), keisha)["program.sessions-match-days"])
        #expect(!result.passed)
        #expect(result.message == "3 sessions (days 1, 2, 1) for days_per_week 3")
    }

    @Test func eachWordToMentionIsItsOwnResult() throws {
        let checks = results(Samples.program(), Expectations(mention: ["Keisha", "monkey bars", "energy"]))
        #expect(checks["program.mentions[Keisha]"]?.passed == true)
        #expect(checks["program.mentions[energy]"]?.passed == true)
        let missing = try #require(checks["program.mentions[monkey bars]"])
        #expect(!missing.passed)
        #expect(missing.message == "never mentions \"monkey bars\"")
    }

    @Test func sessionsListedCountAgainstTheDayLimitWhateverTheProgramDeclares() throws {
        let sevenSessions = Samples.replacing("days_per_week", with: 3, in: Samples.program(days: 7))
        let result = try #require(results(sevenSessions, keisha)["program.days-per-week"])
        #expect(!result.passed)
        #expect(result.message == "7 days a week (7 sessions listed, days_per_week says 3); the person can train at most 3")
    }

    @Test func aNameThatImpliesEquipmentNeedsIt() throws {
        let knowledge = try SafetyChecksTests.knowledge(withEquipment: true)
        let checks = Dictionary(uniqueKeysWithValues: ProgramChecks.check(
            Samples.program(exercises: [["Deadlifts", "Dumbbell Bench Press", "Kettlebell Deadlift"]]), expectations: keisha, knowledge: knowledge
        ).map { ($0.name, $0) })
        #expect(checks["program.equipment[barbell]"]?.message.hasSuffix(#""Deadlifts" ("deadlift" implies it)"#) == true, "\(checks.keys.sorted())")
        #expect(checks["program.equipment[bench]"]?.message.contains(#""Dumbbell Bench Press" ("bench")"#) == true)
        #expect(checks["program.equipment[kettlebell]"]?.message.contains("\"Kettlebell Deadlift\"") == true)
        #expect(checks["program.equipment[barbell]"]?.message.contains("Dumbbell Bench Press") == false, "a name that says its equipment")
    }

    @Test func anEnduranceSessionMayBeOnePiece() throws {
        let run = Samples.program(exercises: [["Easy run 30 minutes"], ["Bike intervals"], ["Goblet squat", "Dumbbell row", "Plank"]])
        #expect(results(run, Expectations())["program.exercises-per-session"]?.passed == true)
    }

    @Test func anOutputWithoutAProgramSaysWhatItHasInstead() {
        let output: JSONValue = ["program": ["title": "Evening Energy"], "program_markdown": "# Evening Energy"]
        let checks = ProgramChecks.check(output, expectations: keisha)
        #expect(checks.map(\.name) == ["program.present"])
        #expect(checks.first?.passed == false)
        #expect(checks.first?.message == "the output has no program_json; its keys are `program`, `program_markdown`")
        #expect(ProgramChecks.check(["program_markdown": "# Plan"], expectations: keisha).first?.message
            == "the output has no program_json; its only key is `program_markdown`")
        #expect(ProgramChecks.check("a program", expectations: keisha).first?.message
            == "the output has no program_json; it is a string, not an object")
    }

    @Test func aSafetyNoteMayNameWhatTheProgramAvoids() {
        let output = Samples.program(notes: ["No jumping: Keisha lives upstairs. See your doctor if your wrists hurt."])
        #expect(results(output, keisha)["program.avoids[jump]"]?.passed == true)
    }

    @Test func avoidedWordsMatchWholeWordsAndTheirForms() {
        let avoidRun = Expectations(avoid: ["run"])
        #expect(results(Samples.program(exercises: [["Brunch walk"]]), avoidRun)["program.avoids[run]"]?.passed == true)
        #expect(results(Samples.program(exercises: [["Easy running"]]), avoidRun)["program.avoids[run]"]?.passed == false)
    }

    @Test func theMarkdownMustMatchTheJSON() throws {
        let missing = Samples.program(markdownOverride: "# Evening Energy\n## Day 1: Full body 1\n- **Goblet squat**: 3 × 10\n- **Burpee**: 3 × 10\n")
        let result = try #require(results(missing, Expectations())["program.markdown-agrees"])
        #expect(!result.passed)
        #expect(result.message.contains("exercises not in the markdown: \"Dumbbell row\""))
        #expect(result.message.contains("exercises only in the markdown: \"Burpee\""))
        #expect(result.message.contains("sessions not in the markdown: \"Full body 2\""))
    }

    @Test func theMarkdownMustSayTheSameSetsRepsAndRest() throws {
        let markdown = "# Evening Energy\n## Day 1: Full body 1\n- **Goblet squat**: 4 × 10, rest 60 s.\n- **Dumbbell row**: 3 × 12, rest 60 s.\n"
            + "- **Plank**: 3 × 10, rest 2 min.\n## Day 2: Full body 2\n- **Glute bridge**: 3 × 10 reps, rest 60 s.\n- **Dead bug**: 3 × 10\n"
            + "- **Dumbbell press**: 3 × 10, rest 60 s.\n## Day 3: Full body 3\n- **Bodyweight Reverse lunge**: 3 × 10, rest 60 s.\n"
            + "- **Bird dog**: 3 × 10, rest 60 s.\n- **Side plank**: three sets\n"
        let result = try #require(results(Samples.program(markdownOverride: markdown), Expectations())["program.markdown-agrees"])
        #expect(!result.passed)
        #expect(result.message == "sets, reps or rest differ: \"Goblet squat\": 3 × 10, rest 60 s in JSON, \"4 × 10, rest 60 s.\" in markdown; "
            + "\"Dumbbell row\": 3 × 10, rest 60 s in JSON, \"3 × 12, rest 60 s.\" in markdown; "
            + "\"Plank\": 3 × 10, rest 60 s in JSON, \"3 × 10, rest 2 min.\" in markdown; "
            + "\"Side plank\": 3 × 10, rest 60 s in JSON, no sets × reps in markdown", "reps' words, a missing rest and a longer name agree")
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

@Suite("Equipment words inside longer ones")
struct NestedEquipmentWordTests {
    @Test(arguments: [("Rowing machine", "cardio-machine"), ("Cable machine fly", "cable-machine"), ("Leg press machine", "weight-machine")])
    func aMachineIsTheOneItsLongestNameSays(exercise: String, needs: String) throws {
        let program = Samples.replacing("sessions", with: [["day": 1, "name": "Gym", "minutes": 25, "exercises": [Samples.exercise(exercise)]]], in: Samples.program(days: 1))
        var expectations = Expectations()
        expectations.equipment = [.bodyweight, .mat, .dumbbell]
        let failed = ProgramChecks.check(program, expectations: expectations).filter { !$0.passed }.map(\.name)
        #expect(failed.filter { $0.hasPrefix("program.equipment[") } == ["program.equipment[\(needs)]"], "\(failed)")
    }
}
