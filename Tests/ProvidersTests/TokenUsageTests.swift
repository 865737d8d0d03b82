import Foundation
import Providers
import Testing

@Suite("Token usage")
struct TokenUsageTests {
    @Test func readsRecordingsMadeBeforeReasoningWasCounted() throws {
        let usage = try JSONDecoder().decode(TokenUsage.self, from: Data(#"{"input": 900, "output": 120}"#.utf8))
        #expect(usage == TokenUsage(input: 900, output: 120, reasoning: 0))
    }

    @Test func writesReasoningOnlyWhenThereIsSome() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(TokenUsage(input: 900, output: 120)), as: UTF8.self) == #"{"input":900,"output":120}"#)
        let thinking = TokenUsage(input: 95, output: 264, reasoning: 240)
        #expect(String(decoding: try encoder.encode(thinking), as: UTF8.self) == #"{"input":95,"output":264,"reasoning":240}"#)
        #expect(try JSONDecoder().decode(TokenUsage.self, from: encoder.encode(thinking)) == thinking)
    }

    @Test func sumsEveryCount() {
        let sum = TokenUsage(input: 95, output: 264, reasoning: 240) + TokenUsage(input: 10, output: 5)
        #expect(sum == TokenUsage(input: 105, output: 269, reasoning: 240))
        #expect(sum.total == 374, "reasoning is inside output, never counted twice")
    }
}
