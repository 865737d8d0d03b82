import Checks
import Foundation
import Intake
import JSONSchema
import Providers
import Testing

@testable import Pipeline

/// A step result is read straight from the parsed value (a large run reads tens of
/// thousands back from its step cache) exactly as `Decodable` reads it; a value it
/// cannot take goes through `Decodable`, whose error names the member.
@Suite("Reading step results back")
struct StepResultReadingTests {
    static func results() throws -> [StepResult] {
        var plain = StepResult(id: .goalOptions, status: .valid, output: ["options": [["id": "a", "summary": "A"]]])
        plain.attempts = [Attempt(responseText: "", finishReason: "stop", usage: TokenUsage(input: 1200, output: 300), latency: 11.25, problems: [])]
        plain.checks = [CheckResult(name: "options.count", passed: true, message: "3 options")]

        let prompts = try PromptLibrary(layout: Repository.layout)
        var everything = StepResult(
            id: .optionEdit(round: 2), status: .invalid, output: nil,
            prompt: prompts.render(.goalOptionsEdit, input: try FixturePlan.placeholderInput(for: .goalOptionsEdit, fixture: try Repository.fixture("busy-parent"))),
            attempts: [
                Attempt(responseText: "{\"options\": [", finishReason: "length", usage: TokenUsage(input: 900, output: 512, reasoning: 40), latency: 3,
                        problems: ["cut off", "schema: /options expected array"], retries: 2),
                Attempt(responseText: "", finishReason: nil, usage: TokenUsage(), latency: 0.5, problems: []),
            ],
            failure: StepFailure(kind: .invalidOutput, message: "no valid output", retries: 1, detail: "line one\nline two", causes: ["the schema"]),
            note: "a note", cost: 0.000125)
        everything.checks = [CheckResult(name: "output.not-cut-off", passed: false, message: "ends mid-sentence: \"and th\"")]
        everything.interventions = [Intervention(kind: "edit-limited", detail: "held back one removal")]

        var skipped = StepResult(id: .confirm, status: .skipped, note: "not run: the provider could not be reached")
        skipped.failure = StepFailure(kind: .provider(.unreachable), message: "connection refused")
        return [plain, everything, skipped]
    }

    @Test func aResultIsReadStraightAsDecodableReadsIt() throws {
        for result in try Self.results() {
            let json = try JSONValueEncoder().encode(result)
            let read = try #require(StepResult(json: json), "read straight, not through Decodable")
            #expect(read == result)
            let text = Data(json.serializedBytes(.canonical))
            #expect(try JSONDecoder().decode(StepResult.self, from: text) == read)
            #expect(try JSONValueDecoder().decode(StepResult.self, from: json) == result)
        }
    }

    @Test(arguments: [
        ("cost", JSONValue.string("cheap"), "cost"), ("attempts", [["responseText": 3]], "responseText"),
        ("checks", [["name": "x", "passed": "yes", "message": ""]], "passed"), ("interventions", .null, "interventions"),
    ] as [(String, JSONValue, String)])
    func aMemberOfTheWrongTypeIsLeftToDecodableWhichNamesIt(member: String, value: JSONValue, named: String) throws {
        guard case .object(var object) = try JSONValueEncoder().encode(try Self.results()[0]) else { Issue.record("not an object"); return }
        object[member] = value
        #expect(StepResult(json: .object(object)) == nil)
        #expect {
            try JSONValueDecoder().decode(StepResult.self, from: .object(object))
        } throws: { error in
            "\(error)".contains(named)
        }
    }
}
