import Foundation
import Intake
import JSONSchema
import Providers
@testable import Storage
import Testing

/// A recording is found by its key, so the key's definition must never drift:
/// if it did, every committed cassette would turn stale at once.
@Suite("Cassette keys")
struct CassetteKeyTests {
    static let goldenFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("golden")

    @Test func everyCommittedRecordingIsFoundByTheKeyItWasStoredUnder() throws {
        let store = CassetteStore(folder: Self.goldenFolder)
        let entries = store.entries()
        #expect(entries.count >= 17)
        for entry in entries {
            let cassette = try #require(try store.cassette(entry))
            for interaction in cassette.interactions {
                #expect(interaction.request.key == interaction.key, "\(entry.fixture)/\(entry.step)")
            }
        }
    }

    /// The canonical form the key hashes is what `JSONEncoder` writes with sorted
    /// keys, for text that exercises every escaping rule.
    @Test(arguments: [
        "plain", "quote \" backslash \\ slash / tab \t newline \n return \r", "controls \u{01}\u{08}\u{0C}\u{1F}\u{7F}",
        "<intake_data>tags</intake_data>", "accents é ñ ü, emoji 🏋️‍♀️, CJK 训练, separators \u{2028}\u{2029}", "",
    ])
    func theKeyHashesTheSameTextAsTheRequestsCodableForm(text: String) throws {
        for (seed, schema) in [(42, JSONValue.object(JSONObject([.init(key: "type", value: .string("object"))]))), (nil, nil)] as [(Int?, JSONValue?)] {
            let request = RecordedRequest(
                CompletionRequest(
                    system: text, messages: [ChatMessage(role: .user, content: text), ChatMessage(role: .assistant, content: "{}")],
                    responseSchema: schema, schemaName: "goal_options", temperature: 0.2, maxTokens: 1800, seed: seed),
                provider: "openai-compatible", model: text)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let encoded = try encoder.encode(request)
            #expect(request.canonicalJSON.serialized(RecordedRequest.keyFormat) == String(decoding: encoded, as: UTF8.self))
            #expect(request.key == SHA256Digest.hex(of: encoded))
        }
    }
}
