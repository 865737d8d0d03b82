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
}
