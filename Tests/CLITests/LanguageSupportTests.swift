import Foundation
import TestSupport
import Testing

/// A person written in a language the coaching data does not cover is said out loud:
/// a warning from `fixtures check`, and an entry under needs-attention in a run.
@Suite("Unsupported languages", .serialized)
struct LanguageSupportTests {
    static let record = """
        {"name": "Ana", "age": 34, "gender": "Feminino",
         "goals": "Quero ter mais energia e voltar a correr. Quero correr 5 km em dez semanas com o meu marido.",
         "frequency": "3 dias por semana", "environment": "Em casa, com um tapete e dois halteres de 5 kg.",
         "movementPrefs": "Gosto de correr e de dançar. Não gosto de burpees.",
         "anythingElse": "Tenho 30 minutos por dia, depois do trabalho, para treinar."}
        """
    static let scenario = """
        summary: "Ana: every answer in Portuguese; a 5 km run in ten weeks, 30 minutes at home."
        option_edits: []
        confirm:
          position: 1
        program_edit:
          feedback: "Pode tirar os halteres? Quero só o peso do corpo."
        expect:
          max_days_per_week: 3
          max_session_minutes: 30
          equipment: [bodyweight, mat, dumbbell]
        """

    /// The real prompts with busy-parent (English) and Ana (Portuguese).
    static func makeProject() throws -> URL {
        let project = try RunCommandTests.makeProject()
        try Self.record.write(to: project.appendingPathComponent("fixtures/portuguese-speaker.json"), atomically: true, encoding: .utf8)
        try Self.scenario.write(to: project.appendingPathComponent("fixtures/portuguese-speaker.yaml"), atomically: true, encoding: .utf8)
        return project
    }

    @Test func fixturesCheckWarnsAboutAnUncoveredLanguageAndStillPasses() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let outcome = try CommandRunner.run(["fixtures", "check", "--project", project.path])
        #expect(outcome.status == 0, "a warning, not a problem: \(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains(
            "warning: fixtures/portuguese-speaker.json: written in Portuguese (pt), which the coaching data (prompts/coaching/) does not cover"),
            "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("the referral is the English one, marked untranslated"))
        #expect(!outcome.standardOutput.contains("busy-parent.json: written"), "English is covered")
        #expect(outcome.standardOutput.contains("all valid, 1 in a language the coaching data does not cover."))

        // A language the coaching data covers is not warned about: Spanish has its referral and catalogue names.
        let spanish = try CommandRunner.run(["fixtures", "check", CommandRunner.repositoryRoot.appendingPathComponent("fixtures/spanish-speaker.json").path])
        #expect(spanish.status == 0)
        #expect(!spanish.standardOutput.contains("warning"), "\(spanish.standardOutput)")
    }

    @Test func aRunListsThePersonUnderNeedsAttention() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let server = try LoopbackServer(answering: .json(RunCommandTests.completion(RunCommandTests.options)))
        defer { server.stop() }
        let run = try CommandRunner.run(
            ["run", "--project", project.path, "--provider", "openai-compatible", "--base-url", server.url("/v1").absoluteString,
             "--until", "goal-options"])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        #expect(run.standardOutput.contains("attention portuguese-speaker: written in Portuguese (pt)"), "\(run.standardOutput)")
        #expect(!run.standardOutput.contains("attention busy-parent"))

        let reports = project.appendingPathComponent("Reports/latest")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: reports.appendingPathComponent("results.json"))) as? [String: Any])
        let gaps = try #require(results["languageGaps"] as? [[String: Any]])
        #expect(gaps.map { $0["fixture"] as? String } == ["portuguese-speaker"])
        #expect(gaps.first?["language"] as? String == "pt")
        let markdown = try String(contentsOf: reports.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("### Needs attention"))
        #expect(markdown.contains("- **language** `portuguese-speaker`: written in Portuguese (pt)"), "\(markdown)")
        let html = try String(contentsOf: reports.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(html.contains("<a href=\"#portuguese-speaker/goal-options\">portuguese-speaker</a> written in Portuguese (pt)"))
        let schema = CommandRunner.repositoryRoot.appendingPathComponent("Reports/schema/results.schema.json").path
        let valid = try CommandRunner.run(["validate", "--schema", schema, reports.appendingPathComponent("results.json").path])
        #expect(valid.status == 0, "\(valid.standardOutput)")
    }
}
