import Foundation
import Intake
import JSONSchema
@testable import Pipeline
import Testing

/// The bounds are read from each person's own answers (the values below are read
/// off the fixtures' intake text by hand), never from a scenario.
@Suite("Program schemas fitted to the intake")
struct IntakeLimitsTests {
    static func rules() throws -> IntakeLimitRules {
        try #require(try IntakeLimitRules.load(layout: Repository.layout))
    }

    static func limits(_ fixture: String) throws -> IntakeLimits {
        try rules().limits(for: Repository.fixture(fixture).record)
    }

    @Test func daysComeFromTheLargestNumberOfDaysTheFrequencyNames() throws {
        let rules = try Self.rules()
        let cases: [(String, Int?)] = [
            ("3 days max", 3), ("3-4 days a week", 4), ("5-6 days, I'm super motivated", 6), ("3x a week at lunch", 3),
            ("for days a week maybe three", 3), ("Every day. Twice on days I eat more", 7), ("3 días", 3), ("dos o tres días", 3),
            ("5 days: 4 runs + 1 strength", 5), ("whenever", nil),
        ]
        for (text, days) in cases { #expect(rules.days(text) == days, "\(text)") }
    }

    @Test func equipmentComesFromWhatTheEnvironmentNamesAndNotWhatItRulesOut() throws {
        #expect(try Self.limits("busy-parent").equipment == [.bodyweight, .mat, .dumbbell])
        #expect(try Self.limits("home-no-equipment").equipment == [.bodyweight], "\"no equipment, not even a mat\"")
        #expect(try Self.limits("hostile-fake-closing-tag").equipment == [.bodyweight, .mat, .kettlebell])
        #expect(try Self.limits("spanish-speaker").equipment == [.bodyweight, .mat, .resistanceBand], "ligas, tapete")
        #expect(try Self.limits("senior-arthritis").equipment == [.bodyweight, .resistanceBand, .dumbbell, .pool])
        #expect(try !(Self.limits("total-beginner").equipment ?? []).contains(.barbell), "\"I'm not going over there\"")
        #expect(try Self.limits("contradictory").equipment == nil, "a gym that has everything")
        #expect(try Self.limits("knee-injury").equipment == nil, "a gym named without a list")
        #expect(try Self.limits("minimal-record") == IntakeLimits())
    }

    @Test func minutesComeFromThePersonsOwnAnswerBeforeAnythingPastedIntoCoachingStyle() throws {
        #expect(try Self.limits("busy-parent").sessionMinutes == 25, "20-25 minutes")
        #expect(try Self.limits("home-no-equipment").sessionMinutes == 30)
        #expect(try Self.limits("hostile-ignore-instructions").sessionMinutes == 45, "not the \"3 hours a day\" in coachingStyle")
        #expect(try Self.limits("hostile-fake-closing-tag").sessionMinutes == 45)
    }

    @Test func theLimitsReachTheProgramPromptsAsWordsAndAreLeftOutWhenTheAnswersSetNone() throws {
        let prompts = try Repository.prompts()
        for step in [PipelineStep.programDraft, .programEdit] {
            let busy = try prompts.render(step, input: FixturePlan.placeholderInput(for: step, fixture: Repository.fixture("busy-parent"))).user
            #expect(busy.contains("at most 3 days a week"), "\(step)")
            #expect(busy.contains("at most 25 minutes"), "\(step)")
            #expect(busy.contains("The equipment they have: bodyweight, mat, dumbbell."), "\(step)")
            let minimal = try prompts.render(step, input: FixturePlan.placeholderInput(for: step, fixture: Repository.fixture("minimal-record"))).user
            #expect(!minimal.contains("They can train at most"), "no frequency answered: \(step)")
            #expect(!minimal.contains("A session takes at most"), "no time answered: \(step)")
            #expect(!minimal.contains("The equipment they have"), "no environment answered: \(step)")
        }
    }

    @Test func theLimitsAreTemplateVariablesOnlyWhereTheAnswersSetThem() {
        let limits = IntakeLimits(days: 4, equipment: [.bodyweight, .resistanceBand], sessionMinutes: nil)
        #expect(limits.templateVariables == ["available_days": "4", "available_equipment": "bodyweight, resistance-band"])
        #expect(IntakeLimits().templateVariables.isEmpty)
        // The time as sets: a 5-minute warm-up, then about a minute and a half a set.
        #expect(IntakeLimits(sessionMinutes: 25).templateVariables == ["available_minutes": "25", "available_sets": "13"])
        #expect(IntakeLimits(sessionMinutes: 60).templateVariables["available_sets"] == "36")
        #expect(IntakeLimits(sessionMinutes: 5).templateVariables["available_sets"] == "3", "never fewer than 3")
    }

    @Test func theProgramSchemaCarriesTheBoundsAndStillValidatesAProgramWithinThem() throws {
        let prompts = try Repository.prompts()
        let limits = IntakeLimits(days: 3, equipment: [.bodyweight, .mat, .dumbbell], sessionMinutes: 25)
        let fitted = limits.narrowing(prompts[.programDraft].replySchemaDocument)
        #expect(fitted["$defs"]?["program"]?["properties"]?["days_per_week"]?["maximum"] == .number(3))
        #expect(fitted["$defs"]?["program"]?["properties"]?["sessions"]?["maxItems"] == .number(3))
        #expect(fitted["$defs"]?["session"]?["properties"]?["minutes"]?["maximum"] == .number(25))
        #expect(fitted["$defs"]?["equipment"]?["enum"] == .array(["bodyweight", "mat", "dumbbell"].map(JSONValue.string)))
        #expect(
            fitted["$defs"]?["program"]?["properties"]?["equipment"]?["maxItems"] == .number(3),
            "unique items of 3 words are at most 3: a grammar cannot enforce uniqueItems, so a word repeated to the token limit is cut off here")
        let schema = try Schema(fitted)
        let sample = try JSONParser.parse(Array(Samples.program.utf8))
        #expect(schema.validate(sample).isValid, "2 days, 25 minutes, bodyweight, mat and dumbbells fit")
        let tooLong = try JSONParser.parse(Array(Samples.program.replacingOccurrences(of: "\"minutes\": 25", with: "\"minutes\": 40").utf8))
        #expect(!schema.validate(tooLong).isValid)
    }

    @Test func aProgramStepAsksForItsFittedSchemaOnlyWhenItsPromptSaysSo() throws {
        let project = try Repository.temporaryCopy(named: "limits")
        defer { try? FileManager.default.removeItem(at: project) }
        let layout = ProjectLayout(root: project)
        // Prompt set v3 fits the schema of the whole program it asks for; `unfitted` is v3 without that.
        let v3 = project.appendingPathComponent("prompts/program-draft/variants/v3")
        let variant = project.appendingPathComponent("prompts/program-draft/variants/unfitted")
        try FileManager.default.copyItem(at: v3, to: variant)
        let settings = try String(contentsOf: variant.appendingPathComponent("prompt.yaml"), encoding: .utf8)
        #expect(settings.contains("schema_from_intake: true\n"))
        try settings.replacingOccurrences(of: "schema_from_intake: true\n", with: "schema_from_intake: false\n")
            .write(to: variant.appendingPathComponent("prompt.yaml"), atomically: true, encoding: .utf8)
        let fixture = try FixtureCorpus(layout: layout).load("busy-parent")
        let input = try FixturePlan.placeholderInput(for: .programDraft, fixture: fixture)

        let unfitted = try PromptLibrary(layout: layout, variants: VariantSelection(steps: [.programDraft: "unfitted"]))
        #expect(unfitted.render(.programDraft, input: input).schema == unfitted[.programDraft].replySchemaDocument)
        let base = try PromptLibrary(layout: layout, variants: VariantSelection(steps: [.programDraft: "v3"]))
        let sent = base.render(.programDraft, input: input).schema
        #expect(sent["$defs"]?["program"]?["properties"]?["days_per_week"]?["maximum"] == .number(3))
        #expect(base[.programDraft].fingerprint != unfitted[.programDraft].fingerprint)

        let goalOptions = project.appendingPathComponent("prompts/goal-options/variants/fitted")
        try FileManager.default.createDirectory(at: goalOptions, withIntermediateDirectories: true)
        try "schema_from_intake: true\n".write(to: goalOptions.appendingPathComponent("prompt.yaml"), atomically: true, encoding: .utf8)
        #expect(throws: PromptLibraryError.self) {
            try PromptLibrary(layout: layout, variants: VariantSelection(steps: [.goalOptions: "fitted"]))
        }
    }
}
