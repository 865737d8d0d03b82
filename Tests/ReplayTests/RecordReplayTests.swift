import Foundation
import Intake
import JSONSchema
import Providers
@testable import Storage
import Testing
import TestSupport

@testable import Replay

/// A live provider stand-in that answers in order and counts its calls.
func liveProvider(_ replies: [String]) -> ScriptedProvider {
    ScriptedProvider(
        replies.map { .success($0) }, kind: "openai-compatible", model: "test-model", usage: TokenUsage(input: 10, output: 5), latency: 1.5)
}

@Suite("Record and replay")
struct RecordReplayTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")

    func request(user: String = "Hello", temperature: Double = 0.2, provenance: [String: String] = ["template": "1"]) -> CompletionRequest {
        CompletionRequest(
            system: "You are a coach.\nBe brief.", messages: [ChatMessage(role: .user, content: user)],
            responseSchema: ["type": "object"], schemaName: "goal_options", temperature: temperature, maxTokens: 100,
            seed: 42, context: CallContext(fixture: "sam", step: "goal-options", provenance: provenance))
    }

    @Test func recordsEachStepToItsOwnReadableFileAndReplaysIt() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CassetteStore(folder: folder)
        let live = liveProvider(["{\"options\": []}", "{\"options\": [1]}"])
        let recorder = RecordingProvider(recording: live, into: store)
        _ = try await recorder.complete(request())
        var repair = request()
        repair.messages += [ChatMessage(role: .assistant, content: "{\"options\": []}"), ChatMessage(role: .user, content: "Fix it")]
        _ = try await recorder.complete(repair)

        let file = folder.appendingPathComponent("sam/goal-options.cassette.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains("\"system\" : \"You are a coach.\\nBe brief.\"") || text.contains("\"system\": \"You are a coach.\\nBe brief.\""))
        let cassette = try #require(try store.cassette(StepKey(fixture: "sam", step: "goal-options")))
        #expect(cassette.interactions.count == 2)
        #expect(cassette.provider == "openai-compatible" && cassette.model == "test-model")

        let replay = ReplayProvider(store: store)
        #expect(try await replay.complete(request()).text == "{\"options\": []}")
        #expect(try await replay.complete(repair).text == "{\"options\": [1]}")
        #expect(try await replay.complete(request()).latency == 1.5)
        #expect(live.calls == 2)
    }

    @Test func recordingOnlyWhatIsMissingReusesMatchingCalls() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CassetteStore(folder: folder)
        _ = try await RecordingProvider(recording: liveProvider(["{\"first\": 1}"]), into: store).complete(request())

        let live = liveProvider(["{\"second\": 2}"])
        let resuming = RecordingProvider(recording: live, into: store, onlyMissing: true)
        #expect(try await resuming.complete(request()).text == "{\"first\": 1}")
        #expect(live.calls == 0)
        #expect(try await resuming.complete(request(user: "Changed")).text == "{\"second\": 2}")
        #expect(live.calls == 1)
        let cassette = try #require(try store.cassette(StepKey(fixture: "sam", step: "goal-options")))
        #expect(cassette.interactions.map(\.response.text) == ["{\"first\": 1}", "{\"second\": 2}"])
    }

    @Test func aMissingRecordingSaysHowToRecordIt() async throws {
        let replay = ReplayProvider(store: CassetteStore(folder: folder))
        let error = await #expect(throws: ProviderError.self) { try await replay.complete(request()) }
        #expect(error?.kind == .missingRecording)
        #expect(error?.message.contains("golden/sam/goal-options.cassette.json") == true)
        #expect(error?.message.contains("--record") == true)
    }

    @Test func aChangedRequestIsStaleAndSaysWhatChanged() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CassetteStore(folder: folder)
        _ = try await RecordingProvider(recording: liveProvider(["{}"]), into: store).complete(request())
        let replay = ReplayProvider(store: store)

        let edited = request(user: "Hello there", provenance: ["template": "2"])
        let error = await #expect(throws: ProviderError.self) { try await replay.complete(edited) }
        #expect(error?.kind == .staleRecording)
        let message = error?.message ?? ""
        #expect(message.contains("changed: template"))
        #expect(!message.contains("\n"), "the message is one line; the diff is its detail")
        #expect(error?.causes == ["template"])
        #expect(error?.detail?.contains("-Hello\n+Hello there") == true)

        let warmer = await #expect(throws: ProviderError.self) { try await replay.complete(request(temperature: 0.7)) }
        #expect(warmer?.message.contains("temperature (0.2 → 0.7)") == true)
    }

    /// A reply recorded as pretty JSON is no answer to a request for compact JSON, and
    /// the other way round; a request without it keeps the key it always had.
    @Test func compactJSONIsPartOfTheRequest() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CassetteStore(folder: folder)
        _ = try await RecordingProvider(recording: liveProvider(["{}"]), into: store).complete(request())
        var compact = request()
        compact.compactJSON = true
        let error = await #expect(throws: ProviderError.self) { try await ReplayProvider(store: store).complete(compact) }
        #expect(error?.kind == .staleRecording && error?.causes == ["compact_json (false → true)"], "\(error?.message ?? "")")
        let plain = Storage.RecordedRequest(request(), provider: "p", model: "m")
        #expect(!String(decoding: plain.canonicalJSON.serializedBytes(Storage.RecordedRequest.keyFormat), as: UTF8.self).contains("compactJSON"))
        #expect(Storage.RecordedRequest(compact, provider: "p", model: "m").key != plain.key)
    }

    @Test func aCorruptCassetteIsReportedNotCrashedOn() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("sam/goal-options.cassette.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{\"formatVersion\": 1, \"interactions\": [".utf8).write(to: file)
        let error = await #expect(throws: ProviderError.self) { try await ReplayProvider(store: CassetteStore(folder: folder)).complete(request()) }
        #expect(error?.message.contains("cannot be read") == true)
    }

    @Test func aCassetteWithAWrongFieldSaysWhichField() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorder = RecordingProvider(recording: liveProvider(["{}"]), into: CassetteStore(folder: folder))
        _ = try await recorder.complete(request())
        let file = folder.appendingPathComponent("sam/goal-options.cassette.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        let broken = text.replacingOccurrences(of: #""latency" : 1.5"#, with: #""latency" : "fast""#)
        #expect(broken != text)
        try broken.write(to: file, atomically: true, encoding: .utf8)
        let error = await #expect(throws: ProviderError.self) { try await ReplayProvider(store: CassetteStore(folder: folder)).complete(request()) }
        #expect(error?.message.contains("interactions[0].response.latency: Expected Double but found string instead.") == true, "\(error?.message ?? "")")
    }

    @Test func theKeyIgnoresWhereTheCallCameFromButNotWhatItAsks() {
        var other = request()
        other.context = CallContext(fixture: "someone-else", step: "program-draft")
        let key = RecordedRequest(request(), provider: "p", model: "m").key
        #expect(RecordedRequest(other, provider: "p", model: "m").key == key)
        #expect(RecordedRequest(request(), provider: "p", model: "m2").key != key)
        #expect(RecordedRequest(request(user: "Hi"), provider: "p", model: "m").key != key)
        #expect(key.count == 64)
    }
}
