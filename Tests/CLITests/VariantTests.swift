import Foundation
import JSONSchema
import TestSupport
import Testing

@Suite("Prompt variants", .serialized)
struct VariantTests {
    static let terseRule = "Keep every summary to six words or fewer."
    static let terseOptions = #"{"options": [{"id": "move-3x-week", "summary": "Move three times weekly", "detail": "Short sessions at home, three times a week."}, {"id": "walk-8k-steps", "summary": "Walk 8,000 daily steps", "detail": "Add 500 steps to each day every week."}, {"id": "first-push-up", "summary": "Five push-ups by spring", "detail": "Start on the knees, then full push-ups."}]}"#

    /// A project whose goal-options step has the variant `terse` (its own system message,
    /// nothing else) and no other variant.
    /// A project without golden files whose program steps are prompt set v3 (the model
    /// writes the whole program, which these tests script), and whose only variant is
    /// goal-options' `terse`.
    static func makeProject() throws -> URL {
        let project = try RunCommandTests.makeProject()
        for step in ["program-draft", "program-edit"] {
            let folder = project.appendingPathComponent("prompts/\(step)")
            for file in ["system.md", "user.mustache", "prompt.yaml"] {
                let base = folder.appendingPathComponent(file)
                try FileManager.default.removeItem(at: base)
                try FileManager.default.copyItem(at: folder.appendingPathComponent("variants/v3/\(file)"), to: base)
            }
        }
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
        #expect(variantGate.standardOutput.contains("gate passes · 4 steps: pass 1 · skipped 3"), "\(variantGate.standardOutput)")
        let results = try JSONSerialization.jsonObject(
            with: Data(contentsOf: project.appendingPathComponent("Reports/latest/results.json"))) as? [String: Any]
        let prompts = (results?["run"] as? [String: Any])?["prompts"] as? [String: [String: Any]]
        #expect(prompts?["goal-options"]?["variant"] as? String == "terse")
        #expect(prompts?["program-draft"]?["variant"] == nil)
        let markdown = try String(contentsOf: project.appendingPathComponent("Reports/latest/report.md"), encoding: .utf8)
        #expect(markdown.contains("goal-options version 4 variant terse"))
        let html = try String(contentsOf: project.appendingPathComponent("Reports/latest/index.html"), encoding: .utf8)
        #expect(html.contains("goal-options version 4 variant terse"))
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
        #expect(crossed.standardOutput.contains("--record-missing --fixture minimal-record --until goal-options --variant goal-options=terse`"),
                "the command keeps the run's scope and reaches the variant's files")
        _ = try CommandRunner.run(["run", "--variant", "terse"] + scope + live)
        #expect(try CommandRunner.run(["run", "--ci", "--variant", "terse"] + scope).status == 0)

        // render shows the variant's messages.
        let rendered = try CommandRunner.run(["render", "--variant", "terse", "--project", project.path, "--fixture", "minimal-record", "--step", "goal-options"])
        #expect(rendered.standardOutput.contains(Self.terseRule))
        #expect(rendered.standardOutput.contains("goal-options version 4 variant terse"))
        #expect(rendered.standardOutput.contains(
            "# variant terse overrides system.md; inherits user.mustache (prompts/goal-options/user.mustache), prompt.yaml (prompts/goal-options/prompt.yaml)"),
            "says what the variant changes and what it takes from the base: \(rendered.standardOutput)")
        #expect(!(try CommandRunner.run(["render", "--project", project.path, "--fixture", "minimal-record", "--step", "goal-options"]).standardOutput.contains(Self.terseRule)))

        // Promoted, the variant is the base (version up) and replays offline at once; the old base stays a variant.
        let requestsBefore = server.requestCount
        let promote = try CommandRunner.run(["promote", "goal-options", "terse", "--keep-base-as", "v2", "--project", project.path])
        #expect(promote.status == 0, "\(promote.standardOutput)\(promote.standardError)")
        #expect(promote.standardOutput.contains("v4 → v5"))
        let system = try String(contentsOf: project.appendingPathComponent("prompts/goal-options/system.md"), encoding: .utf8)
        #expect(system.contains(Self.terseRule))
        let metadata = try String(contentsOf: project.appendingPathComponent("prompts/goal-options/prompt.yaml"), encoding: .utf8)
        #expect(metadata.contains("version: 5\n"))
        #expect(metadata.contains("# How outputs are compared with golden"), "comments survive")
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent("prompts/goal-options/variants/terse").path))
        let newBase = try CommandRunner.run(["run", "--ci"] + scope)
        #expect(newBase.status == 0, "\(newBase.standardOutput)\(newBase.standardError)")
        #expect(newBase.standardOutput.contains("gate passes · 4 steps: pass 1 · skipped 3"), "\(newBase.standardOutput)")
        let oldBase = try CommandRunner.run(["run", "--ci", "--variant", "v2"] + scope)
        #expect(oldBase.status == 0, "\(oldBase.standardOutput)\(oldBase.standardError)")
        #expect(server.requestCount == requestsBefore)
        let oldSystem = try String(contentsOf: project.appendingPathComponent("prompts/goal-options/variants/v2/system.md"), encoding: .utf8)
        #expect(!oldSystem.contains(Self.terseRule))

        // The promoted recording names the variant's system.md; the same text in the base's
        // file is no change, so a later edit to the template is the only cause named.
        let template = project.appendingPathComponent("prompts/goal-options/user.mustache")
        let text = try String(contentsOf: template, encoding: .utf8)
        try text.replacingOccurrences(of: "Write 3 or 4 goal options", with: "Write three or four goal options")
            .write(to: template, atomically: true, encoding: .utf8)
        let edited = try CommandRunner.run(["run", "--ci"] + scope)
        #expect(edited.standardOutput.contains(
            "stale 1 recording is stale because the prompt template (prompts/goal-options/user.mustache) changed\n"), "\(edited.standardOutput)")
    }

    /// The commands a message suggests, in backticks and spelled as the tests invoke the
    /// binary: each as its arguments, the program name left out.
    static func suggestedCommands(in text: String) -> [[String]] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 && $0.element.hasPrefix(CommandRunner.spelled + " ") }
            .map { $0.element.dropFirst(CommandRunner.spelled.count).split(separator: " ").map(String.init) }
    }

    /// Every file under golden/ with its bytes, by path relative to the project.
    static func goldenSnapshot(_ project: URL) throws -> [String: Data] {
        let golden = project.appendingPathComponent("golden")
        let files = FileManager.default.enumerator(at: golden, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        var snapshot: [String: Data] = [:]
        for file in files where !file.hasDirectoryPath {
            snapshot[String(file.standardizedFileURL.path.dropFirst(project.standardizedFileURL.path.count + 1))] = try Data(contentsOf: file)
        }
        return snapshot
    }

    /// The paths whose bytes differ between two snapshots, added and removed ones included.
    static func changedPaths(_ before: [String: Data], _ after: [String: Data]) -> [String] {
        Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
    }

    /// After a variant run on one fixture, each command the messages suggest is run as
    /// printed, from the project folder: it reaches the variant's files of that fixture
    /// and step and nothing else, neither the base's files nor another fixture's.
    @Test func everyHintAfterAVariantRunTouchesOnlyThatVariantsFilesOfTheRunsScope() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let server = try Self.server()
        defer { server.stop() }
        func run(_ arguments: [String]) throws -> CommandRunner.Outcome {
            try CommandRunner.run(arguments, in: project)
        }
        let scope = ["--fixture", "minimal-record", "--until", "goal-options"]
        let live = ["--provider", "openai-compatible", "--base-url", server.url("/v1").absoluteString, "--record"]
        let variantFiles = "golden/variants/goal-options=terse/minimal-record/goal-options."

        // The base is approved for both fixtures; the variant's busy-parent output waits.
        #expect(try run(["run", "--until", "goal-options"] + live).status == 0)
        #expect(try run(["accept"]).status == 0)
        #expect(try run(["run", "--variant", "terse", "--fixture", "busy-parent", "--until", "goal-options"] + live).status == 0)
        let otherPending = "golden/variants/goal-options=terse/busy-parent/goal-options.json.new"

        // The pending hint of a variant run on one fixture.
        let recorded = try run(["run", "--variant", "terse"] + scope + live)
        #expect(recorded.status == 0, "\(recorded.standardOutput)\(recorded.standardError)")
        let reviewHints = Self.suggestedCommands(in: recorded.standardOutput).filter { ["pending", "accept"].contains($0.first) }
        #expect(reviewHints.map(\.first) == ["pending", "accept"], "\(recorded.standardOutput)")
        for hint in reviewHints {
            #expect(hint.contains("--variant") && hint.contains("goal-options=terse"), "\(hint)")
            let before = try Self.goldenSnapshot(project)
            let followed = try run(hint)
            #expect(followed.status == 0, "\(hint): \(followed.standardOutput)\(followed.standardError)")
            if hint.first == "pending" {
                #expect(followed.standardOutput.contains("[goal-options=terse] new minimal-record/goal-options"), "\(followed.standardOutput)")
                #expect(!followed.standardOutput.contains("busy-parent"), "the hint keeps the run's fixture")
            }
            for path in Self.changedPaths(before, try Self.goldenSnapshot(project)) {
                #expect(path.hasPrefix(variantFiles), "`\(hint.joined(separator: " "))` changed \(path)")
            }
        }
        #expect(FileManager.default.fileExists(atPath: project.appendingPathComponent(variantFiles + "json").path), "accepted")
        #expect(FileManager.default.fileExists(atPath: project.appendingPathComponent(otherPending).path), "another fixture's output still waits")

        // The re-recording hint of a stale variant recording, in the terminal and in the report.
        let variantCassette = project.appendingPathComponent(variantFiles + "cassette.json")
        try FileManager.default.removeItem(at: variantCassette)
        try FileManager.default.copyItem(at: project.appendingPathComponent("golden/minimal-record/goal-options.cassette.json"), to: variantCassette)
        let stale = try run(["run", "--ci", "--variant", "terse"] + scope)
        #expect(stale.status == 1, "\(stale.standardOutput)")
        let rerecord = try #require(Self.suggestedCommands(in: stale.standardOutput).first { $0.contains("--record-missing") && $0.contains("local") })
        let report = try String(contentsOf: project.appendingPathComponent("Reports/latest/report.md"), encoding: .utf8)
        #expect(Self.suggestedCommands(in: report).contains(rerecord), "the report suggests the same command: \(report)")
        let before = try Self.goldenSnapshot(project)
        // The test's server stands in for the local model's.
        let rerecorded = try run(rerecord + ["--base-url", server.url("/v1").absoluteString])
        #expect(rerecorded.status == 0, "\(rerecord): \(rerecorded.standardOutput)\(rerecorded.standardError)")
        let changed = Self.changedPaths(before, try Self.goldenSnapshot(project))
        #expect(changed.contains(variantFiles + "cassette.json"), "\(changed)")
        for path in changed {
            #expect(path.hasPrefix(variantFiles), "`\(rerecord.joined(separator: " "))` changed \(path)")
        }
        #expect(try run(["run", "--ci", "--variant", "terse"] + scope).status == 0)
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
        #expect(rendered.standardOutput.contains("program-draft version 5 variant cool · temperature 0.0 · max_tokens 1200 · schema prompts/schemas/program-v3.schema.json"), "\(rendered.standardOutput)")

        try "temperature: hot\n".write(to: variant.appendingPathComponent("prompt.yaml"), atomically: true, encoding: .utf8)
        let broken = try CommandRunner.run(["render", "--variant", "cool", "--project", project.path, "--fixture", "minimal-record", "--step", "program-draft"])
        #expect(broken.status == 2)
        #expect(broken.standardError.contains("prompts/program-draft/variants/cool/prompt.yaml:1:"), "the error names the variant's file: \(broken.standardError)")

        try "temperature: 0\n".write(to: variant.appendingPathComponent("prompt.yaml"), atomically: true, encoding: .utf8)
        let promote = try CommandRunner.run(["promote", "program-draft", "cool", "--project", project.path])
        #expect(promote.status == 0, "\(promote.standardError)")
        let metadata = try String(contentsOf: project.appendingPathComponent("prompts/program-draft/prompt.yaml"), encoding: .utf8)
        #expect(metadata.contains("temperature: 0\n"))
        #expect(metadata.contains("version: 6\n"))
        #expect(metadata.contains("max_tokens: 2000\n"), "keys the variant leaves out keep the base's values")
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
        let sharedSchema = try Data(contentsOf: schemas.appendingPathComponent("goal-options-v3.schema.json"))
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
        #expect(try Data(contentsOf: schemas.appendingPathComponent("goal-options-v3.schema.json")) == sharedSchema)
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

    /// `markdown: rendered` (the base's): the model is asked for the JSON alone and the
    /// markdown is rendered from it; a variant with `markdown: model` asks for both.
    @Test func aProgramStepWithRenderedMarkdownAsksForTheJSONAlone() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let variant = project.appendingPathComponent("prompts/program-draft/variants/model")
        try FileManager.default.createDirectory(at: variant, withIntermediateDirectories: true)
        try "markdown: model\nmax_tokens: 2400\n".write(to: variant.appendingPathComponent("prompt.yaml"), atomically: true, encoding: .utf8)
        let program = #"{"program_json": {"title": "Steady Start", "goal": "Move 3 times a week for 8 weeks", "duration_weeks": 8, "days_per_week": 2, "session_minutes": 30, "equipment": ["bodyweight"], "sessions": [{"day": 1, "name": "Full body", "minutes": 30, "exercises": [{"name": "Squat to a chair", "sets": 3, "reps": "10", "rest_seconds": 60, "notes": ""}, {"name": "Wall push-up", "sets": 3, "reps": "10", "rest_seconds": 60, "notes": ""}, {"name": "Glute bridge", "sets": 3, "reps": "12", "rest_seconds": 60, "notes": ""}]}, {"day": 2, "name": "Walk and core", "minutes": 30, "exercises": [{"name": "Brisk walk", "sets": 1, "reps": "20 min", "rest_seconds": 0, "notes": ""}, {"name": "Dead bug", "sets": 3, "reps": "8 each side", "rest_seconds": 45, "notes": ""}, {"name": "Side plank", "sets": 2, "reps": "20 s", "rest_seconds": 45, "notes": ""}]}], "progression": [{"weeks": "1-4", "focus": "Learn the moves"}, {"weeks": "5-8", "focus": "Add a set"}], "safety_notes": ["Warm up for 5 minutes and stop if anything hurts."]}}"#
        let server = try LoopbackServer { request in
            let body = String(decoding: request.body, as: UTF8.self)
            return .json(RunCommandTests.completion(body.contains("program_json") ? program : RunCommandTests.options))
        }
        defer { server.stop() }
        let live = ["--project", project.path, "--fixture", "minimal-record", "--until", "program-draft",
                    "--provider", "openai-compatible", "--base-url", server.url("/v1").absoluteString]
        let modelWrites = try CommandRunner.run(["run", "--variant", "model"] + live)
        let modelRequest = try #require(server.requests.last.map { String(decoding: $0.body, as: UTF8.self) })
        #expect(modelRequest.contains("\"max_tokens\":2400") || modelRequest.contains("\"max_tokens\": 2400"), "\(modelWrites.standardError)")
        #expect(modelRequest.contains("program_markdown"), "markdown: model asks the model for the markdown too")

        let run = try CommandRunner.run(["run"] + live)
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        let draftRequest = try #require(server.requests.last.map { String(decoding: $0.body, as: UTF8.self) })
        let schemaSent = try #require(draftRequest.range(of: "\"response_format\"").map { String(draftRequest[$0.lowerBound...]) })
        #expect(schemaSent.contains("program_json"))
        #expect(!schemaSent.contains("program_markdown"), "the schema sent leaves the markdown out")
        #expect(draftRequest.contains("\"max_tokens\":2000") || draftRequest.contains("\"max_tokens\": 2000"))

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

/// One run of the program steps' variant `name` against a loopback server, as a local
/// model is asked: the server answers a program request with `program`, one that asks
/// for operations with `edit`, and the option steps with `RunCommandTests.options`.
struct ProgramVariantRun {
    let status: Int32
    let output: String
    /// Every request body the server received, in order.
    let bodies: [JSONValue]
    /// `Reports/latest/results.json` of the run.
    let results: JSONValue

    /// Writes `settings[step]` as the `prompt.yaml` of `prompts/<step>/variants/<name>/` in `project`.
    static func writeVariant(_ name: String, settings: [String: String], in project: URL) throws {
        for (step, yaml) in settings {
            let variant = project.appendingPathComponent("prompts/\(step)/variants/\(name)")
            try FileManager.default.createDirectory(at: variant, withIntermediateDirectories: true)
            try yaml.write(to: variant.appendingPathComponent("prompt.yaml"), atomically: true, encoding: .utf8)
        }
    }

    init(_ name: String, in project: URL, program: String, edit: String? = nil) throws {
        let server = try LoopbackServer { request in
            let body = String(decoding: request.body, as: UTF8.self)
            if let edit, body.contains("operations") { return .json(RunCommandTests.completion(edit)) }
            return .json(RunCommandTests.completion(body.contains("program_json") ? program : RunCommandTests.options))
        }
        defer { server.stop() }
        let run = try CommandRunner.run([
            "run", "--variant", name, "--project", project.path, "--fixture", "minimal-record",
            "--provider", "local", "--base-url", server.url("/v1").absoluteString,
        ])
        status = run.status
        output = run.standardOutput + run.standardError
        bodies = try server.requests.map { try JSONParser.parse($0.body) }
        results = try JSONParser.parse(Data(contentsOf: project.appendingPathComponent("Reports/latest/results.json")))
    }

    /// The result of the step `id` for the fixture.
    func step(_ id: String) throws -> JSONValue {
        try #require(results["fixtures"]?[0]?["steps"]?.arrayValue?.first { $0["id"] == .string(id) })
    }
}

/// `minutes: rendered` and `compact_json: true`, as a local model is asked for a program:
/// no minutes in the grammar, the minutes stated from the work the model chose, and
/// the edit shown the program without them.
@Suite("Rendered minutes and compact JSON", .serialized)
struct RenderedMinutesTests {
    /// Day 1: 9 sets of 10 reps (30 s) and 60 s rest, 13.5 min, plus the 5-minute
    /// warm-up: 18.5, stated 20. Day 2: a 20-minute walk, 3 × (24 s + 45 s) and
    /// 2 × (20 s + 45 s), 25.6 min, plus 5: stated 35.
    static let program = #"{"program_json": {"title": "Steady Start", "goal": "Move 3 times a week for 8 weeks", "progression": [{"weeks": "1-4", "focus": "Learn the moves"}, {"weeks": "5-8", "focus": "Add a set"}], "duration_weeks": 8, "days_per_week": 2, "equipment": ["bodyweight"], "sessions": [{"day": 1, "name": "Full body", "exercises": [{"name": "Squat to a chair", "sets": 3, "reps": "10", "rest_seconds": 60, "notes": ""}, {"name": "Wall push-up", "sets": 3, "reps": "10", "rest_seconds": 60, "notes": ""}, {"name": "Glute bridge", "sets": 3, "reps": "10", "rest_seconds": 60, "notes": ""}]}, {"day": 2, "name": "Walk and core", "exercises": [{"name": "Brisk walk", "sets": 1, "reps": "20 min", "rest_seconds": 0, "notes": ""}, {"name": "Dead bug", "sets": 3, "reps": "8 each side", "rest_seconds": 45, "notes": ""}, {"name": "Side plank", "sets": 2, "reps": "20 s", "rest_seconds": 45, "notes": ""}]}], "safety_notes": ["Warm up for 5 minutes and stop if anything hurts."]}}"#

    @Test func theModelChoosesTheWorkAndTheMinutesAreStatedFromIt() throws {
        let project = try VariantTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let yaml = "minutes: rendered\ncompact_json: true\n"
        try ProgramVariantRun.writeVariant("timed", settings: ["program-draft": yaml, "program-edit": yaml], in: project)
        let run = try ProgramVariantRun("timed", in: project, program: Self.program)
        #expect(run.status <= 1, "\(run.output)")
        let programRequests = run.bodies.filter { $0["grammar"]?.stringValue?.contains("program_json") == true }
        #expect(programRequests.count == 2, "the draft and the edit ask for compact JSON: \(run.bodies.count) requests")
        for body in programRequests {
            let grammar = body["grammar"]?.stringValue ?? ""
            #expect(body["response_format"] == nil)
            #expect(grammar.contains(#"\"exercises\":"#) && !grammar.contains(#"\"minutes\":"#) && !grammar.contains("session_minutes"), "\(grammar)")
        }
        let editMessage = programRequests.last?["messages"]?[1]?["content"]?.stringValue ?? ""
        let shown = try #require(editMessage.range(of: "<current_program>").flatMap { start in
            editMessage.range(of: "</current_program>").map { String(editMessage[start.upperBound..<$0.lowerBound]) }
        })
        #expect(shown.contains("Squat to a chair") && !shown.contains(#""minutes":"#) && !shown.contains("session_minutes"), "the edit sees the program as it would write it: \(shown)")

        for stepID in ["program-draft", "program-edit"] {
            let step = try run.step(stepID)
            #expect(step["outcome"] == "valid", "\(stepID)")
            let program = step["output"]?["program_json"]
            #expect(program?["sessions"]?[0]?["minutes"] == 20 && program?["sessions"]?[1]?["minutes"] == 35, "\(stepID)")
            #expect(program?["session_minutes"] == 35, "the longest session")
            #expect(step["output"]?["program_markdown"]?.stringValue?.contains("## Day 2: Walk and core (35 min)") == true)
            let checks = step["checks"]?.arrayValue ?? []
            #expect(checks.contains { $0["name"] == "program.session-time-plausible" && $0["passed"] == true }, "\(stepID)")
        }

        // Only the program steps state minutes, and only a schema that has them can leave them out.
        let wrong = project.appendingPathComponent("prompts/goal-options/variants/timed")
        try FileManager.default.createDirectory(at: wrong, withIntermediateDirectories: true)
        try "minutes: rendered\n".write(to: wrong.appendingPathComponent("prompt.yaml"), atomically: true, encoding: .utf8)
        let refused = try CommandRunner.run(["render", "--variant", "goal-options=timed", "--project", project.path, "--fixture", "minimal-record"])
        #expect(refused.status == 2 && refused.standardError.contains("`minutes` applies to the program steps only"), "\(refused.standardError)")
        try "minutes: sometimes\n".write(to: wrong.appendingPathComponent("prompt.yaml"), atomically: true, encoding: .utf8)
        let misspelt = try CommandRunner.run(["render", "--variant", "goal-options=timed", "--project", project.path, "--fixture", "minimal-record"])
        #expect(misspelt.standardError.contains("`minutes` must be model, rendered or recomputed, got string \"sometimes\""), "\(misspelt.standardError)")
        let untimed = project.appendingPathComponent("prompts/program-draft/variants/untimed")
        try FileManager.default.createDirectory(at: untimed, withIntermediateDirectories: true)
        try "minutes: rendered\nmarkdown: model\nschema: goal-options-v3.schema.json\n".write(to: untimed.appendingPathComponent("prompt.yaml"), atomically: true, encoding: .utf8)
        let noMinutes = try CommandRunner.run(["render", "--variant", "program-draft=untimed", "--project", project.path, "--fixture", "minimal-record"])
        #expect(noMinutes.status == 2 && noMinutes.standardError.contains("`minutes: rendered` needs a schema with /$defs/session/properties/minutes"), "\(noMinutes.standardError)")
    }
}

/// `minutes: recomputed`: the model is asked for the minutes, as a slot that keeps it
/// writing sessions, and whatever it wrote is replaced by the time of its work.
@Suite("Recomputed minutes", .serialized)
struct RecomputedMinutesTests {
    /// `RenderedMinutesTests.program` with minutes the model got wrong: 45 and 10, and 60 in all.
    static let program = RenderedMinutesTests.program
        .replacingOccurrences(of: #"{"day": 1, "name": "Full body", "exercises""#, with: #"{"day": 1, "name": "Full body", "minutes": 45, "exercises""#)
        .replacingOccurrences(of: #"{"day": 2, "name": "Walk and core", "exercises""#, with: #"{"day": 2, "name": "Walk and core", "minutes": 10, "exercises""#)
        .replacingOccurrences(of: #""days_per_week": 2,"#, with: #""days_per_week": 2, "session_minutes": 60,"#)

    @Test func theModelsMinutesAreReplacedByTheTimeOfItsWork() throws {
        #expect(Self.program.contains(#""minutes": 45"#) && Self.program.contains(#""session_minutes": 60"#))
        let project = try VariantTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let yaml = "minutes: recomputed\ncompact_json: true\n"
        try ProgramVariantRun.writeVariant("timed", settings: ["program-draft": yaml, "program-edit": yaml], in: project)
        let run = try ProgramVariantRun("timed", in: project, program: Self.program)
        #expect(run.status <= 1, "\(run.output)")
        let programRequests = run.bodies.filter { $0["grammar"]?.stringValue?.contains("program_json") == true }
        #expect(programRequests.count == 2, "\(run.bodies.count) requests")
        for body in programRequests {
            let grammar = body["grammar"]?.stringValue ?? ""
            #expect(grammar.contains(#"\"minutes\":"#) && grammar.contains("session_minutes"), "the model is still asked for them: \(grammar)")
        }
        let editMessage = programRequests.last?["messages"]?[1]?["content"]?.stringValue ?? ""
        #expect(editMessage.contains(#""minutes":20"#) && editMessage.contains(#""session_minutes":35"#) && !editMessage.contains(#""minutes":45"#),
                "the edit is shown the draft as the app states it: \(editMessage)")

        for stepID in ["program-draft", "program-edit"] {
            let step = try run.step(stepID)
            #expect(step["outcome"] == "valid", "\(stepID)")
            let program = step["output"]?["program_json"]
            #expect(program?["sessions"]?[0]?["minutes"] == 20 && program?["sessions"]?[1]?["minutes"] == 35, "\(stepID)")
            #expect(program?["session_minutes"] == 35, "the longest session, not the model's 60")
            let checks = step["checks"]?.arrayValue ?? []
            #expect(checks.contains { $0["name"] == "program.session-time-plausible" && $0["passed"] == true }, "\(stepID)")
        }
    }
}

/// `progression: rendered`: the model lists what changes, and the phases are written
/// from the list and the plan's weeks.
@Suite("Rendered progression", .serialized)
struct RenderedProgressionTests {
    static let program = RecomputedMinutesTests.program.replacingOccurrences(
        of: #"[{"weeks": "1-4", "focus": "Learn the moves"}, {"weeks": "5-8", "focus": "Add a set"}]"#, with: #"["technique", "sets", "deload"]"#)

    @Test func theModelListsTheChangesAndThePhasesAreWrittenFromThem() throws {
        #expect(Self.program.contains(#""progression": ["technique", "sets", "deload"]"#))
        let project = try VariantTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let yaml = "progression: rendered\nminutes: recomputed\ncompact_json: true\n"
        try ProgramVariantRun.writeVariant("phased", settings: ["program-draft": yaml, "program-edit": yaml], in: project)
        let run = try ProgramVariantRun("phased", in: project, program: Self.program)
        #expect(run.status <= 1, "\(run.output)")
        let programRequests = run.bodies.filter { $0["grammar"]?.stringValue?.contains("program_json") == true }
        #expect(programRequests.count == 2, "\(run.bodies.count) requests")
        for body in programRequests {
            let grammar = body["grammar"]?.stringValue ?? ""
            #expect(grammar.contains(#"\"harder-versions\""#) && !grammar.contains(#"\"focus\":"#), "the changes, not phases: \(grammar)")
        }
        let editMessage = programRequests.last?["messages"]?[1]?["content"]?.stringValue ?? ""
        #expect(editMessage.contains(#""progression":["technique","sets","deload"]"#), "the edit is shown the changes: \(editMessage)")

        for stepID in ["program-draft", "program-edit"] {
            let step = try run.step(stepID)
            #expect(step["outcome"] == "valid", "\(stepID)")
            let phases = step["output"]?["program_json"]?["progression"]?.arrayValue ?? []
            #expect(phases.map { $0["weeks"] } == ["1-4", "5-7", "8-8"], "\(stepID): \(phases)")
            #expect(phases.first?["focus"] == "Learn each movement with good form at an easy effort")
            #expect(step["output"]?["program_markdown"]?.stringValue?.contains("Add a set to the main exercises") == true)
            let checks = step["checks"]?.arrayValue ?? []
            for name in ["program.progression-covers-weeks", "program.progression-phases-differ"] {
                #expect(checks.contains { $0["name"] == .string(name) && $0["passed"] == true }, "\(stepID) \(name)")
            }
        }

        let wrong = project.appendingPathComponent("prompts/goal-options/variants/phased")
        try FileManager.default.createDirectory(at: wrong, withIntermediateDirectories: true)
        try "progression: rendered\n".write(to: wrong.appendingPathComponent("prompt.yaml"), atomically: true, encoding: .utf8)
        let refused = try CommandRunner.run(["render", "--variant", "goal-options=phased", "--project", project.path, "--fixture", "minimal-record"])
        #expect(refused.status == 2 && refused.standardError.contains("`progression` applies to the program steps only"), "\(refused.standardError)")
    }
}

/// `edit: operations`: the edit names its change and the operations that make it, and
/// the harness applies them to the draft.
@Suite("Edits as operations", .serialized)
struct OperationEditTests {
    static let edit = #"{"change": "I swapped the wall push-up for a band row and made the plan 10 weeks.", "operations": [{"op": "replace", "exercise": "Wall push-up", "with": {"name": "Band row", "sets": 3, "reps": "12", "rest_seconds": 60, "notes": ""}}, {"op": "weeks", "duration_weeks": 10}]}"#

    @Test func theOperationsAreAppliedToTheDraft() throws {
        let project = try VariantTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let draft = "progression: rendered\nminutes: recomputed\ncompact_json: true\n"
        try ProgramVariantRun.writeVariant(
            "ops", settings: ["program-draft": draft, "program-edit": draft + "edit: operations\nschema: program-edit-v4.3.schema.json\n"], in: project)
        let run = try ProgramVariantRun("ops", in: project, program: RenderedProgressionTests.program, edit: Self.edit)
        #expect(run.status <= 1, "\(run.output)")
        let editGrammar = try #require(run.bodies.compactMap { $0["grammar"]?.stringValue }.first { $0.contains("operations") })
        #expect(editGrammar.contains(#"\"Wall push-up\""#) && editGrammar.contains(#"\"remove-day\""#) && !editGrammar.contains("program_json"),
                "the edit names the draft's exercises, not a whole program: \(editGrammar)")

        let edit = try run.step("program-edit")
        #expect(edit["outcome"] == "valid", "\(edit)")
        let program = edit["output"]?["program_json"]
        let dayOne = (program?["sessions"]?[0]?["exercises"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        #expect(dayOne == ["Squat to a chair", "Band row", "Glute bridge"], "\(dayOne)")
        #expect(program?["duration_weeks"] == 10 && program?["progression"]?.arrayValue?.last?["weeks"] == "10-10",
                "the progression is spread over the new length")
        #expect(edit["output"]?["change"] == "I swapped the wall push-up for a band row and made the plan 10 weeks.")
        #expect(edit["output"]?["program_markdown"]?.stringValue?.contains("**Band row**: 3 × 12") == true)
        let checks = edit["checks"]?.arrayValue ?? []
        #expect(checks.contains { $0["name"] == "edit.changed" && $0["passed"] == true }, "\(checks)")

        // Operations that break the program's rules make an invalid edit, and the model is asked to repair it.
        let overfull = #"{"change": "More core.", "operations": [{"op": "add", "day": 1, "exercise": {"name": "Plank", "sets": 2, "reps": "30 s", "rest_seconds": 30, "notes": ""}}, {"op": "add", "day": 1, "exercise": {"name": "Dead bug", "sets": 2, "reps": "8", "rest_seconds": 30, "notes": ""}}, {"op": "add", "day": 1, "exercise": {"name": "Bird dog", "sets": 2, "reps": "8", "rest_seconds": 30, "notes": ""}}]}"#
        let invalid = try ProgramVariantRun("ops", in: project, program: RenderedProgressionTests.program, edit: overfull).step("program-edit")
        #expect(invalid["outcome"] == "invalid" && invalid["output"] == nil, "\(invalid)")
        #expect(invalid["attempts"]?.arrayValue?.count == 2, "a repair was asked for")
        #expect(invalid["attempts"]?[0]?["problems"]?[0]?.stringValue?.contains("/program_json/sessions/0/exercises") == true, "\(invalid)")

        let draftOnly = project.appendingPathComponent("prompts/program-draft/variants/ops/prompt.yaml")
        try "edit: operations\n".write(to: draftOnly, atomically: true, encoding: .utf8)
        let refused = try CommandRunner.run(["render", "--variant", "ops", "--project", project.path, "--fixture", "minimal-record"])
        #expect(refused.status == 2 && refused.standardError.contains("`edit` applies to program-edit only"), "\(refused.standardError)")
    }
}

/// `promote NAME` with a variant of several steps: a prompt set moves as one.
@Suite("Promoting a prompt set", .serialized)
struct PromptSetPromotionTests {
    static func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    @Test func everyStepsVariantBecomesTheBaseAndTheGoldenFoldersFollow() throws {
        let project = try VariantTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        try FileManager.default.removeItem(at: project.appendingPathComponent("prompts/goal-options/variants/terse"))
        let prompts = project.appendingPathComponent("prompts")
        // The base draft does not fit its schema to the person; the set's draft does.
        let draftMetadata = prompts.appendingPathComponent("program-draft/prompt.yaml")
        let base = try String(contentsOf: draftMetadata, encoding: .utf8)
        try base.replacingOccurrences(of: "schema_from_intake: true\n", with: "").write(to: draftMetadata, atomically: true, encoding: .utf8)
        try Self.write(VariantTests.terseRule + "\n", to: prompts.appendingPathComponent("goal-options/variants/lean/system.md"))
        try Self.write("# Lean: a fitted schema and fewer tokens.\nmax_tokens: 1500\nschema_from_intake: true\n",
                       to: prompts.appendingPathComponent("program-draft/variants/lean/prompt.yaml"))
        try Self.write("max_tokens: 1000\n", to: prompts.appendingPathComponent("program-draft/variants/short/prompt.yaml"))

        // Golden files: the base's, the set's, and a variant recorded on top of the set.
        let golden = project.appendingPathComponent("golden")
        for (folder, steps) in [
            ("minimal-record", ["goal-options", "program-draft", "program-edit"]),
            ("variants/goal-options=lean+program-draft=lean/minimal-record", ["goal-options", "program-draft", "program-edit"]),
            ("variants/goal-options=lean+program-draft=short/minimal-record", ["goal-options", "program-draft"]),
        ] {
            for step in steps { try Self.write("{\"from\": \"\(folder)\"}\n", to: golden.appendingPathComponent("\(folder)/\(step).json")) }
        }

        let promote = try CommandRunner.run(["promote", "lean", "--keep-base-as", "old", "--project", project.path])
        #expect(promote.status == 0, "\(promote.standardOutput)\(promote.standardError)")
        #expect(promote.standardOutput.contains("promoted goal-options variant lean"))
        #expect(promote.standardOutput.contains("promoted program-draft variant lean"))
        #expect(promote.standardOutput.contains("(`\(CommandRunner.spelled) run --variant old`)"), "\(promote.standardOutput)")

        // Prompts: the set is the base, with the variant's opening comment; the old base is variant `old` of both steps.
        #expect(try String(contentsOf: prompts.appendingPathComponent("goal-options/system.md"), encoding: .utf8).contains(VariantTests.terseRule))
        let draft = try String(contentsOf: draftMetadata, encoding: .utf8)
        #expect(draft.hasPrefix("# Lean: a fitted schema and fewer tokens.\n"), "\(draft)")
        #expect(draft.contains("max_tokens: 1500\n") && draft.contains("schema_from_intake: true\n"))
        let old = try String(contentsOf: prompts.appendingPathComponent("program-draft/variants/old/prompt.yaml"), encoding: .utf8)
        #expect(old.contains("schema_from_intake: false\n"), "a key the old base lacked is spelled out as off: \(old)")
        #expect(FileManager.default.fileExists(atPath: prompts.appendingPathComponent("goal-options/variants/old/system.md").path))
        for step in ["goal-options", "program-draft"] {
            #expect(!FileManager.default.fileExists(atPath: prompts.appendingPathComponent("\(step)/variants/lean").path))
        }

        // Golden: the set's files are the base's, the old base's files are variant `old`'s,
        // and the variant recorded on top of the set now runs on the base.
        func read(_ path: String) -> String? { try? String(contentsOf: golden.appendingPathComponent(path), encoding: .utf8) }
        let set = "{\"from\": \"variants/goal-options=lean+program-draft=lean/minimal-record\"}\n"
        #expect(read("minimal-record/goal-options.json") == set)
        #expect(read("minimal-record/program-edit.json") == set)
        #expect(read("variants/goal-options=old+program-draft=old/minimal-record/program-draft.json") == "{\"from\": \"minimal-record\"}\n")
        #expect(read("variants/program-draft=short/minimal-record/program-draft.json") != nil)
        #expect(read("variants/program-draft=short/minimal-record/goal-options.json") == nil, "the base's goal options now")
        #expect(!FileManager.default.fileExists(atPath: golden.appendingPathComponent("variants/goal-options=lean+program-draft=lean").path))
        #expect(!FileManager.default.fileExists(atPath: golden.appendingPathComponent("variants/goal-options=lean+program-draft=short").path))
    }

    /// A later step's variant recorded on the old base's goal options ran what is the
    /// kept old base now: it is renamed to say so and keeps replaying as recorded.
    @Test func aLaterStepsVariantRecordedOnTheOldBaseFollowsTheKeptOldBase() throws {
        let golden = { (project: URL) in project.appendingPathComponent("golden") }
        func setUp() throws -> URL {
            let project = try VariantTests.makeProject()
            try Self.write("max_tokens: 1000\n", to: project.appendingPathComponent("prompts/program-draft/variants/short/prompt.yaml"))
            for (folder, steps) in [
                ("minimal-record", ["goal-options", "program-draft"]),
                ("variants/goal-options=terse/minimal-record", ["goal-options", "program-draft"]),
                ("variants/program-draft=short/minimal-record", ["program-draft"]),
            ] {
                for step in steps { try Self.write("{\"from\": \"\(folder)\"}\n", to: golden(project).appendingPathComponent("\(folder)/\(step).json")) }
            }
            return project
        }
        func read(_ path: String, in project: URL) -> String? {
            try? String(contentsOf: golden(project).appendingPathComponent(path), encoding: .utf8)
        }

        let kept = try setUp()
        defer { try? FileManager.default.removeItem(at: kept) }
        let promote = try CommandRunner.run(["promote", "terse", "--keep-base-as", "old", "--project", kept.path])
        #expect(promote.status == 0, "\(promote.standardOutput)\(promote.standardError)")
        #expect(promote.standardOutput.contains(
            "golden/variants/program-draft=short/ ran the old base's prompts, which are variant old now: renamed golden/variants/goal-options=old+program-draft=short/"),
            "\(promote.standardOutput)")
        let renamed = "variants/goal-options=old+program-draft=short/minimal-record"
        #expect(read("\(renamed)/goal-options.json", in: kept) == "{\"from\": \"minimal-record\"}\n", "the old base's goal options, copied")
        #expect(read("\(renamed)/program-draft.json", in: kept) == "{\"from\": \"variants/program-draft=short/minimal-record\"}\n")
        #expect(read("variants/goal-options=old/minimal-record/goal-options.json", in: kept) == "{\"from\": \"minimal-record\"}\n")
        #expect(read("variants/program-draft=short/minimal-record/program-draft.json", in: kept) == nil)

        let dropped = try setUp()
        defer { try? FileManager.default.removeItem(at: dropped) }
        let plain = try CommandRunner.run(["promote", "terse", "--project", dropped.path])
        #expect(plain.status == 0, "\(plain.standardOutput)\(plain.standardError)")
        #expect(plain.standardOutput.contains("golden/variants/program-draft=short/ ran the old base's prompts for a promoted step, and the old base was not kept: its recordings are stale"),
                "\(plain.standardOutput)")
        #expect(read("variants/program-draft=short/minimal-record/program-draft.json", in: dropped) != nil, "left where it was")
    }

    @Test func aRenameOntoAnExistingFolderIsRefusedBeforeAnythingIsWritten() throws {
        let project = try VariantTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let golden = project.appendingPathComponent("golden")
        for folder in ["variants/goal-options=terse+program-draft=short/minimal-record", "variants/program-draft=short/minimal-record"] {
            try Self.write("{}\n", to: golden.appendingPathComponent("\(folder)/program-draft.json"))
        }
        let system = project.appendingPathComponent("prompts/goal-options/system.md")
        let before = try String(contentsOf: system, encoding: .utf8)
        let promote = try CommandRunner.run(["promote", "terse", "--project", project.path])
        #expect(promote.status == 2)
        #expect(promote.standardError.contains("golden/variants/program-draft=short: it already exists"), "\(promote.standardError)")
        #expect(try String(contentsOf: system, encoding: .utf8) == before, "no prompt was written")
    }

    @Test func aBrokenStepStopsTheWholeSetBeforeAnythingIsWritten() throws {
        let project = try VariantTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let prompts = project.appendingPathComponent("prompts")
        try FileManager.default.moveItem(
            at: prompts.appendingPathComponent("goal-options/variants/terse"), to: prompts.appendingPathComponent("goal-options/variants/lean"))
        try Self.write("temperature: hot\n", to: prompts.appendingPathComponent("program-draft/variants/lean/prompt.yaml"))
        let before = try String(contentsOf: prompts.appendingPathComponent("goal-options/system.md"), encoding: .utf8)

        let promote = try CommandRunner.run(["promote", "lean", "--project", project.path])
        #expect(promote.status == 2)
        #expect(promote.standardError.contains("prompts/program-draft/variants/lean/prompt.yaml"), "\(promote.standardError)")
        #expect(try String(contentsOf: prompts.appendingPathComponent("goal-options/system.md"), encoding: .utf8) == before)
        #expect(FileManager.default.fileExists(atPath: prompts.appendingPathComponent("goal-options/variants/lean/system.md").path))
    }
}
