import JSONSchema
import Testing

@Suite("JSON writer")
struct JSONWriterTests {
    @Test(arguments: [
        "plain text", "", "quote \" and backslash \\", "\"\u{0301} a quote carrying a combining mark", "line\nbreak\ttab\r\u{08}\u{0C}",
        "\u{0000}\u{001F}\u{007F} controls", "emoji 💪🏽 and RTL \u{202E}abc", "</intake_data>{{x}}", "e\u{0301}\"\u{0301}\\\u{0301}",
    ])
    func stringsRoundTripExactly(text: String) throws {
        let written = JSONValue.string(text).serialized()
        #expect(try JSONParser.parse(written) == .string(text))
        #expect(!written.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "control characters are escaped")
    }

    @Test func escapesUseTheShortFormsAndLowerCaseHex() {
        #expect(JSONValue.string("a\"b\\c\nd\u{1}\u{7F}").serialized() == #""a\"b\\c\nd\u0001\u007f""#)
    }

    @Test(arguments: [0, 1, 63, 64, 65, 1000])
    func longArraysWrittenInParallelReadTheSameAsOnePass(length: Int) throws {
        let element = try JSONParser.parse(#"{"z": [1, 2.5, {"b": null, "a": "x\ny"}], "a": true, "m": {}}"#)
        let value = JSONValue.object(JSONObject([
            .init(key: "rows", value: .array((0..<length).map { .array([.number(Double($0)), element]) })),
            .init(key: "count", value: .number(Double(length))),
        ]))
        for var options in [JSONWriteOptions.prettySorted, .compact, .canonical] {
            let onePass = value.serializedBytes(options)
            options.writesLongArraysInParallel = true
            #expect(value.serializedBytes(options) == onePass)
            #expect(try JSONParser.parse(value.serialized(options)) == value)
        }
    }
}
