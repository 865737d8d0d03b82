import Foundation
import Intake
import JSONSchema
import Pipeline
import Testing

@Suite("Program markdown rendered from the JSON")
struct ProgramMarkdownTests {
    @Test func theLayoutIsTheOneThePromptAsksFor() throws {
        let program = try #require(try JSONParser.parse(Array(Samples.program.utf8))["program_json"])
        let markdown = ProgramMarkdown.render(program, language: "en", firstName: "Sam")
        #expect(markdown == """
            # Evening Energy
            Sam, here is your plan.
            **Goal:** More energy: 3 short workouts a week
            **Plan:** 8 weeks · 2 days a week · up to 25 min
            **Equipment:** bodyweight, mat, dumbbells

            ---

            ## Day 1: Full body A (25 min)
            - **Goblet squat**: 3 × 10, rest 60 s.
            - **Glute bridge**: 3 × 12, rest 45 s.
            - **Plank**: 3 × 30 s, rest 45 s.

            ---

            ## Day 2: Full body B (25 min)
            - **Dumbbell row**: 3 × 10 each side, rest 60 s.
            - **Dead bug**: 3 × 8 each side, rest 45 s.
            - **Bird dog**: 3 × 8 each side, rest 45 s.

            ## Progression
            - **Weeks 1-4:** Learn the moves
            - **Weeks 5-8:** Add a set

            ## Safety notes
            - Warm up for 3 minutes.
            """)
        let spanish = ProgramMarkdown.render(program, language: "es", firstName: nil)
        #expect(spanish.contains("**Objetivo:** More energy"))
        #expect(spanish.contains("**Plan:** 8 semanas · 2 días por semana · hasta 25 min"))
        #expect(spanish.contains("**Material:** peso corporal, esterilla, mancuernas"))
        #expect(spanish.contains("## Día 1: Full body A (25 min)\n- **Goblet squat**: 3 × 10, descanso 60 s."))
        #expect(spanish.contains("## Notas de seguridad"))
        #expect(!spanish.contains("here is your plan"))
    }

    /// Rendered from any approved program, the markdown agrees with its JSON by the
    /// same check the gate runs, and is written in the person's language.
    @Test func everyApprovedProgramRendersToMarkdownThatAgreesWithItsJSON() throws {
        let prompts = try Repository.prompts()
        let golden = Repository.root.appendingPathComponent("golden")
        var rendered = 0
        for fixtureName in try FileManager.default.contentsOfDirectory(atPath: golden.path).sorted() {
            let file = golden.appendingPathComponent("\(fixtureName)/program-draft.json")
            guard let data = FileManager.default.contents(atPath: file.path),
                  let program = try JSONParser.parse(data)["program_json"] else { continue }
            let fixture = try Repository.fixture(fixtureName)
            let markdown = ProgramMarkdown.render(program, language: fixture.record.writtenLanguage, firstName: fixture.record.name)
            let output = JSONValue.object(JSONObject([
                .init(key: "program_json", value: program), .init(key: "program_markdown", value: .string(markdown)),
            ]))
            let check = try OutputCheck(output, step: .programDraft, fixture: fixture, prompts: prompts)
            let agrees = check.items.first { $0.name == "program.markdown-agrees" }
            #expect(agrees?.passed == true, "\(fixtureName): \(agrees?.message ?? "not run")")
            if fixture.record.writtenLanguage == "es" { #expect(markdown.contains("**Objetivo:**"), "\(fixtureName)") }
            rendered += 1
        }
        #expect(rendered >= 20)
    }
}
