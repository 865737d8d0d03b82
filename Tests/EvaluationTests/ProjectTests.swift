import Evaluation
import Foundation
import Intake
import Pipeline
import Providers
import Testing
import TestSupport

/// The provider stack a project assembles from its settings, against a real server on loopback.
struct ProjectTests {
    static func project() throws -> Project {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("project-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("golden"), withIntermediateDirectories: true)
        return Project(layout: ProjectLayout(root: root))
    }

    static func request(_ user: String) -> CompletionRequest {
        CompletionRequest(
            system: "You are a coach.", messages: [ChatMessage(role: .user, content: user)], responseSchema: ["type": "object"],
            schemaName: "goal_options", temperature: 0, maxTokens: 50, seed: 1,
            context: CallContext(fixture: "sam", step: "goal-options", provenance: ["template": "1"]))
    }

    static let reply = #"{"id": "c", "object": "chat.completion", "model": "m", "choices": [{"index": 0, "message": {"role": "assistant", "content": "{}"}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 9, "completion_tokens": 2, "total_tokens": 11}}"#

    @Test func aLiveStackRecordsWhatItIsAskedAndStopsAtItsBudgetThenReplaysOffline() async throws {
        let project = try Self.project()
        defer { try? FileManager.default.removeItem(at: project.layout.root) }
        let server = try LoopbackServer(answering: .json(Self.reply))
        defer { server.stop() }
        var settings = ProviderSettings(configuration: ProviderConfiguration(preset: .openaiCompatible, baseURL: server.url("/v1")))
        settings.recording = .missing
        settings.maxCalls = 1
        let live = try project.provider(settings, track: nil, prices: PriceTable())

        _ = try await live.complete(Self.request("first"))
        #expect(FileManager.default.fileExists(atPath: project.layout.golden.appendingPathComponent("sam/goal-options.cassette.json").path))
        await #expect(throws: ProviderError.self) { try await live.complete(Self.request("second")) }
        #expect(server.requestCount == 1, "the budget of one call held")

        let replay = try project.provider(ProviderSettings(), track: nil, prices: PriceTable())
        let replayed = try await replay.complete(Self.request("first"))
        #expect(replayed.text == "{}")
        #expect(server.requestCount == 1, "replay never calls the server")
    }

    @Test func aCostCapOnAModelWithNoPriceIsRefusedBeforeAnyCall() throws {
        let project = try Self.project()
        defer { try? FileManager.default.removeItem(at: project.layout.root) }
        var settings = ProviderSettings(configuration: ProviderConfiguration(preset: .openaiCompatible, model: "unpriced"))
        settings.maxCost = 1
        #expect(throws: (any Error).self) { try project.provider(settings, track: nil, prices: PriceTable()) }
    }
}
