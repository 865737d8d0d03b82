import Foundation
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

    /// The writer skips text eight bytes at a time; every ASCII byte, at every
    /// position within and across those words, must still be escaped as one
    /// byte at a time would, under every option that changes the escapes.
    @Test func everyByteIsEscapedWhereverItFallsInAWord() throws {
        for options in [
            JSONWriteOptions.compact, JSONWriteOptions(escapesDelete: false), JSONWriteOptions(escapesAngleBrackets: true),
        ] {
            for byte in UInt8(0)..<0x80 {
                let scalar = String(UnicodeScalar(byte))
                for position in 0..<17 {
                    let text = String(repeating: "é", count: position % 3) + String(repeating: "a", count: position) + scalar + "bcdefghij"
                    let expected = "\"" + text.unicodeScalars.map { Self.referenceEscape($0, options) }.joined() + "\""
                    #expect(JSONValue.string(text).serialized(options) == expected, "byte \(byte) at \(position)")
                }
            }
        }
    }

    private static func referenceEscape(_ scalar: Unicode.Scalar, _ options: JSONWriteOptions) -> String {
        switch scalar {
        case "\"": return "\\\""
        case "\\": return "\\\\"
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        case "\u{08}": return "\\b"
        case "\u{0C}": return "\\f"
        case "<" where options.escapesAngleBrackets, ">" where options.escapesAngleBrackets: break
        case "\u{7F}" where options.escapesDelete: break
        default: if scalar.value >= 0x20 { return String(scalar) }
        }
        return String(format: "\\u%04x", scalar.value)
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

    /// Sorted keys are in code point order: prefixes first, upper case before lower,
    /// accented and astral letters after ASCII, as a sort of the members gives.
    @Test func sortedKeysFollowCodePointOrder() throws {
        let keys = ["b", "", "a", "ab", "aa", "B", "é", "e", "z", "😀", "ä", "a\u{0}", "outputTokens", "output", "outcome", "longer key past fifteen bytes", "longer key"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let members = keys.shuffled(using: &generator).map { JSONObject.Member(key: $0, value: .string($0)) }
            let value = JSONValue.object(JSONObject(members))
            let expected = JSONValue.object(JSONObject(members.sorted { $0.key.unicodeScalars.map(\.value).lexicographicallyPrecedes($1.key.unicodeScalars.map(\.value)) }))
            #expect(value.serialized(.canonical) == expected.serialized(.compact))
            #expect(expected.serialized(.canonical) == expected.serialized(.compact), "already sorted, written as it is")
        }
    }
}
