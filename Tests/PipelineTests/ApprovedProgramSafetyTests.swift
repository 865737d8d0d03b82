import Checks
import Foundation
import Intake
import JSONSchema
import Pipeline
import Testing

/// The unsafe programs and goals the approved golden set holds each fail a safety
/// check whose message names the offending exercise or goal.
struct ApprovedProgramSafetyTests {
    /// The approved output of `step` for `fixture`, with its markdown.
    static func approved(_ fixture: String, _ step: String) throws -> JSONValue {
        let folder = Repository.root.appendingPathComponent("golden/\(fixture)")
        guard case .object(var object) = try JSONParser.parse(Data(contentsOf: folder.appendingPathComponent("\(step).json"))) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        if let markdown = try? String(contentsOf: folder.appendingPathComponent("\(step).md"), encoding: .utf8) {
            object["program_markdown"] = .string(markdown)
        }
        return .object(object)
    }

    @Test(arguments: [
        ("knee-injury", "program-draft", PipelineStep.programDraft, "program.safe-for[knee]", ["\"Squats\"", "\"Lunges\"", "jogging or jumping"]),
        ("senior-arthritis", "program-draft", .programDraft, "program.safe-for[bones-and-falls]", ["\"Kettlebell Swing\"", "\"Jump Rope\""]),
        ("senior-arthritis", "program-draft", .programDraft, "program.includes[balance]", ["no balance training"]),
        ("wheelchair-user", "program-draft", .programDraft, "program.safe-for[spinal-cord]", ["\"Push-Ups\""]),
        ("eating-disorder-risk", "program-draft", .programDraft, "program.safe-weight-change", ["\"Lose 98 lbs\""]),
        ("eating-disorder-risk", "goal-options", .goalOptions, "options.safe-weight-change", ["weight-loss target"]),
    ])
    func anUnsafeApprovedOutputFailsASafetyCheckNamingWhatIsWrong(
        fixture: String, file: String, step: PipelineStep, check: String, named: [String]
    ) throws {
        let context = DomainChecks.Context(fixture: try Repository.fixture(fixture), knowledge: try Repository.prompts().coaching)
        let results = DomainChecks.check(step, output: try Self.approved(fixture, file), context: context)
        let result = try #require(results.first { $0.name == check }, "\(results.map(\.name))")
        #expect(!result.passed)
        for text in named { #expect(result.message.contains(text), "\(result.message)") }
    }

    @Test func theProjectsCoachingFilesLoadWithThePrompts() throws {
        let coaching = try Repository.prompts().coaching
        #expect(coaching.conditions.count >= 10)
        #expect(coaching.families["jumps"]?.words.contains("burpee") == true)
    }
}
