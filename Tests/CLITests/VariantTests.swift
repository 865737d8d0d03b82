import Foundation
import TestSupport
import Testing

@Suite("Prompt variants", .serialized)
struct VariantTests {
    static let terseRule = "Keep every summary to six words or fewer."
    static let terseOptions = #"{"options": [{"id": "move-3x-week", "summary": "Move three times weekly", "detail": "Short sessions."}, {"id": "walk-8k-steps", "summary": "Walk 8,000 daily steps", "detail": "Add 500 a week."}, {"id": "first-push-up", "summary": "Five push-ups by spring", "detail": "Start on the knees."}]}"#

    /// A project whose goal-options step has the variant `terse` (its own system message,
    /// nothing else) and no other variant.
    static func makeProject() throws -> URL {
        let project = try RunCommandTests.makeProject()
        for step in ["goal-options", "goal-options-edit", "program-draft", "program-edit"] {
            try? FileManager.default.removeItem(at: project.appendingPathComponent("prompts/\(step)/variants"))
        }
        let base = try String(contentsOf: project.appendingPathComponent("prompts/goal-options/system.md"), encoding: .utf8)
        let variant = project.appendingPathComponent("prompts/goal-options/variants/terse")
        try FileManager.default.createDirectory(at: variant, withIntermediateDirectories: true)
        try (base + "\n\n" + terseRule + "\n").write(to: variant.appendingPathComponent("system.md"), atomically: true, encoding: .utf8)
        return project
    }

    /// A server that answers the variant's requests with shorter summaries than the base's.
    static func server() throws -> LoopbackServer {
        try LoopbackServer { request in
            let isTerse = String(decoding: request.body, as: UTF8.self).contains(terseRule)
            return .json(RunCommandTests.completion(isTerse ? terseOptions : RunCommandTests.options))
        }
    }

    @Test func aVariantRunsRecordsReplaysOfflineAndIsPromoted() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let server = try Self.server()
        defer { server.stop() }
        let scope = ["--project", project.path, "--fixture", "minimal-record", "--until", "goal-options"]
        let live = ["--provider", "openai-compatible", "--base-url", server.url("/v1").absoluteString, "--record"]
        let golden = project.appendingPathComponent("golden")
        let baseCassette = golden.appendingPathComponent("minimal-record/goal-options.cassette.json")
        let variantCassette = golden.appendingPathComponent("variants/goal-options=terse/minimal-record/goal-options.cassette.json")

        // The base and the variant each record and are approved, in their own folders.
        #expect(try CommandRunner.run(["run"] + scope + live).status == 0)
        #expect(try CommandRunner.run(["accept", "--project", project.path]).status == 0)
        let baseRecording = try Data(contentsOf: baseCassette)
        let recorded = try CommandRunner.run(["run", "--variant", "terse"] + scope + live)
        #expect(recorded.status == 0, "\(recorded.standardOutput)\(recorded.standardError)")
        #expect(recorded.standardOutput.contains("new minimal-record/goal-options"))
        #expect(try Data(contentsOf: baseCassette) == baseRecording, "the variant never writes the base's recording")
        #expect(FileManager.default.fileExists(atPath: variantCassette.path))
        let pending = try CommandRunner.run(["pending", "--variant", "terse", "--project", project.path])
        #expect(pending.standardOutput.contains("new minimal-record/goal-options"), "\(pending.standardOutput)")
        #expect(try CommandRunner.run(["accept", "--variant", "terse", "--project", project.path]).status == 0)
        #expect(server.requestCount == 2)

        // Both replay offline; the report says which variant ran.
        let variantGate = try CommandRunner.run(["run", "--ci", "--variant", "goal-options=terse"] + scope)
        #expect(variantGate.status == 0, "\(variantGate.standardOutput)\(variantGate.standardError)")
        #expect(variantGate.standardOutput.contains("golden: matches 1"))
        let results = try JSONSerialization.jsonObject(
            with: Data(contentsOf: project.appendingPathComponent("Reports/latest/results.json"))) as? [String: Any]
        let prompts = (results?["run"] as? [String: Any])?["prompts"] as? [String: [String: Any]]
        #expect(prompts?["goal-options"]?["variant"] as? String == "terse")
        #expect(prompts?["program-draft"]?["variant"] == nil)
        let markdown = try String(contentsOf: project.appendingPathComponent("Reports/latest/report.md"), encoding: .utf8)
        #expect(markdown.contains("goal-options v2 variant terse"))
        let html = try String(contentsOf: project.appendingPathComponent("Reports/latest/index.html"), encoding: .utf8)
        #expect(html.contains("goal-options v2 variant terse"))
        let junit = try String(contentsOf: project.appendingPathComponent("Reports/latest/junit.xml"), encoding: .utf8)
        #expect(junit.contains("name=\"goal-options (variant terse)\""))
        let history = try CommandRunner.run(["history", "--limit", "2", "--project", project.path])
        #expect(history.standardOutput.contains("variants"), "\(history.standardOutput)")
        #expect(history.standardOutput.contains("goal-options=terse"))
        #expect(try CommandRunner.run(["run", "--ci"] + scope).status == 0)
        #expect(server.requestCount == 2, "replay never calls the model")

        // The base's recording does not answer the variant's request: it is stale, not reused.
        try FileManager.default.removeItem(at: variantCassette)
        try FileManager.default.copyItem(at: baseCassette, to: variantCassette)
        let crossed = try CommandRunner.run(["run", "--ci", "--variant", "terse"] + scope)
        #expect(crossed.status == 1)
        #expect(crossed.standardOutput.contains("stale"), "\(crossed.standardOutput)")
        #expect(crossed.standardOutput.contains("system prompt (prompts/goal-options/variants/terse/system.md) changed"), "names what differs: \(crossed.standardOutput)")
        #expect(crossed.standardOutput.contains("--record-missing --variant goal-options=terse`"), "the command reaches the variant's files")
        _ = try CommandRunner.run(["run", "--variant", "terse"] + scope + live)
        #expect(try CommandRunner.run(["run", "--ci", "--variant", "terse"] + scope).status == 0)

        // render shows the variant's messages.
        let rendered = try CommandRunner.run(["render", "--variant", "terse", "--project", project.path, "--fixture", "minimal-record", "--step", "goal-options"])
        #expect(rendered.standardOutput.contains(Self.terseRule))
        #expect(rendered.standardOutput.contains("goal-options v2 variant terse"))
        #expect(!(try CommandRunner.run(["render", "--project", project.path, "--fixture", "minimal-record", "--step", "goal-options"]).standardOutput.contains(Self.terseRule)))

        // Promoted, the variant is the base (version up) and replays offline at once; the old base stays a variant.
        let requestsBefore = server.requestCount
        let promote = try CommandRunner.run(["promote", "goal-options", "terse", "--keep-base-as", "v2", "--project", project.path])
        #expect(promote.status == 0, "\(promote.standardOutput)\(promote.standardError)")
        #expect(promote.standardOutput.contains("v2 → v3"))
        let system = try String(contentsOf: project.appendingPathComponent("prompts/goal-options/system.md"), encoding: .utf8)
        #expect(system.contains(Self.terseRule))
        let metadata = try String(contentsOf: project.appendingPathComponent("prompts/goal-options/prompt.yaml"), encoding: .utf8)
        #expect(metadata.contains("version: 3\n"))
        #expect(metadata.contains("# How outputs are compared with golden"), "comments survive")
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent("prompts/goal-options/variants/terse").path))
        let newBase = try CommandRunner.run(["run", "--ci"] + scope)
        #expect(newBase.status == 0, "\(newBase.standardOutput)\(newBase.standardError)")
        #expect(newBase.standardOutput.contains("golden: matches 1"))
        let oldBase = try CommandRunner.run(["run", "--ci", "--variant", "v2"] + scope)
        #expect(oldBase.status == 0, "\(oldBase.standardOutput)\(oldBase.standardError)")
        #expect(server.requestCount == requestsBefore)
        let oldSystem = try String(contentsOf: project.appendingPathComponent("prompts/goal-options/variants/v2/system.md"), encoding: .utf8)
        #expect(!oldSystem.contains(Self.terseRule))
    }

    @Test func aVariantNameThatDoesNotExistIsAUsageErrorNamingTheVariants() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let unknown = try CommandRunner.run(["run", "--variant", "trese", "--project", project.path])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("no step has a variant `trese`. Did you mean terse? Variants: goal-options: terse."), "\(unknown.standardError)")
        let wrongStep = try CommandRunner.run(["render", "--variant", "program-draft=terse", "--project", project.path, "--fixture", "minimal-record"])
        #expect(wrongStep.status == 2)
        #expect(wrongStep.standardError.contains("prompts/program-draft/variants/terse/ does not exist"), "\(wrongStep.standardError)")

        // A misspelt file in a variant folder would silently send the base prompt: it is refused.
        let variant = project.appendingPathComponent("prompts/goal-options/variants/terse")
        try FileManager.default.moveItem(at: variant.appendingPathComponent("system.md"), to: variant.appendingPathComponent("sytem.md"))
        let misspelt = try CommandRunner.run(["run", "--variant", "terse", "--project", project.path])
        #expect(misspelt.status == 2)
        #expect(misspelt.standardError.contains("prompts/goal-options/variants/terse/sytem.md: a variant folder may hold only"), "\(misspelt.standardError)")
        #expect(misspelt.standardError.contains("did you mean system.md?"))
    }

    @Test func aVariantsPromptYamlOverridesOnlyTheKeysItHolds() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let variant = project.appendingPathComponent("prompts/program-draft/variants/cool")
        try FileManager.default.createDirectory(at: variant, withIntermediateDirectories: true)
        try "temperature: 0\nmax_tokens: 1200\n".write(to: variant.appendingPathComponent("prompt.yaml"), atomically: true, encoding: .utf8)
        let rendered = try CommandRunner.run(["render", "--variant", "cool", "--project", project.path, "--fixture", "minimal-record", "--step", "program-draft"])
        #expect(rendered.status == 0, "\(rendered.standardError)")
        #expect(rendered.standardOutput.contains("program-draft v3 variant cool · temperature 0.0 · max_tokens 1200 · schema prompts/schemas/program.schema.json"), "\(rendered.standardOutput)")

        try "temperature: hot\n".write(to: variant.appendingPathComponent("prompt.yaml"), atomically: true, encoding: .utf8)
        let broken = try CommandRunner.run(["render", "--variant", "cool", "--project", project.path, "--fixture", "minimal-record", "--step", "program-draft"])
        #expect(broken.status == 2)
        #expect(broken.standardError.contains("prompts/program-draft/variants/cool/prompt.yaml:1:"), "the error names the variant's file: \(broken.standardError)")

        try "temperature: 0\n".write(to: variant.appendingPathComponent("prompt.yaml"), atomically: true, encoding: .utf8)
        let promote = try CommandRunner.run(["promote", "program-draft", "cool", "--project", project.path])
        #expect(promote.status == 0, "\(promote.standardError)")
        let metadata = try String(contentsOf: project.appendingPathComponent("prompts/program-draft/prompt.yaml"), encoding: .utf8)
        #expect(metadata.contains("temperature: 0\n"))
        #expect(metadata.contains("version: 4\n"))
        #expect(metadata.contains("max_tokens: 1800\n"), "keys the variant leaves out keep the base's values")
        #expect(promote.standardOutput.contains("had no recordings"))
    }

    @Test func promotingKeepsTheBaseFilesTheVariantNeverRecordedAndNeverTouchesASharedSchema() throws {
        let project = try RunCommandTests.makeProject(withGoldenOf: ["busy-parent"])
        defer { try? FileManager.default.removeItem(at: project) }
        for step in ["goal-options", "goal-options-edit", "program-draft", "program-edit"] {
            try? FileManager.default.removeItem(at: project.appendingPathComponent("prompts/\(step)/variants"))
        }
        let variant = project.appendingPathComponent("prompts/goal-options/variants/terse")
        try FileManager.default.createDirectory(at: variant, withIntermediateDirectories: true)
        let system = try String(contentsOf: project.appendingPathComponent("prompts/goal-options/system.md"), encoding: .utf8)
        try (system + "\n\n" + Self.terseRule + "\n").write(to: variant.appendingPathComponent("system.md"), atomically: true, encoding: .utf8)
        let schemas = project.appendingPathComponent("prompts/schemas")
        let sharedSchema = try Data(contentsOf: schemas.appendingPathComponent("goal-options.schema.json"))
        try sharedSchema.write(to: variant.appendingPathComponent("schema.json"))
        let server = try Self.server()
        defer { server.stop() }
        let recorded = try CommandRunner.run([
            "run", "--variant", "terse", "--project", project.path, "--fixture", "busy-parent", "--until", "goal-options",
            "--provider", "openai-compatible", "--base-url", server.url("/v1").absoluteString, "--record",
        ])
        #expect(recorded.status == 0, "\(recorded.standardOutput)\(recorded.standardError)")
        #expect(try CommandRunner.run(["accept", "--variant", "terse", "--project", project.path]).status == 0)

        let promote = try CommandRunner.run(["promote", "goal-options", "terse", "--keep-base-as", "v2", "--project", project.path])
        #expect(promote.status == 0, "\(promote.standardOutput)\(promote.standardError)")
        #expect(promote.standardOutput.contains("1 fixture step of approved outputs and recordings moved into golden/"), "\(promote.standardOutput)")
        #expect(promote.standardOutput.contains("fixture steps the variant never recorded keep the old base's files, stale now"))
        let golden = project.appendingPathComponent("golden")
        for file in ["busy-parent/program-draft.json", "busy-parent/program-edit.cassette.json", "busy-parent/goal-options-edit-1.json"] {
            #expect(FileManager.default.fileExists(atPath: golden.appendingPathComponent(file).path), "\(file) stays for review")
            #expect(FileManager.default.fileExists(atPath: golden.appendingPathComponent("variants/goal-options=v2/" + file).path), "the old base keeps \(file)")
        }
        // The old base still replays everywhere it did.
        let oldBase = try CommandRunner.run(["run", "--ci", "--variant", "v2", "--project", project.path, "--fixture", "busy-parent"])
        #expect(oldBase.status == 0, "\(oldBase.standardOutput)\(oldBase.standardError)")
        // goal-options-edit shares the schema file: the promoted step gets a file of its own.
        #expect(try Data(contentsOf: schemas.appendingPathComponent("goal-options.schema.json")) == sharedSchema)
        let metadata = try String(contentsOf: project.appendingPathComponent("prompts/goal-options/prompt.yaml"), encoding: .utf8)
        // The next free name (goal-options-vN.schema.json): the project may hold earlier ones.
        let schemaLine = try #require(metadata.split(separator: "\n").first { $0.hasPrefix("schema: goal-options-v") }, "\(metadata)")
        let ownSchema = schemas.appendingPathComponent(String(schemaLine.dropFirst("schema: ".count)))
        #expect(try Data(contentsOf: ownSchema) == sharedSchema, "the variant's schema.json, in a file of its own")
        #expect(FileManager.default.fileExists(atPath: project.appendingPathComponent("prompts/goal-options/variants/v2/schema.json").path))
        // A second promotion may not overwrite the old base's folder.
        try FileManager.default.createDirectory(at: variant, withIntermediateDirectories: true)
        try "temperature: 0\n".write(to: variant.appendingPathComponent("prompt.yaml"), atomically: true, encoding: .utf8)
        let again = try CommandRunner.run(["promote", "goal-options", "terse", "--keep-base-as", "v2", "--project", project.path])
        #expect(again.status == 2)
        #expect(again.standardError.contains("already exists"), "\(again.standardError)")
    }

    /// `markdown: rendered`: the model is asked for the JSON alone and the markdown is rendered from it.
    @Test func aProgramVariantWithRenderedMarkdownAsksForTheJSONAlone() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let variant = project.appendingPathComponent("prompts/program-draft/variants/rendered")
        try FileManager.default.createDirectory(at: variant, withIntermediateDirectories: true)
        try "markdown: rendered\nmax_tokens: 900\n".write(to: variant.appendingPathComponent("prompt.yaml"), atomically: true, encoding: .utf8)
        let program = #"{"program_json": {"title": "Steady Start", "goal": "Move 3 times a week for 8 weeks", "duration_weeks": 8, "days_per_week": 2, "session_minutes": 30, "equipment": ["bodyweight"], "sessions": [{"day": 1, "name": "Full body", "minutes": 30, "exercises": [{"name": "Squat to a chair", "sets": 3, "reps": "10", "rest_seconds": 60, "notes": ""}, {"name": "Wall push-up", "sets": 3, "reps": "10", "rest_seconds": 60, "notes": ""}, {"name": "Glute bridge", "sets": 3, "reps": "12", "rest_seconds": 60, "notes": ""}]}, {"day": 2, "name": "Walk and core", "minutes": 30, "exercises": [{"name": "Brisk walk", "sets": 1, "reps": "20 min", "rest_seconds": 0, "notes": ""}, {"name": "Dead bug", "sets": 3, "reps": "8 each side", "rest_seconds": 45, "notes": ""}, {"name": "Side plank", "sets": 2, "reps": "20 s", "rest_seconds": 45, "notes": ""}]}], "progression": [{"weeks": "1-4", "focus": "Learn the moves"}, {"weeks": "5-8", "focus": "Add a set"}], "safety_notes": ["Warm up for 5 minutes and stop if anything hurts."]}}"#
        let server = try LoopbackServer { request in
            let body = String(decoding: request.body, as: UTF8.self)
            return .json(RunCommandTests.completion(body.contains("program_json") ? program : RunCommandTests.options))
        }
        defer { server.stop() }
        let run = try CommandRunner.run([
            "run", "--variant", "rendered", "--project", project.path, "--fixture", "minimal-record", "--until", "program-draft",
            "--provider", "openai-compatible", "--base-url", server.url("/v1").absoluteString,
        ])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        let draftRequest = try #require(server.requests.last.map { String(decoding: $0.body, as: UTF8.self) })
        let schemaSent = try #require(draftRequest.range(of: "\"response_format\"").map { String(draftRequest[$0.lowerBound...]) })
        #expect(schemaSent.contains("program_json"))
        #expect(!schemaSent.contains("program_markdown"), "the schema sent leaves the markdown out")
        #expect(draftRequest.contains("\"max_tokens\":900") || draftRequest.contains("\"max_tokens\": 900"))

        let results = try JSONSerialization.jsonObject(
            with: Data(contentsOf: project.appendingPathComponent("Reports/latest/results.json"))) as? [String: Any]
        let steps = ((results?["fixtures"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]]) ?? []
        let draft = try #require(steps.first { $0["id"] as? String == "program-draft" })
        #expect(draft["outcome"] as? String == "valid")
        let markdown = ((draft["output"] as? [String: Any])?["program_markdown"] as? String) ?? ""
        #expect(markdown.hasPrefix("# Steady Start\n"), "\(markdown)")
        #expect(markdown.contains("## Day 2: Walk and core (30 min)\n- **Brisk walk**: 1 × 20 min, rest 0 s."))
        let checks = draft["checks"] as? [[String: Any]] ?? []
        #expect(checks.contains { $0["name"] as? String == "program.markdown-agrees" && $0["passed"] as? Bool == true })

        // Only the program steps may render their markdown.
        let wrong = project.appendingPathComponent("prompts/goal-options/variants/rendered")
        try FileManager.default.createDirectory(at: wrong, withIntermediateDirectories: true)
        try "markdown: rendered\n".write(to: wrong.appendingPathComponent("prompt.yaml"), atomically: true, encoding: .utf8)
        let refused = try CommandRunner.run(["render", "--variant", "goal-options=rendered", "--project", project.path, "--fixture", "minimal-record"])
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("`markdown` applies to the program steps only"), "\(refused.standardError)")
    }
}
