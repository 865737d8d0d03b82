import Foundation
import Testing

@testable import JSONSchema

@Suite("JSON parser")
struct JSONParserTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONParser.parse(#"{"a": [1, -2.5, 3e2, true, false, null, "x\n\u00e9\ud83d\ude00"], "b": {}}"#)
        #expect(value["a"]?[0] == 1)
        #expect(value["a"]?[1] == -2.5)
        #expect(value["a"]?[2] == 300)
        #expect(value["a"]?[3] == true)
        #expect(value["a"]?[5] == .null)
        #expect(value["a"]?[6] == "x\né😀")
        #expect(value["b"] == .object(JSONObject()))
    }

    /// Escapes at every offset of long runs, beside multi-byte text: the scanner copies
    /// runs between escapes in blocks of eight bytes and must not lose or repeat a byte.
    @Test func escapedStringsSurviveARoundTripAtEveryOffset() throws {
        let pieces = ["\n", "\"", "\\", "\u{1}", "é", "💪🏽", "×", "/", "\t"]
        var generator = SystemRandomNumberGenerator()
        for length in 0..<40 {
            for piece in pieces {
                let plain = String(repeating: "a", count: length)
                let text = plain + piece + String(repeating: "b", count: Int.random(in: 0..<20, using: &generator)) + piece + plain
                let written = JSONValue.string(text).serialized()
                #expect(try JSONParser.parse(written) == .string(text), "\(written)")
                let spaced = JSONValue.string(text).serialized(JSONWriteOptions(escapesAngleBrackets: true))
                #expect(try JSONParser.parse(spaced) == .string(text))
            }
        }
    }

    @Test func keepsMemberOrderButComparesObjectsUnordered() throws {
        let first = try JSONParser.parse(#"{"z": 1, "a": 2}"#)
        let second = try JSONParser.parse(#"{"a": 2, "z": 1}"#)
        #expect(first.objectValue?.keys == ["z", "a"])
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
    }

    @Test func wholeNumbersAreIntegersWhateverTheirSpelling() throws {
        #expect(try JSONParser.parse("1.0") == 1)
        #expect(try JSONParser.parse("1.0").typeName == "integer")
        #expect(try JSONParser.parse("1.5").typeName == "number")
        #expect(try JSONParser.parse("12345678901234567890").numberValue == 1.2345678901234567e19)
    }

    struct BrokenCase: CustomTestStringConvertible, Sendable {
        let label: String
        let bytes: [UInt8]
        let line: Int
        let column: Int
        let fragment: String
        var testDescription: String { label }

        init(_ label: String, _ text: String, line: Int, column: Int, _ fragment: String) {
            self.init(label, Array(text.utf8), line: line, column: column, fragment)
        }

        init(_ label: String, _ bytes: [UInt8], line: Int, column: Int, _ fragment: String) {
            self.label = label
            self.bytes = bytes
            self.line = line
            self.column = column
            self.fragment = fragment
        }
    }

    static let brokenCases: [BrokenCase] = [
        BrokenCase("empty", "", line: 1, column: 1, "empty"),
        BrokenCase("whitespace only", "  \n ", line: 2, column: 2, "empty"),
        BrokenCase("truncated object", "{\n  \"name\": \"Sam\",\n", line: 3, column: 1, "truncated"),
        BrokenCase("truncated string", "{\"name\": \"Sa", line: 1, column: 13, "truncated"),
        BrokenCase("missing comma", "{\"a\": 1\n \"b\": 2}", line: 2, column: 2, "expected ',' or '}'"),
        BrokenCase("single quotes", "{'a': 1}", line: 1, column: 2, "member name in double quotes"),
        BrokenCase("trailing comma", "[1, 2,]", line: 1, column: 7, "expected a value"),
        BrokenCase("NaN", "{\"age\": NaN}", line: 1, column: 9, "NaN is not a JSON number"),
        BrokenCase("Infinity", "[-Infinity]", line: 1, column: 2, "-Infinity is not a JSON number"),
        BrokenCase("huge exponent", "[1e999]", line: 1, column: 2, "1e999 is not a JSON number"),
        BrokenCase("leading zero", "[012]", line: 1, column: 2, "invalid number 012"),
        BrokenCase("duplicate key", "{\"a\": 1,\n \"a\": 2}", line: 2, column: 2, "duplicate key \"a\""),
        BrokenCase("trailing content", "{} {}", line: 1, column: 4, "after the end"),
        BrokenCase("raw newline in string", "[\"a\nb\"]", line: 1, column: 4, "raw control character U+000A"),
        BrokenCase("bad escape", #"["\x"]"#, line: 1, column: 3, "invalid escape sequence \\x"),
        BrokenCase("invalid UTF-8 in string", [0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D], line: 1, column: 4, "not valid UTF-8"),
        BrokenCase("binary", [0x00, 0x01, 0x02, 0xFF], line: 1, column: 1, "expected a value"),
        BrokenCase("invalid UTF-8 outside strings", [0xC3, 0x28], line: 1, column: 1, "not valid UTF-8"),
        BrokenCase("deep nesting", String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
                   line: 1, column: 513, "nesting deeper than 512"),
    ]

    @Test(arguments: brokenCases)
    func reportsWhereAndWhatForBrokenInput(_ broken: BrokenCase) {
        do {
            _ = try JSONParser.parse(broken.bytes)
            Issue.record("\(broken.label) parsed without error")
        } catch let error as JSONParseError {
            #expect(error.location.line == broken.line, "\(error)")
            #expect(error.location.column == broken.column, "\(error)")
            #expect(error.description.contains(broken.fragment), "\(error)")
        } catch {
            Issue.record("unexpected error type \(error)")
        }
    }

    @Test func errorPathNamesTheMemberBeingParsed() throws {
        let error = try #require(throws: JSONParseError.self) {
            try JSONParser.parse(#"{"options": [{"id": "a"}, {"id": tru}]}"#)
        }
        #expect(error.path.description == "/options/1/id")
        #expect(error.description.contains("options[1].id"))
    }

    @Test func truncationIsDistinguishedFromMalformation() throws {
        let truncated = try #require(throws: JSONParseError.self) { try JSONParser.parse(#"{"options": [{"id": "a""#) }
        #expect(truncated.isTruncated)
        let malformed = try #require(throws: JSONParseError.self) { try JSONParser.parse(#"{"options": ]"#) }
        #expect(!malformed.isTruncated)
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let error = try #require(throws: JSONParseError.self) { try JSONParser.parse("{\"naïve\": \"é\" x}") }
        #expect(error.location.column == 15)
    }

    @Test func lenientOptionsAcceptRawNewlinesAndRepeatedKeys() throws {
        let value = try JSONParser.parse("{\"a\": \"line one\nline two\", \"a\": 2}", options: .lenient)
        #expect(value["a"] == 2)
    }

    @Test func handlesAFiveMegabyteString() throws {
        let big = String(repeating: "x", count: 5_000_000)
        let value = try JSONParser.parse("{\"goals\": \"\(big)\"}")
        #expect(value["goals"]?.stringValue?.count == 5_000_000)
    }

    @Test func recordsTheLocationOfEveryValueAndKey() throws {
        let text = "{\n  \"name\": \"Sam\",\n  \"tags\": [\n    1,\n    2\n  ]\n}"
        let document = try JSONParser.parseDocument(Array(text.utf8))
        #expect(document.location(of: JSONPointer("/name")!)?.description == "2:11")
        #expect(document.keyLocation(of: JSONPointer("/name")!)?.description == "2:3")
        #expect(document.location(of: JSONPointer("/tags/1")!)?.description == "5:5")
        #expect(document.location(of: JSONPointer("/tags/7")!)?.description == "3:11")
    }

    @Test func writesCanonicalAndPrettyText() throws {
        let value = try JSONParser.parse(#"{"b": [1, 2.5, "q\"\n"], "a": null, "c": {}}"#)
        #expect(value.serialized(.canonical) == #"{"a":null,"b":[1,2.5,"q\"\n"],"c":{}}"#)
        #expect(value.serialized(.prettySorted) == "{\n  \"a\": null,\n  \"b\": [\n    1,\n    2.5,\n    \"q\\\"\\n\"\n  ],\n  \"c\": {}\n}")
        #expect(try JSONParser.parse(value.serialized()) == value)
    }

    @Test func roundTripsThroughCodable() throws {
        let value = try JSONParser.parse(#"{"a": [1, 2.5, "x", true, null, {"b": []}]}"#)
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
    }
}
