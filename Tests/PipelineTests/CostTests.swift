import Foundation
import Intake
import JSONSchema
import Providers
import TestSupport
import Testing

@testable import Pipeline

/// A throwaway project folder holding only `prompts/prices.yaml`.
struct PriceFolder {
    let layout: ProjectLayout

    init(prices: String?) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("prices-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("prompts"), withIntermediateDirectories: true)
        if let prices {
            try prices.write(to: root.appendingPathComponent("prompts/prices.yaml"), atomically: true, encoding: .utf8)
        }
        layout = ProjectLayout(root: root)
    }

    /// A copy of this repository's own price file.
    static func real() throws -> PriceFolder {
        try PriceFolder(prices: String(contentsOf: Repository.layout.prompts.appendingPathComponent("prices.yaml"), encoding: .utf8))
    }

    func remove() {
        try? FileManager.default.removeItem(at: layout.root)
    }
}

@Suite("Price table")
struct PriceTableTests {
    @Test func loadsTheRealPriceFile() throws {
        let folder = try PriceFolder.real()
        defer { folder.remove() }
        let table = try PriceTable.load(layout: folder.layout)
        let text = try String(contentsOf: folder.layout.prompts.appendingPathComponent("prices.yaml"), encoding: .utf8)
        let entries = text.split(separator: "\n").filter { !$0.hasPrefix("#") && $0.contains(":") }
        #expect(table.prices.count == entries.count)
        #expect(table.prices["gpt-4.1-mini"] == PriceTable.Price(input: 0.40, output: 1.60))
        #expect(table.prices["claude-sonnet-4-5"] == PriceTable.Price(input: 3.00, output: 15.00))
        #expect(table.prices["gemini-2.5-flash"] == PriceTable.Price(input: 0.30, output: 2.50))
        #expect(table.prices["qwen2.5-coder-1.5b-instruct-q4_k_m"] == PriceTable.Price(input: 0, output: 0))
    }

    @Test("a missing or empty price file is an empty table", arguments: [nil, "", "# no prices yet\n"])
    func emptyTable(prices: String?) throws {
        let folder = try PriceFolder(prices: prices)
        defer { folder.remove() }
        #expect(try PriceTable.load(layout: folder.layout).prices.isEmpty)
    }

    @Test func aModelMissingFromTheTableHasNoCostNotZero() throws {
        let folder = try PriceFolder.real()
        defer { folder.remove() }
        let table = try PriceTable.load(layout: folder.layout)
        #expect(table.cost(model: "gpt-5-unlisted", usage: TokenUsage(input: 1000, output: 1000)) == nil)
        #expect(table.cost(model: "qwen2.5-coder-1.5b-instruct-q4_k_m", usage: TokenUsage(input: 1000, output: 1000)) == 0,
                "a listed free model costs 0")
    }

    /// Prices are US dollars per million tokens; the expected figures are worked out by hand.
    @Test("prices per million input and output tokens", arguments: [
        ("gpt-4.1-mini", TokenUsage(input: 2_500, output: 400), 0.00164),
        ("claude-sonnet-4-5", TokenUsage(input: 1_000_000, output: 1_000_000), 18.0),
        ("gemini-2.5-flash", TokenUsage(input: 200_000, output: 40_000), 0.16),
        ("gemini-2.5-flash", TokenUsage(input: 95, output: 264, reasoning: 240), 0.0006885),
        ("gpt-4.1", TokenUsage(input: 0, output: 0), 0.0),
    ])
    func exactCost(model: String, usage: TokenUsage, dollars: Double) throws {
        let folder = try PriceFolder.real()
        defer { folder.remove() }
        #expect(try PriceTable.load(layout: folder.layout).cost(model: model, usage: usage) == dollars)
    }

    struct Malformed: Sendable, CustomTestStringConvertible {
        let name: String
        let text: String
        /// The start of the error's description: file and line.
        let place: String
        let says: String
        var testDescription: String { name }
    }

    static let malformed: [Malformed] = [
        Malformed(name: "missing output", text: "gpt-4.1-mini: {input: 0.40, output: 1.60}\ngpt-4.1: {input: 2.00}\n",
                  place: "prompts/prices.yaml:2:", says: "`gpt-4.1` has no `output` price; add `output: N`"),
        Malformed(name: "price as text", text: "gpt-4.1: {input: cheap, output: 8.00}\n",
                  place: "prompts/prices.yaml:1:", says: "`gpt-4.1`: `input` is \"cheap\"; it must be a number of US dollars per million tokens"),
        Malformed(name: "negative price", text: "gpt-4.1:\n  input: 2.00\n  output: -8\n",
                  place: "prompts/prices.yaml:3:", says: "`gpt-4.1`: `output` is -8; it must be a number"),
        Malformed(name: "a bare number", text: "gpt-4.1: 2.00\n",
                  place: "prompts/prices.yaml:1:", says: "`gpt-4.1` must be a mapping {input: N, output: N}"),
        Malformed(name: "a list", text: "- gpt-4.1\n",
                  place: "prompts/prices.yaml:1:", says: "expected a mapping of model name to {input: N, output: N}"),
        Malformed(name: "YAML syntax", text: "gpt-4.1: {input: 2.00, output: [8.00}\n",
                  place: "prompts/prices.yaml:", says: "YAML syntax"),
    ]

    @Test("a malformed price file names the file, the line and the field", arguments: malformed)
    func malformedFile(_ example: Malformed) throws {
        let folder = try PriceFolder(prices: example.text)
        defer { folder.remove() }
        let error = #expect(throws: PromptError.self) { try PriceTable.load(layout: folder.layout) }
        let description = try #require(error?.description)
        #expect(description.hasPrefix(example.place), "\(description)")
        #expect(description.contains(example.says), "\(description)")
    }
}

/// The cost a step reports, from real providers answering over a loopback server.
@Suite("Step cost")
struct StepCostTests {
    static func completion(_ content: String, input: Int, output: Int) -> String {
        let escaped = JSONValue.string(content).serialized()
        return #"{"object": "chat.completion", "model": "gpt-4.1-mini-2025-04-14", "choices": [{"index": 0, "message": {"role": "assistant", "content": "# + escaped
            + #"}, "finish_reason": "stop"}], "usage": {"prompt_tokens": \#(input), "completion_tokens": \#(output)}}"#
    }

    static func prices() throws -> PriceTable {
        let folder = try PriceFolder.real()
        defer { folder.remove() }
        return try PriceTable.load(layout: folder.layout)
    }

    static func openAI(_ server: LoopbackServer, model: String) -> OpenAICompatibleProvider {
        OpenAICompatibleProvider(
            baseURL: server.url("/v1"), model: model, apiKey: nil, transport: CurlTransport(deadline: Patience.seconds, connectTimeout: Patience.seconds))
    }

    @Test func aStepCostsItsTokensAtTheModelsPrice() async throws {
        let server = try LoopbackServer(answering: .json(Self.completion(Samples.options, input: 2_500, output: 400)))
        defer { server.stop() }
        let runner = StepRunner(provider: Self.openAI(server, model: "gpt-4.1-mini"), prompts: try Repository.prompts(), prices: try Self.prices())
        let result = await runner.run(id: .goalOptions, step: .goalOptions, input: StepInput(fixture: try Repository.fixture("busy-parent")))
        #expect(result.status == .valid)
        #expect(result.usage == TokenUsage(input: 2_500, output: 400))
        #expect(result.cost == 0.00164)
    }

    @Test func aRepairedStepCostsBothCalls() async throws {
        let invalid = #"{"options": [{"id": "only-one", "summary": "Just one option here", "detail": ""}]}"#
        let server = try LoopbackServer(responses: [
            .json(Self.completion(invalid, input: 2_000, output: 100)),
            .json(Self.completion(Samples.options, input: 2_500, output: 400)),
        ])
        defer { server.stop() }
        let runner = StepRunner(provider: Self.openAI(server, model: "gpt-4.1-mini"), prompts: try Repository.prompts(), prices: try Self.prices())
        let result = await runner.run(id: .goalOptions, step: .goalOptions, input: StepInput(fixture: try Repository.fixture("busy-parent")))
        #expect(result.status == .valid && result.repaired)
        #expect(server.requestCount == 2)
        // (4,500 × $0.40 + 500 × $1.60) / 1,000,000
        #expect(result.cost == 0.0026)
    }

    @Test func aModelWithoutAPriceHasNoCost() async throws {
        let server = try LoopbackServer(answering: .json(Self.completion(Samples.options, input: 2_500, output: 400)))
        defer { server.stop() }
        let runner = StepRunner(provider: Self.openAI(server, model: "unlisted-model"), prompts: try Repository.prompts(), prices: try Self.prices())
        let result = await runner.run(id: .goalOptions, step: .goalOptions, input: StepInput(fixture: try Repository.fixture("busy-parent")))
        #expect(result.status == .valid)
        #expect(result.cost == nil)
    }

    /// Gemini 2.5 bills its thoughts as output: 95 × $0.30 + (24 + 240) × $2.50 per million.
    @Test func geminiThinkingIsBilledAsOutput() async throws {
        let reply = JSONValue.string(Samples.options).serialized()
        let body = #"{"candidates": [{"content": {"parts": [{"text": "# + reply + #"}], "role": "model"}, "finishReason": "STOP", "index": 0}], "usageMetadata": {"promptTokenCount": 95, "candidatesTokenCount": 24, "totalTokenCount": 359, "thoughtsTokenCount": 240}, "modelVersion": "gemini-2.5-flash"}"#
        let server = try LoopbackServer(answering: .json(body))
        defer { server.stop() }
        let provider = GeminiProvider(
            baseURL: server.url("/v1beta"), model: "gemini-2.5-flash", apiKey: "test-key",
            transport: CurlTransport(deadline: Patience.seconds, connectTimeout: Patience.seconds))
        let runner = StepRunner(provider: provider, prompts: try Repository.prompts(), prices: try Self.prices())
        let result = await runner.run(id: .goalOptions, step: .goalOptions, input: StepInput(fixture: try Repository.fixture("busy-parent")))
        #expect(result.status == .valid)
        #expect(result.usage == TokenUsage(input: 95, output: 264, reasoning: 240))
        #expect(result.cost == 0.0006885)
    }

    /// A whole fixture through the pipeline: every model step has its cost, and the
    /// deterministic confirm step has none.
    @Test func everyModelStepOfAFixtureHasItsCost() async throws {
        let server = try LoopbackServer { request in
            let answer = request.bodyText.contains("\"program_") ? Samples.program : Samples.options
            return .json(Self.completion(answer, input: 1_000, output: 200))
        }
        defer { server.stop() }
        let runner = StepRunner(provider: Self.openAI(server, model: "gpt-4.1-mini"), prompts: try Repository.prompts(), prices: try Self.prices())
        let result = await Pipeline(runner: runner, runsChecks: false).run(try Repository.fixture("minimal-record"))

        // (1,000 × $0.40 + 200 × $1.60) / 1,000,000 per call
        let modelSteps = result.steps.filter { $0.step != nil }
        #expect(modelSteps.count == 3)
        #expect(modelSteps.allSatisfy { $0.status == .valid && $0.cost == 0.00072 }, "\(modelSteps.map { "\($0.id): \($0.status) \(String(describing: $0.cost))" })")
        #expect(result.steps.first { $0.id == .confirm }?.cost == nil)
    }
}
