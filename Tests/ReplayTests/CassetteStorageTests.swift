import Foundation
import Intake
import JSONSchema
import Providers
@testable import Storage
import Testing
import TestSupport

@testable import Replay

/// Cassettes on disk and in memory record and replay alike.
@Suite("Cassette storage")
struct CassetteStorageTests {
    enum Backing: String, CaseIterable, CustomTestStringConvertible {
        case disk, memory
        var testDescription: String { rawValue }
    }

    static func request(fixture: String = "sam", step: String = "goal-options", user: String = "Hello") -> CompletionRequest {
        CompletionRequest(
            system: "You are a coach.", messages: [ChatMessage(role: .user, content: user)], responseSchema: ["type": "object"],
            temperature: 0.2, maxTokens: 100, seed: 42, context: CallContext(fixture: fixture, step: step, provenance: ["template": "1"]))
    }

    @Test(arguments: Backing.allCases)
    func recordedCallsReplayTheSame(backing: Backing) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store: any CassetteStorage = backing == .disk ? CassetteStore(folder: folder) : MemoryCassetteStore()

        #expect(try store.cassette(StepKey(fixture: "sam", step: "goal-options")) == nil)
        #expect(try store.replayable(StepKey(fixture: "sam", step: "goal-options")) == nil)
        #expect(store.entries().isEmpty)

        let live = liveProvider(["{\"options\": []}", "{\"title\": \"Plan\"}", "{\"options\": [1]}"])
        let recorder = RecordingProvider(recording: live, into: store)
        _ = try await recorder.complete(Self.request())
        _ = try await recorder.complete(Self.request(step: "program-draft"))
        _ = try await recorder.complete(Self.request(fixture: "amy"))
        #expect(store.entries().map(\.description) == ["amy/goal-options", "sam/goal-options", "sam/program-draft"])

        // Read back as the file holds it: the time to the second, every interaction in order.
        let cassette = try #require(try store.cassette(StepKey(fixture: "sam", step: "goal-options")))
        #expect(cassette.provider == "openai-compatible" && cassette.model == "test-model")
        #expect(cassette.recordedAt.timeIntervalSince1970 == cassette.recordedAt.timeIntervalSince1970.rounded(.down))
        #expect(cassette.interactions.map(\.response.text) == ["{\"options\": []}"])
        let replayable = try #require(try store.replayable(StepKey(fixture: "sam", step: "goal-options")))
        #expect(replayable.response(forKey: cassette.interactions[0].key)?.latency == 1.5)

        let replay = ReplayProvider(store: store)
        #expect(try await replay.complete(Self.request(step: "program-draft")).text == "{\"title\": \"Plan\"}")
        let stale = await #expect(throws: ProviderError.self) { try await replay.complete(Self.request(user: "Changed")) }
        #expect(stale?.kind == .staleRecording)
        let missing = await #expect(throws: ProviderError.self) { try await replay.complete(Self.request(step: "program-edit")) }
        #expect(missing?.kind == .missingRecording)
    }

    @Test(arguments: Backing.allCases)
    func aDamagedCassetteIsUnreadable(backing: Backing) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let damaged = Data("{\"provider\": \"local\"".utf8)
        let store: any CassetteStorage
        switch backing {
        case .disk:
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("sam"), withIntermediateDirectories: true)
            try damaged.write(to: folder.appendingPathComponent("sam/goal-options.cassette.json"))
            store = CassetteStore(folder: folder)
        case .memory:
            let memory = MemoryCassetteStore()
            memory.write(damaged, for: StepKey(fixture: "sam", step: "goal-options"))
            store = memory
        }
        let error = #expect(throws: CassetteError.self) { try store.replayable(StepKey(fixture: "sam", step: "goal-options")) }
        #expect(error?.description.hasPrefix("The cassette golden/sam/goal-options.cassette.json cannot be read") == true)
        #expect(store.entries().map(\.description) == ["sam/goal-options"])
    }
}
