import Intake
import JSONSchema
import Testing

@testable import Checks

/// `program.progression-fits`: a program's phases against the person's experience and
/// the conditions whose strength is kept, not built.
@Suite("Progression checks")
struct ProgressionChecksTests {
    static func rules() throws -> AdviceRules.ProgressionFitRules {
        try #require(try AdviceAndTextChecksTests.rules().progressionFit)
    }

    static func program(_ focuses: [String]) -> JSONValue {
        ["progression": .array(focuses.enumerated().map { index, focus in ["weeks": .string("\(index * 4 + 1)-\(index * 4 + 4)"), "focus": .string(focus)] })]
    }

    static let beginnerStart = program(["Learn the movements with easy loads.", "Add a set each week.", "Work a little harder, with heavier loads."])
    static let lifterStart = program(["Work up to your top sets at RPE 7.", "Heavier triples at RPE 8.", "Peak: singles at RPE 9, then a meet."])

    @Test(arguments: [
        ("Advanced. 9 yrs lifting, 4 meets", true),
        ("Intermediate. Been training in the adaptive gym for 2 years", true),
        ("Lifting for 3 years, mostly barbell", true),
        ("Avanzado, 5 años entrenando en el gimnasio", true),
        ("Intermediate", false),
        ("Beginner. Lifted for 2 years in college", false),
        ("Advanced swimmer (D1 in college), beginner runner", false),
        ("Former college swimmer, did CrossFit for 2 years until the shoulder", false),
        ("beginner/intermediate, been lifting like 6 months", false),
        ("I walked with my church group for 10 years", false),
        ("Lifting for 1 year", false),
    ] as [(String, Bool)])
    func yearsOfTrainingAreReadFromTheirWords(text: String, experienced: Bool) throws {
        #expect((ProgressionChecks.experience(in: text, rules: try Self.rules()) != nil) == experienced, "\(text)")
    }

    @Test func someoneWhoHasTrainedForYearsIsNotToldToLearnTheMovements() throws {
        let record = LocalIntakeData(experienceLevel: "Advanced. 9 yrs lifting, 4 meets")
        let restarted = try #require(ProgressionChecks.level(program: Self.beginnerStart, record: record, rules: try Self.rules()))
        #expect(!restarted.passed)
        #expect(restarted.message.contains("weeks 1-4"))
        #expect(try #require(ProgressionChecks.level(program: Self.lifterStart, record: record, rules: try Self.rules())).passed)
        // A beginner's phases are theirs to learn in; nothing to judge.
        #expect(ProgressionChecks.level(program: Self.beginnerStart, record: LocalIntakeData(experienceLevel: "Complete beginner"), rules: try Self.rules()) == nil)
    }

    @Test func inPregnancyNoPhaseLoadsHeavierOrPeaks() throws {
        let rules = try Self.rules()
        let built = ProgressionChecks.keeping(program: Self.beginnerStart, conditions: ["pregnancy"], rules: rules)
        #expect(built.map(\.name) == ["program.progression-fits[pregnancy]"])
        #expect(built.first?.passed == false)
        let kept = ProgressionChecks.keeping(
            program: Self.program(["Learn the movements with easy loads.", "Keep the same loads; add a set if you feel good.", "A lighter week."]),
            conditions: ["pregnancy"], rules: rules)
        #expect(kept.first?.passed == true)
        // Building is right for someone with no such condition, and for a condition that does not keep strength.
        #expect(ProgressionChecks.keeping(program: Self.beginnerStart, conditions: [], rules: rules).isEmpty)
        #expect(ProgressionChecks.keeping(program: Self.beginnerStart, conditions: ["hypertension"], rules: rules).isEmpty)
    }
}
