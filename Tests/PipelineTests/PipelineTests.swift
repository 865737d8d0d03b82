import Checks
import Foundation
import Intake
import JSONSchema
import Providers
import Testing
import TestSupport

@testable import Pipeline

@Suite("Confirm step")
struct ConfirmStepTests {
    let options = try! JSONParser.parse(Samples.options)

    @Test func prefersTheFirstOptionMentioningAPreferredWord() throws {
        let choice = try #require(ConfirmStep.choose(from: options, by: ConfirmChoice(prefer: ["steps", "monkey bars"], position: 1)))
        #expect(choice.option["id"] == "walk-10k-steps")
        #expect(choice.note.contains("\"steps\""))
    }

    @Test func fallsBackToThePositionClampedToTheList() throws {
        #expect(ConfirmStep.choose(from: options, by: ConfirmChoice(prefer: ["swim"], position: 2))?.option["id"] == "monkey-bars-8-weeks")
        #expect(ConfirmStep.choose(from: options, by: ConfirmChoice(position: 4))?.option["id"] == "walk-10k-steps")
        #expect(ConfirmStep.choose(from: ["options": []], by: ConfirmChoice()) == nil)
    }
}

@Suite("Step runner")
struct StepRunnerTests {
    @Test func aValidFirstReplyPassesFirstTime() async throws {
        let provider = ScriptedProvider([.success(Samples.options)])
        let runner = StepRunner(provider: provider, prompts: try Repository.prompts())
        let result = await runner.run(id: .goalOptions, step: .goalOptions, input: StepInput(fixture: try Repository.fixture("busy-parent")))
        #expect(result.status == .valid)
        #expect(result.firstPassValid && !result.repaired)
        #expect(result.output?["options"]?.arrayValue?.count == 3)
        #expect(result.usage == TokenUsage(input: 100, output: 50))
    }

    @Test func anInvalidReplyGetsOneRepairThatSeesTheErrors() async throws {
        let tooFew = #"Here you go: ```json\n{"options": [{"id": "one-option", "summary": "Only one option here", "detail": "A single option, where three are needed."}]}\n```"#
        let provider = ScriptedProvider([.success(tooFew), .success(Samples.options)])
        let runner = StepRunner(provider: provider, prompts: try Repository.prompts())
        let result = await runner.run(id: .goalOptions, step: .goalOptions, input: StepInput(fixture: try Repository.fixture("busy-parent")))
        #expect(result.status == .valid)
        #expect(!result.firstPassValid && result.repaired)
        #expect(result.attempts.count == 2)
        #expect(result.attempts[0].problems.count == 1)
        let repair = try #require(provider.requests.last?.messages)
        #expect(repair.map(\.role) == [.user, .assistant, .user])
        #expect(repair[1].content == tooFew)
        #expect(repair[2].content.contains("/options"))
        #expect(repair[2].content.contains(result.attempts[0].problems[0]))
        #expect(result.attempts[0].responseText == tooFew, "the unusable reply is kept as it came, for the report and golden")
        #expect(result.attempts[1].responseText == "", "the used reply is the output; a run of thousands of steps does not hold it twice")
    }

    @Test func withoutRepairsAnInvalidReplyIsInvalid() async throws {
        let provider = ScriptedProvider([.success("{\"options\": \"none\"}")])
        let runner = StepRunner(provider: provider, prompts: try Repository.prompts(), repairAttempts: 0)
        let result = await runner.run(id: .goalOptions, step: .goalOptions, input: StepInput(fixture: try Repository.fixture("busy-parent")))
        #expect(result.status == .invalid)
        #expect(result.failure?.kind == .invalidOutput)
        #expect(provider.requests.count == 1)
    }

    /// The seed's own option form: `opt_N` ids, a detail left out. The base's reply schema
    /// asks a small model for slugs and a detail; the app takes this as it is.
    static let seedOptions = #"{"options": [{"id": "opt_1", "summary": "Feel more energetic with 3 short workouts a week", "detail": "20 minutes, three evenings."}, {"id": "opt_2", "summary": "Do the monkey bars with your kids in 8 weeks"}, {"id": "opt_3", "summary": "Walk 10,000 steps a day by June", "detail": "Build up by 1,000 a week."}]}"#

    @Test func aReplyTheReplySchemaRefusesButTheAppAcceptsIsUsedAndSaidToBe() async throws {
        let provider = ScriptedProvider([.success(Self.seedOptions), .success(Self.seedOptions)])
        let runner = StepRunner(provider: provider, prompts: try Repository.prompts())
        let result = await runner.run(id: .goalOptions, step: .goalOptions, input: StepInput(fixture: try Repository.fixture("busy-parent")))
        #expect(provider.requests.count == 2, "the repair still asks for what the reply schema wants")
        #expect(result.status == .valid)
        #expect(result.output?["options"]?.arrayValue?.first?["id"] == "opt_1")
        let intervention = try #require(result.interventions.first { $0.kind == Intervention.replyOutsideSchema })
        #expect(intervention.detail.contains("prompts/schemas/goal-options-v3.schema.json"), "\(intervention.detail)")
        #expect(intervention.detail.contains("/options/0/id"), "\(intervention.detail)")
        #expect(intervention.detail.contains("the app's contract accepts it"))
    }

    @Test func aReplyTheReplySchemaAcceptsButTheAppWouldNotIsInvalid() async throws {
        // A prompt set whose schema lets through what the app cannot decode: options without a summary.
        let project = try Repository.temporaryCopy(named: "contract")
        defer { try? FileManager.default.removeItem(at: project) }
        let loose = project.appendingPathComponent("prompts/schemas/goal-options-loose.schema.json")
        try #"{"type": "object", "required": ["options"], "properties": {"options": {"type": "array", "minItems": 3}}}"#
            .write(to: loose, atomically: true, encoding: .utf8)
        let metadata = project.appendingPathComponent("prompts/goal-options/variants/v5/prompt.yaml")
        let yaml = try String(contentsOf: metadata, encoding: .utf8).replacingOccurrences(of: "schema: goal-options-v3.schema.json", with: "schema: goal-options-loose.schema.json")
        try yaml.write(to: metadata, atomically: true, encoding: .utf8)
        let noSummaries = #"{"options": [{"id": "a"}, {"id": "b"}, {"id": "c"}]}"#
        let provider = ScriptedProvider([.success(noSummaries)])
        let layout = ProjectLayout(root: project)
        let runner = StepRunner(provider: provider, prompts: try PromptLibrary(layout: layout, variants: VariantSelection(resolving: ["v5"], layout: layout)))
        let result = await runner.run(id: .goalOptions, step: .goalOptions, input: StepInput(fixture: try Repository.fixture("busy-parent")))
        #expect(provider.requests.count == 1, "no repair is sent for the contract: the request asked for the reply schema")
        #expect(result.status == .invalid)
        #expect(result.failure?.message.hasPrefix("breaks the app's contract (prompts/schemas/contract/goal-options.schema.json): /options/0: missing required property `summary`") == true, "\(result.failure?.message ?? "")")
    }

    @Test func truncatedJSONIsReportedAsTruncated() async throws {
        let provider = ScriptedProvider([.success(#"{"options": [{"id": "a", "summ"#)])
        let runner = StepRunner(provider: provider, prompts: try Repository.prompts(), repairAttempts: 0)
        let result = await runner.run(id: .goalOptions, step: .goalOptions, input: StepInput(fixture: try Repository.fixture("busy-parent")))
        #expect(result.status == .invalid)
        #expect(result.attempts.first?.problems.first?.contains("truncated") == true)
    }

    @Test func aProviderErrorIsClassified() async throws {
        let provider = ScriptedProvider([.failure(ProviderError(kind: .rateLimited, provider: "scripted", status: 429, message: "slow down"))])
        let runner = StepRunner(provider: provider, prompts: try Repository.prompts())
        let result = await runner.run(id: .goalOptions, step: .goalOptions, input: StepInput(fixture: try Repository.fixture("busy-parent")))
        #expect(result.status == .error)
        #expect(result.failure == StepFailure(kind: .init("rate-limited"), message: "slow down"))
    }
}

@Suite("Pipeline")
struct PipelineTests {
    @Test func runsEveryStepInOrderAndHandsOutputsDown() async throws {
        let fixture = try Repository.fixture("busy-parent")
        let edits = fixture.scenario.optionEdits.count
        let provider = ScriptedProvider(
            [.success(Samples.options)] + Array(repeating: .success(Samples.options), count: edits)
                + [.success(Samples.program), .success(Samples.program)])
        let pipeline = Pipeline(runner: StepRunner(provider: provider, prompts: try Repository.prompts()))
        let result = await pipeline.run(fixture)
        let expected = ["goal-options"] + (1...max(1, edits)).prefix(edits).map { "goal-options-edit-\($0)" } + ["confirm", "program-draft", "program-edit"]
        #expect(result.steps.map(\.id.description) == expected)
        #expect(result.steps.allSatisfy { $0.status == .valid })
        // Confirm picked by the scenario's preference, and the draft saw that goal.
        let confirm = try #require(result.steps.first { $0.id == .confirm })
        #expect(confirm.output?["id"] == "energy-3x-week")
        let draftRequest = try #require(provider.requests.dropLast().last)
        #expect(draftRequest.messages[0].content.contains("energy-3x-week"))
        // The edit saw the drafted program and the scenario's feedback.
        let editRequest = try #require(provider.requests.last)
        #expect(editRequest.messages[0].content.contains("Evening Energy"))
        #expect(editRequest.messages[0].content.contains("herd of elephants"))
    }

    @Test func aFailedStepSkipsWhatDependsOnItWithAReason() async throws {
        let fixture = try Repository.fixture("busy-parent")
        let provider = ScriptedProvider([.failure(ProviderError(kind: .serverError, provider: "scripted", status: 500, message: "boom"))])
        let pipeline = Pipeline(runner: StepRunner(provider: provider, prompts: try Repository.prompts()))
        let result = await pipeline.run(fixture)
        #expect(result.steps.first?.status == .error)
        let skipped = result.steps.dropFirst()
        #expect(!skipped.isEmpty)
        #expect(skipped.allSatisfy { $0.status == .skipped && $0.note != nil })
        #expect(provider.requests.count == 1)
    }

    @Test func stopsAfterTheSelectedStep() async throws {
        let fixture = try Repository.fixture("minimal-record")
        let provider = ScriptedProvider([.success(Samples.options)])
        let pipeline = Pipeline(runner: StepRunner(provider: provider, prompts: try Repository.prompts()), lastStep: .goalOptions)
        let result = await pipeline.run(fixture)
        #expect(result.steps.first?.status == .valid)
        #expect(result.steps.dropFirst().allSatisfy { $0.status == .skipped && $0.note?.contains("--until goal-options") == true })
        #expect(provider.requests.count == 1)
    }

    @Test func runsManyFixturesConcurrentlyKeepingTheirOrder() async throws {
        let corpus = try FixtureCorpus(layout: Repository.layout)
        let fixtures = try corpus.load(names: ["minimal-record", "busy-parent", "teenager"])
        let provider = ScriptedProvider(Array(repeating: .success(Samples.options), count: 3))
        let pipeline = Pipeline(runner: StepRunner(provider: provider, prompts: try Repository.prompts()), lastStep: .goalOptions)
        let results = await pipeline.run(fixtures, jobs: 3)
        #expect(results.map(\.fixture) == ["minimal-record", "busy-parent", "teenager"])
        #expect(results.allSatisfy { $0.steps.first?.firstPassValid == true })
    }
}
