import Foundation
import TestSupport
import Testing

/// `run` warns, once per run and once per schema file, about the keywords of the real
/// step schemas that the chosen provider's structured output cannot enforce.
@Suite("trainer-eval run schema warnings", .serialized)
struct SchemaWarningTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let label: String
        let arguments: [String]
        let environment: [String: String]
        /// Keywords named for goal-options-v3.schema.json (the schema of the one step
        /// these runs reach); nil when none. The program steps' warnings are in
        /// `SchemaWarningsTests` (PipelineTests).
        let goalOptions: String?
        let answer: @Sendable () -> String
        var testDescription: String { label }
    }

    static let options = RunCommandTests.options

    static let cases: [Case] = [
        Case(label: "local (json-object-schema)", arguments: ["--provider", "local"], environment: [:],
             goalOptions: nil,
             answer: { RunCommandTests.completion(options) }),
        Case(label: "openai-compatible (json-object-schema)",
             arguments: ["--provider", "openai-compatible", "--structured-output", "json-object-schema"], environment: [:],
             goalOptions: nil,
             answer: { RunCommandTests.completion(options) }),
        Case(label: "openai-compatible (json-schema)", arguments: ["--provider", "openai-compatible"], environment: [:],
             goalOptions: "maxLength, minLength",
             answer: { RunCommandTests.completion(options) }),
        Case(label: "anthropic", arguments: ["--provider", "anthropic"], environment: ["ANTHROPIC_API_KEY": "test-key"],
             goalOptions: "maxItems, maxLength, minItems, minLength",
             answer: {
                 #"{"type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": [{"type": "tool_use", "id": "toolu_1", "name": "goal_options", "input": "#
                     + options + #"}], "stop_reason": "tool_use", "usage": {"input_tokens": 900, "output_tokens": 120}}"#
             }),
        Case(label: "gemini", arguments: ["--provider", "gemini"], environment: ["GEMINI_API_KEY": "test-key"],
             goalOptions: "maxLength, minLength, pattern",
             answer: {
                 let text = String(decoding: try! JSONEncoder().encode(options), as: UTF8.self)
                 return #"{"candidates": [{"content": {"parts": [{"text": "# + text
                     + #"}], "role": "model"}, "finishReason": "STOP"}], "usageMetadata": {"promptTokenCount": 900, "candidatesTokenCount": 120}, "modelVersion": "gemini-2.5-flash"}"#
             }),
        Case(label: "openai-compatible (json-object)",
             arguments: ["--provider", "openai-compatible", "--structured-output", "json-object"], environment: [:],
             goalOptions: nil, answer: { RunCommandTests.completion(options) }),
    ]

    @Test("each provider warns once about exactly what it cannot enforce", arguments: cases)
    func warnsOnce(_ example: Case) throws {
        let project = try RunCommandTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let server = try LoopbackServer(answering: .json(example.answer()))
        defer { server.stop() }
        let base = example.label == "anthropic" ? server.baseURL : server.url(example.label == "gemini" ? "/v1beta" : "/v1")
        let outcome = try CommandRunner.run(
            ["run", "--project", project.path] + example.arguments
                + ["--base-url", base.absoluteString, "--fixture", "minimal-record", "--until", "goal-options", "--repeat", "2"],
            environment: example.environment)
        #expect(outcome.standardOutput.contains("Report: "), "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(server.requestCount == 2, "both repeats ran")
        #expect(outcome.standardError.contains("✓ minimal-record goal-options"), "the provider's reply was used")

        let lines = outcome.standardError.split(separator: "\n").map(String.init)
        let warnings = lines.filter { $0.hasPrefix("warning: prompts/schemas/") }
        // The run stops after goal options: the program schemas are not its concern.
        let expected = [("goal-options-v3", example.goalOptions)].compactMap { name, keywords in keywords.map { (name, $0) } }
        #expect(!lines.contains { $0.contains("program-v5.schema.json") || $0.contains("program-edit-v5.schema.json") }, "\(lines)")
        #expect(warnings.count == expected.count, "\(warnings)")
        for (name, keywords) in expected {
            let matching = warnings.filter { $0.hasPrefix("warning: prompts/schemas/\(name).schema.json: \(example.label) cannot enforce ") }
            #expect(matching.count == 1, "one warning for \(name): \(warnings)")
            #expect(matching.first?.contains("(\(keywords)); ") == true, "\(matching)")
            #expect(matching.first?.contains("checked after the reply instead. First: /") == true, "\(matching)")
        }

        // The report carries the same warnings, once each.
        let results = try JSONSerialization.jsonObject(
            with: Data(contentsOf: project.appendingPathComponent("Reports/latest/results.json"))) as? [String: Any]
        let reported = (results?["run"] as? [String: Any])?["warnings"] as? [String]
        #expect(reported?.map { "warning: " + $0 } == warnings)
    }

    @Test func replayNeverWarns() throws {
        let project = try RunCommandTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let outcome = try CommandRunner.run(["run", "--project", project.path, "--fixture", "minimal-record", "--until", "goal-options"])
        #expect(outcome.standardOutput.contains("Report: "))
        #expect(!outcome.standardError.contains("warning: prompts/schemas/"))
    }
}
