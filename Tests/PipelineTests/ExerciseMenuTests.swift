import Checks
import Foundation
import Intake
import JSONSchema
import Pipeline
import Testing

/// The exercise menu a program step's request shows (`exercise_menu`): only exercises
/// the person's equipment allows and that the checks accept for their health and dislikes.
struct ExerciseMenuTests {
    /// A program of every exercise on `fixture`'s menu, one session a group.
    static func menuProgram(_ menu: [CoachingKnowledge.MenuGroup], equipment: [Equipment]) -> JSONValue {
        let sessions: [JSONValue] = menu.enumerated().map { index, group in
            ["day": .number(Double(index + 1)), "name": "Menu", "minutes": 30,
             "exercises": .array(group.exercises.map { ["name": .string($0), "sets": 2, "reps": "10", "rest_seconds": 60, "notes": ""] })]
        }
        return ["program_json": [
            "title": "Menu", "goal": "Menu", "duration_weeks": 8, "days_per_week": .number(Double(sessions.count)), "session_minutes": 30,
            "equipment": .array(equipment.map { .string($0.rawValue) }), "sessions": .array(sessions),
            "progression": [["weeks": "1-8", "focus": "Learn the moves"]], "safety_notes": ["Stop if anything hurts."],
        ]]
    }

    @Test(arguments: try FixtureCorpus(layout: Repository.layout).fixtureNames())
    func everyExerciseOnAMenuPassesTheChecksForThatPerson(fixture name: String) throws {
        let prompts = try Repository.prompts()
        let fixture = try Repository.fixture(name)
        let equipment = prompts.intakeLimits?.limits(for: fixture.record).equipment
        let menu = prompts.coaching.exerciseMenu(for: fixture.record, equipment: equipment)
        #expect(!menu.isEmpty, "\(name): the library has something for everyone")
        let listed = equipment ?? Array(Set(prompts.coaching.exerciseGroups.flatMap { $0.exercises.flatMap(\.needs) } + [.bodyweight]))
        let context = DomainChecks.Context(fixture: fixture, knowledge: prompts.coaching)
        let program = Self.menuProgram(menu, equipment: listed)
        let results = DomainChecks.check(.programDraft, output: program, context: context)
        for result in results where ["program.safe-for[", "program.respects-dislikes[", "program.equipment"].contains(where: result.name.hasPrefix) {
            #expect(result.passed, "\(name): \(result.name): \(result.message)")
        }
    }

    @Test func theMenuLeavesOutWhatAConditionKeepsOutAndWhatTheEquipmentLacks() throws {
        let prompts = try Repository.prompts()
        func menu(_ fixture: String) throws -> [String] {
            let record = try Repository.fixture(fixture).record
            return prompts.coaching.exerciseMenu(for: record, equipment: prompts.intakeLimits?.limits(for: record).equipment).flatMap(\.exercises)
        }
        let knee = try menu("knee-injury")
        #expect(knee.contains("Chair squat") && !knee.contains("Goblet squat") && !knee.contains("Reverse lunge") && !knee.contains("Jumping jacks"))
        let seated = try menu("wheelchair-user")
        #expect(seated.contains("Seated band row") && !seated.contains("Glute bridge") && !seated.contains("Brisk walk") && !seated.contains("Plank"))
        let home = try menu("busy-parent")
        #expect(home.contains("Goblet squat") && !home.contains("Lat pulldown") && !home.contains("Barbell back squat"))
        #expect(home.first == "Goblet squat", "what uses their equipment comes first")
    }

    @Test func onlyATemplateThatShowsTheMenuReadsIt() throws {
        let fixture = try Repository.fixture("knee-injury")
        let input = try FixturePlan.placeholderInput(for: .programDraft, fixture: fixture)
        let v4 = try PromptLibrary(layout: Repository.layout, variants: VariantSelection(resolving: ["v4.4"], layout: Repository.layout))
        let user = v4.render(.programDraft, input: input).user
        #expect(user.contains("Exercises that suit their equipment and health, by what they train:\n- Legs and hips: Chair squat,"), "\(user)")
        #expect(!(try Repository.prompts().render(.programDraft, input: input).user.contains("Exercises that suit")))
    }
}
