import Foundation
import JSONSchema
import Testing

/// How `validate` reports: every error, in a stable order, with locations.
@Suite struct ErrorReportingTests {
    static let programSchema = ##"""
        {
          "$id": "https://example.com/program.json",
          "type": "object",
          "required": ["title", "days", "sessions"],
          "additionalProperties": false,
          "properties": {
            "title": {"type": "string", "minLength": 3},
            "days": {"type": "integer", "minimum": 1, "maximum": 7},
            "sessions": {"type": "array", "maxItems": 2, "items": {"$ref": "#/$defs/session"}}
          },
          "$defs": {
            "session": {
              "type": "object",
              "required": ["name"],
              "properties": {"name": {"type": "string"}, "minutes": {"type": "integer", "maximum": 90}}
            }
          }
        }
        """##

    @Test func reportsEveryErrorInInstanceDocumentOrder() throws {
        let schema = try Schema(jsonText: Self.programSchema)
        let instance = try JSONParser.parse(#"""
            {"hieght": 70, "days": 9, "sessions": [{"minutes": 120}, {"name": 3}, {"name": "x"}], "colour": "red"}
            """#)
        let errors = schema.validate(instance).errors
        #expect(errors.map(\.description) == [
            "(root): missing required property `title`",
            "/hieght: unknown property `hieght`",
            "/days: `days` is 9; the maximum is 7",
            "/sessions: `sessions` has 3 items; at most 2 allowed",
            "/sessions/0: missing required property `name`",
            "/sessions/0/minutes: `minutes` is 120; the maximum is 90",
            "/sessions/1/name: expected string, got integer 3",
            "/colour: unknown property `colour`",
        ])
        #expect(!schema.isValid(instance))
    }

    @Test func orderIsStableAcrossRuns() throws {
        let schema = try Schema(jsonText: Self.programSchema)
        let instance = try JSONParser.parse(#"{"b": 1, "a": 2, "days": 0, "sessions": "none"}"#)
        let first = schema.validate(instance).errors
        for _ in 0..<20 { #expect(schema.validate(instance).errors == first) }
        #expect(first.map(\.keyword) == ["required", "additionalProperties", "additionalProperties", "minimum", "type"])
    }

    @Test func locationsFollowReferencesAndKeepAbsoluteURIs() throws {
        let schema = try Schema(jsonText: Self.programSchema)
        let instance = try JSONParser.parse(#"{"title": "Plan", "days": 3, "sessions": [{"name": "A", "minutes": 100}]}"#)
        let error = try #require(schema.validate(instance).errors.first)
        #expect(error.instanceLocation == JSONPointer("/sessions/0/minutes"))
        #expect(error.keywordLocation == "/properties/sessions/items/$ref/properties/minutes/maximum")
        #expect(error.absoluteKeywordLocation == "https://example.com/program.json#/$defs/session/properties/minutes/maximum")
    }

    @Test func schemasWithoutABaseURIHaveNoAbsoluteLocation() throws {
        let schema = try Schema(jsonText: #"{"maximum": 1}"#)
        #expect(schema.validate(2).errors.first?.absoluteKeywordLocation == nil)
    }

    @Test func oneErrorPerMissingPropertyAndPerUnknownMember() throws {
        let schema = try Schema(jsonText: #"{"required": ["a", "b", "c"], "properties": {"a": {}}, "additionalProperties": false}"#)
        let errors = schema.validate(try JSONParser.parse(#"{"a": 1, "x": 1, "y": 2}"#)).errors
        #expect(errors.map(\.description) == [
            "(root): missing required property `b`",
            "(root): missing required property `c`",
            "/x: unknown property `x`",
            "/y: unknown property `y`",
        ])
    }

    @Test func alternativesSummariseInsteadOfListingEveryBranch() throws {
        let schema = try Schema(jsonText: #"""
            {"properties": {"reps": {"anyOf": [
                {"type": "integer", "minimum": 1},
                {"type": "string", "pattern": "^[0-9]+-[0-9]+$"}
            ]}}}
            """#)
        let errors = schema.validate(try JSONParser.parse(#"{"reps": "ten"}"#)).errors
        #expect(errors.count == 1)
        #expect(errors.first?.message == #"`reps` matches none of the 2 alternatives in `anyOf`; closest is #2: `reps` is "ten", which does not match the pattern ^[0-9]+-[0-9]+$"#)
        #expect(errors.first?.keywordLocation == "/properties/reps/anyOf")
    }

    @Test func validAndInvalidAgreeBetweenBothEntryPoints() throws {
        let schema = try Schema(jsonText: Self.programSchema)
        let valid = try JSONParser.parse(#"{"title": "Plan", "days": 3, "sessions": [{"name": "A"}]}"#)
        #expect(schema.isValid(valid))
        #expect(schema.validate(valid).isValid)
        #expect(schema.validate(valid).errors.isEmpty)
    }

    @Test func longValuesAreTruncatedInMessages() throws {
        let schema = try Schema(jsonText: #"{"enum": ["a"]}"#)
        let message = try #require(schema.validate(.string(String(repeating: "x", count: 500))).errors.first?.message)
        #expect(message.count < 120)
        #expect(message.contains("…"))
    }

    @Test func validatesFromManyThreadsAtOnce() throws {
        let schema = try Schema(jsonText: Self.programSchema)
        let valid = try JSONParser.parse(#"{"title": "Plan", "days": 3, "sessions": [{"name": "A"}]}"#)
        let invalid = try JSONParser.parse(#"{"title": "P", "days": 3, "sessions": []}"#)
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            let ok = index.isMultiple(of: 2)
                ? schema.isValid(valid) && schema.validate(valid).isValid
                : schema.validate(invalid).errors.count == 1 && !schema.isValid(invalid)
            if !ok { failures.increment() }
        }
        #expect(failures.value == 0)
    }
}

/// A thread-safe count for the concurrency test.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
