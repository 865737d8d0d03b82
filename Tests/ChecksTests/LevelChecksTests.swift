import Intake
import JSONSchema
import Testing

@testable import Checks

/// `program.fits-level[push-up]`: a program's push-ups against the push-ups the person
/// says they can do, in their own words.
@Suite("Level checks")
struct LevelChecksTests {
    static func rules() throws -> AdviceRules.PushUpLevelRules {
        try #require(try AdviceAndTextChecksTests.rules().pushUpLevel)
    }

    static func program(_ names: [String]) -> JSONValue {
        ["sessions": [["name": "Day 1", "exercises": .array(names.map { Samples.exercise($0) })]]]
    }

    @Test(arguments: [
        ("Maybe 5 push-ups on my knees? I can walk 2 miles fine.", 0, 5),
        ("12 push-ups, 40 sec plank, 20 squats no problem", 12, 0),
        ("8 push-ups on my knees, 2 on my toes. Plank about 30 seconds.", 0, 8),
        ("Can walk forever. 3 push-ups from my knees, plank 30 sec", 0, 3),
        ("I can do 4 knee push-ups and 15 squats", 0, 4),
        ("Hago 20 flexiones seguidas", 20, 0),
        ("Hago 6 flexiones de rodillas", 0, 6),
    ] as [(String, Int, Int)])
    func theBaselineIsReadFromTheirWords(text: String, full: Int, knees: Int) throws {
        let baseline = try #require(LevelChecks.pushUpBaseline(in: text, rules: try Self.rules()))
        #expect(baseline == LevelChecks.PushUpBaseline(full: full, knees: knees), "\(text)")
    }

    @Test func noNumberedPushUpsNoBaseline() throws {
        #expect(LevelChecks.pushUpBaseline(in: "I can't do a push-up yet. Plank 20 seconds.", rules: try Self.rules()) == nil)
    }

    @Test func pushUpsFromTheKneesAreNotGivenFullOnes() throws {
        let record = LocalIntakeData(physicalBaseline: "Maybe 5 push-ups on my knees?")
        let tooHard = try #require(LevelChecks.pushUps(program: Self.program(["Push-up", "Goblet squat"]), record: record, injured: false, rules: try Self.rules()))
        #expect(!tooHard.passed)
        #expect(tooHard.message == "they do 5 push-ups from the knees, and the program asks for full or harder ones: \"Push-up\"")
        let suits = try #require(LevelChecks.pushUps(program: Self.program(["Incline push-up", "Knee push-up"]), record: record, injured: false, rules: try Self.rules()))
        #expect(suits.passed, "\(suits.message)")
        #expect(LevelChecks.pushUps(program: Self.program(["Decline push-up"]), record: record, injured: false, rules: try Self.rules())?.passed == false)
    }

    @Test func someonePastTheRegressionsGetsMoreThanThem() throws {
        let record = LocalIntakeData(physicalBaseline: "12 push-ups, 40 sec plank")
        let tooEasy = try #require(LevelChecks.pushUps(program: Self.program(["Wall push-up", "Knee push-up"]), record: record, injured: false, rules: try Self.rules()))
        #expect(!tooEasy.passed)
        #expect(tooEasy.message == "they already do 12 full push-ups, and the program's are only easier variants: \"Knee push-up\", \"Wall push-up\"")
        #expect(LevelChecks.pushUps(program: Self.program(["Feet-elevated push-up", "Knee push-up"]), record: record, injured: false, rules: try Self.rules())?.passed == true)
        // Between the two, either could suit: nothing to judge.
        #expect(LevelChecks.pushUps(program: Self.program(["Wall push-up"]), record: LocalIntakeData(physicalBaseline: "4 push-ups"), injured: false, rules: try Self.rules()) == nil)
        #expect(LevelChecks.pushUps(program: Self.program(["Goblet squat"]), record: record, injured: false, rules: try Self.rules()) == nil, "no push-ups in the program")
        #expect(LevelChecks.pushUps(program: Self.program(["Incline push-up"]), record: record, injured: true, rules: try Self.rules()) == nil,
                "an injury may be why a coach chose the easier one")
    }
}
