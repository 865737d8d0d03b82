import Foundation
import Intake
import JSONSchema
import Providers
@testable import Storage
import Testing
import TestSupport

@testable import Replay

/// Under `run --repeat N` every repeat is its own call: recorded with its number,
/// replayed from its own recording, and stale when that recording is missing.
@Suite("Recording and replaying repeats")
struct RepeatRecordingTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")

    static func request(repeatNumber: Int, user: String = "Hello") -> CompletionRequest {
        CompletionRequest(
            system: "You are a coach.", messages: [ChatMessage(role: .user, content: user)], responseSchema: ["type": "object"],
            temperature: 0.7, maxTokens: 100,
            context: CallContext(fixture: "sam", step: "goal-options", provenance: ["template": "1"], repeatNumber: repeatNumber))
    }

    /// Following the hint must record the variant's own cassette, for this fixture up
    /// to this step, never the base's.
    @Test func aMissingVariantRecordingNamesTheVariantsFileAndKeepsItsScope() async throws {
        let track = VariantTrack(label: "goal-options=short", firstStep: .goalOptions)
        let store = VariantCassetteStore(base: MemoryCassetteStore(), variant: MemoryCassetteStore(), track: track)
        let missing = await #expect(throws: ProviderError.self) { try await ReplayProvider(store: store).complete(Self.request(repeatNumber: 1)) }
        #expect(missing?.message == "no recording golden/variants/goal-options=short/sam/goal-options.cassette.json; record it with "
            + "`trainer-eval run --provider local --record-missing --fixture sam --until goal-options --variant goal-options=short`")
    }

    @Test func eachRepeatIsRecordedAndReplayedOnItsOwn() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CassetteStore(folder: folder)
        let live = liveProvider(["{\"first\": 1}", "{\"second\": 2}"])
        let recorder = RecordingProvider(recording: live, into: store)
        #expect(try await recorder.complete(Self.request(repeatNumber: 1)).text == "{\"first\": 1}")
        #expect(try await recorder.complete(Self.request(repeatNumber: 2)).text == "{\"second\": 2}")
        #expect(live.calls == 2, "the same request twice is two calls: nothing on the live path answers from memory")

        let text = try String(contentsOf: store.url(StepKey(fixture: "sam", step: "goal-options")), encoding: .utf8)
        #expect(text.components(separatedBy: "\"repeat\"").count == 2, "only the second repeat is numbered in the file")
        #expect(try store.cassette(StepKey(fixture: "sam", step: "goal-options"))?.recordedRepeats == [1, 2])

        let replay = ReplayProvider(store: store)
        #expect(try await replay.complete(Self.request(repeatNumber: 1)).text == "{\"first\": 1}")
        #expect(try await replay.complete(Self.request(repeatNumber: 2)).text == "{\"second\": 2}")

        let missing = await #expect(throws: ProviderError.self) { try await replay.complete(Self.request(repeatNumber: 3)) }
        #expect(missing?.kind == .missingRecording)
        #expect(missing?.causes == ["no recording of repeat 3"])
        #expect(missing?.message == "golden/sam/goal-options.cassette.json has no recording of repeat 3 (only of repeats 1, 2); "
            + "record it with `trainer-eval run --provider local --record-missing --repeat 3 --fixture sam --until goal-options`")

        // A changed request is stale as before, whatever the repeat.
        let stale = await #expect(throws: ProviderError.self) { try await replay.complete(Self.request(repeatNumber: 2, user: "Changed")) }
        #expect(stale?.kind == .staleRecording)
    }

    @Test func recordingWhatIsMissingAddsARepeatAndKeepsTheOthers() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CassetteStore(folder: folder)
        let first = RecordingProvider(recording: liveProvider(["{\"first\": 1}", "{\"third\": 3}"]), into: store)
        _ = try await first.complete(Self.request(repeatNumber: 1))
        _ = try await first.complete(Self.request(repeatNumber: 3))

        let live = liveProvider(["{\"second\": 2}"])
        let resuming = RecordingProvider(recording: live, into: store, onlyMissing: true)
        #expect(try await resuming.complete(Self.request(repeatNumber: 1)).text == "{\"first\": 1}")
        #expect(try await resuming.complete(Self.request(repeatNumber: 2)).text == "{\"second\": 2}")
        #expect(live.calls == 1, "only the missing repeat is called")
        let cassette = try #require(try store.cassette(StepKey(fixture: "sam", step: "goal-options")))
        #expect(cassette.recordedRepeats == [1, 2, 3])
        let answers = Dictionary(uniqueKeysWithValues: cassette.interactions.map { ($0.repeatNumber, $0.response.text) })
        #expect(answers == [1: "{\"first\": 1}", 2: "{\"second\": 2}", 3: "{\"third\": 3}"])
    }

    /// The committed recordings were made before repeats: they read as repeat 1 and
    /// write back byte for byte, so none of them needs rewriting.
    @Test func committedCassettesAreRepeatOneAndUnchangedByAReadAndWrite() throws {
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("golden")
        let store = CassetteStore(folder: golden)
        let entries = store.entries()
        #expect(entries.count > 20)
        for entry in entries.prefix(40) {
            let file = try Data(contentsOf: store.url(entry))
            let cassette = try #require(try store.cassette(entry))
            #expect(cassette.recordedRepeats == [1], "\(entry)")
            #expect(try CassetteStore.contents(of: cassette) == file, "\(entry) would be rewritten")
        }
    }
}
