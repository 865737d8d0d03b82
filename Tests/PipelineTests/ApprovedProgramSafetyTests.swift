import Checks
import Foundation
import Intake
import JSONSchema
import Pipeline
import Testing

/// The unsafe programs and goals the approved golden sets of prompt sets v2 and v3
/// (kept as variants) hold each fail a safety check whose message names the offending
/// exercise or goal; the base's programs (prompt set v5's program steps) pass the same checks.
struct ApprovedProgramSafetyTests {
    static let base = "golden"
    static let setV3 = "golden/variants/goal-options=v5+goal-options-edit=v5+program-draft=v3+program-edit=v3"
    static let setV2 = "golden/variants/goal-options=v2+goal-options-edit=v2+program-draft=v2+program-edit=v2"

    /// The approved output of `step` for `fixture` in the golden folder `set`, with its markdown.
    static func approved(_ fixture: String, _ step: String, in set: String) throws -> JSONValue {
        let folder = Repository.root.appendingPathComponent("\(set)/\(fixture)")
        guard case .object(var object) = try JSONParser.parse(Data(contentsOf: folder.appendingPathComponent("\(step).json"))) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        if let markdown = try? String(contentsOf: folder.appendingPathComponent("\(step).md"), encoding: .utf8) {
            object["program_markdown"] = .string(markdown)
        }
        return .object(object)
    }

    @Test(arguments: [
        (setV2, "knee-injury", "program-draft", PipelineStep.programDraft, "program.safe-for[knee]", ["\"Squats\"", "\"Lunges\"", "jogging or jumping"]),
        (setV2, "senior-arthritis", "program-draft", .programDraft, "program.safe-for[bones-and-falls]", ["\"Kettlebell Swing\"", "\"Jump Rope\""]),
        (setV2, "senior-arthritis", "program-draft", .programDraft, "program.includes[balance]", ["no balance training"]),
        (setV2, "wheelchair-user", "program-draft", .programDraft, "program.safe-for[spinal-cord]", ["\"Push-Ups\""]),
        (setV2, "eating-disorder-risk", "program-draft", .programDraft, "program.safe-weight-change", ["\"Lose 98 lbs\""]),
        (setV2, "eating-disorder-risk", "goal-options", .goalOptions, "options.safe-weight-change", ["weight-loss target"]),
        (setV3, "knee-injury", "program-draft", .programDraft, "program.safe-for[knee]", ["\"Leg Press\"", "\"Jumping Jacks\""]),
        (setV3, "senior-arthritis", "program-draft", .programDraft, "program.safe-for[bones-and-falls]", ["\"Sit-Ups\"", "\"Crunches\""]),
        (setV3, "senior-arthritis", "program-draft", .programDraft, "program.includes[balance]", ["no balance training"]),
        (setV3, "wheelchair-user", "program-draft", .programDraft, "program.safe-for[spinal-cord]", ["cycling or walking", "in a warm-up"]),
    ])
    func anUnsafeApprovedOutputFailsASafetyCheckNamingWhatIsWrong(
        set: String, fixture: String, file: String, step: PipelineStep, check: String, named: [String]
    ) throws {
        let context = DomainChecks.Context(fixture: try Repository.fixture(fixture), knowledge: try Repository.prompts().coaching)
        let results = DomainChecks.check(step, output: try Self.approved(fixture, file, in: set), context: context)
        let result = try #require(results.first { $0.name == check }, "\(results.map(\.name))")
        #expect(!result.passed)
        for text in named { #expect(result.message.contains(text), "\(result.message)") }
    }

    @Test(arguments: [
        ("knee-injury", "program.safe-for[knee]"), ("senior-arthritis", "program.safe-for[bones-and-falls]"),
        ("senior-arthritis", "program.includes[balance]"), ("wheelchair-user", "program.safe-for[spinal-cord]"),
    ])
    func theBasesApprovedProgramsPassTheChecksTheEarlierSetsFailed(fixture: String, check: String) throws {
        let context = DomainChecks.Context(fixture: try Repository.fixture(fixture), knowledge: try Repository.prompts().coaching)
        for step in [PipelineStep.programDraft, .programEdit] {
            let results = DomainChecks.check(step, output: try Self.approved(fixture, step.rawValue, in: Self.base), context: context)
            let result = try #require(results.first { $0.name == check }, "\(results.map(\.name))")
            #expect(result.passed, "\(fixture) \(step.rawValue): \(result.message)")
        }
    }

    @Test func theProjectsCoachingFilesLoadWithThePrompts() throws {
        let coaching = try Repository.prompts().coaching
        #expect(coaching.conditions.count >= 10)
        #expect(coaching.families["jumps"]?.words.contains("burpee") == true)
    }
}
