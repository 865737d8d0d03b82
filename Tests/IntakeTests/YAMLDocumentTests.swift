import JSONSchema
import Testing

@testable import Intake

@Suite("YAML documents")
struct YAMLDocumentTests {
    @Test func scalarsTakeYAMLTypesAndEverythingElseStaysText() throws {
        let document = try YAMLDocument(text: """
            flag: yes
            off_word: "no"
            count: 12
            negative: -3.5
            nothing: ~
            empty:
            date: 2026-01-01
            sentence: Yes please, shorter sessions
            ordinal: 1st place
            quoted_number: "123"
            tagged: !!str 42
            long_word: falsehood
            """)
        let expected: [(String, JSONValue)] = [
            ("flag", .bool(true)), ("off_word", .string("no")), ("count", .number(12)), ("negative", .number(-3.5)),
            ("nothing", .null), ("empty", .null), ("date", .string("2026-01-01")),
            ("sentence", .string("Yes please, shorter sessions")), ("ordinal", .string("1st place")),
            ("quoted_number", .string("123")), ("tagged", .string("42")), ("long_word", .string("falsehood")),
        ]
        for (key, value) in expected {
            #expect(document.value[key] == value, "\(key)")
        }
    }

    @Test func aNumberTooLargeIsAnErrorWithItsLine() {
        let error = #expect(throws: YAMLDocument.LoadError.self) { try YAMLDocument(text: "a: 1\nb: 99999999999999999999999\n") }
        #expect(error?.location?.line == 2)
    }

    @Test func everyValueAndKeyKnowsItsLineAndColumn() throws {
        let document = try YAMLDocument(text: """
            name: Sam
            option_edits:
              - feedback: shorter
                expect:
                  mention_any: [short, quick]
              - feedback: longer
            """)
        func at(_ path: String) -> [Int]? {
            document.location(of: JSONPointer(tokens: path.split(separator: "/").map(String.init))).map { [$0.line, $0.column] }
        }
        #expect(at("name") == [1, 7])
        #expect(at("option_edits/0/feedback") == [3, 15])
        #expect(at("option_edits/0/expect/mention_any/1") == [5, 28])
        #expect(at("option_edits/1") == [6, 5])
        #expect(at("option_edits/7/feedback") == [3, 3], "a missing element points at its nearest parent, the list")
        #expect(at("option_edits/1/nope") == [6, 5])
        let key = document.keyLocation(of: JSONPointer(tokens: ["option_edits", "0", "expect"]))
        #expect(key.map { [$0.line, $0.column] } == [4, 5])
        let missingKey = document.keyLocation(of: JSONPointer(tokens: ["option_edits", "1", "expect"]))
        #expect(missingKey.map { [$0.line, $0.column] } == [6, 5], "an absent key points at its mapping")
    }
}
