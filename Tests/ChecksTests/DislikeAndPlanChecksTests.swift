import Foundation
import Intake
import JSONSchema
import Testing

@testable import Checks

/// What the person said they do not want to do, the system prompt's sentences, and rest days.
struct DislikeAndPlanChecksTests {
    static func failures(_ record: LocalIntakeData, _ names: [String], notes: [String] = []) throws -> [String: String] {
        let results = DislikeChecks.check(
            program: SafetyChecksTests.program(names, notes: notes), record: record, knowledge: try SafetyChecksTests.knowledge())
        return Dictionary(uniqueKeysWithValues: results.filter { !$0.passed }.map { ($0.name, $0.message) })
    }

    @Test(arguments: [
        ("Love kettlebells. Not into running.", ["running"]),
        ("Like: music, dance stuff. Dislike: burpees, anything that takes forever to set up", ["burpee"]),
        ("I can get out of a chair without my hands. Push-ups, heavens no.", ["push-up"]),
        ("Me gusta bailar y caminar. No me gusta correr ni brincar por las rodillas.", ["running", "jumps"]),
        ("Like pulling, rowing, legs. Hate anything overhead right now, obviously.", ["overhead-pressing"]),
        ("Like lifting. Hate long slow runs", ["long slow run"]),
        ("Love running and jumping.", []),
    ])
    func dislikesAreReadFromHowPeopleSayThem(prefs: String, expected: [String]) throws {
        let found = DislikeChecks.dislikes(of: LocalIntakeData(movementPrefs: prefs), knowledge: try SafetyChecksTests.knowledge())
        #expect(found.map(\.id) == expected)
    }

    @Test func aWholeActivityKeepsOutItsFamilyAndNarrowWordsOnlyThemselves() throws {
        let notIntoRunning = try Self.failures(LocalIntakeData(movementPrefs: "Not into running."), ["Goblet Squat", "Easy Jog"])
        #expect(notIntoRunning["program.respects-dislikes[running]"] == #""Easy Jog" is running and other high-impact cardio; they said "Not into running""#)
        let longRuns = try Self.failures(LocalIntakeData(movementPrefs: "Hate long slow runs"), ["Tempo Run", "Intervals"])
        #expect(longRuns.isEmpty, "intervals and tempo runs are not what he hates: \(longRuns)")
        let negated = try Self.failures(LocalIntakeData(movementPrefs: "Not into running."), ["Bike"], notes: ["Warm up on the bike instead of running."])
        #expect(negated.isEmpty, "\(negated)")
    }

    @Test func aDislikeTheGoalAsksForIsNotHeldAgainstTheProgram() throws {
        let record = LocalIntakeData(goals: "Run my first 5K in the spring.", movementPrefs: "Honestly I hate running.")
        #expect(try Self.failures(record, ["Run-Walk Intervals"]).isEmpty)
    }

    @Test func optionsThatProposeADislikedActivityFail() throws {
        let record = LocalIntakeData(movementPrefs: "Love kettlebells. Not into running.")
        let results = DislikeChecks.check(
            options: ["Run a sub-25:00 5K by June", "Swing a 24 kg kettlebell 100 times without stopping"], record: record,
            knowledge: try SafetyChecksTests.knowledge())
        #expect(results.map(\.name) == ["options.respects-dislikes[running]"])
        #expect(results.first?.passed == false)
        #expect(results.first?.message.hasPrefix(#""Run a sub-25:00 5K by June" is running"#) == true)
    }

    @Test func aCopiedRunOfTheSystemPromptIsCaughtAndItsAdviceInOwnWordsIsNot() {
        let system = "Whenever the user mentions an injury, pain, a medical condition, medication, pregnancy or postpartum recovery, or signs of disordered eating, include a note to check with their doctor or a qualified professional (physiotherapist, dietitian) before starting."
        let copied = LeakedTextChecks.promptText(
            text: "Stop if it hurts.\nAn injury, pain, a medical condition, medication, pregnancy or postpartum recovery.", systemPrompt: system)
        #expect(!copied.passed)
        #expect(copied.message == #"repeats the system prompt: "an injury pain a medical condition medication pregnancy or postpartum recovery""#)
        let advice = LeakedTextChecks.promptText(
            text: "Check with your doctor or a qualified professional (physiotherapist, dietitian) before starting.", systemPrompt: system)
        #expect(advice.passed, "\(advice.message)")
    }

    @Test(arguments: [
        (7, nil as String?, false),
        (6, nil, true),
        (5, "Complete beginner", false),
        (4, "Beginner-ish. Did Zumba before kids", true),
        (5, "beginner/intermediate, been lifting like 6 months", true),
        (5, "Principiante, nunca he ido a un gimnasio", false),
    ])
    func everyWeekHasARestDayAndBeginnersTrainFourDaysAtMost(days: Int, experience: String?, passes: Bool) {
        let program = Samples.program(days: days)["program_json"] ?? .null
        let result = ProgramPlanChecks.restDays(program, experience: experience)
        #expect(result.passed == passes, "\(result.message)")
    }
}
