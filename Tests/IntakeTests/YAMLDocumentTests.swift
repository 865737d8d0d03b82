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
}
