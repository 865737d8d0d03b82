import Foundation
import Testing

@testable import JSONSchema

@Suite("JSON value decoder")
struct JSONValueDecoderTests {
    struct Session: Codable, Equatable {
        var name: String
        var minutes: Int
        var intensity: Double?
        var tags: [String]
        var rest: [String: Int]
        var startsAt: Date
        var raw: JSONValue?
        var nested: [[Int8]]
    }

    @Test func decodesWhatJSONDecoderDecodes() throws {
        let text = #"""
            {"name": "Upper body", "minutes": 45, "intensity": 0.75, "tags": ["push", "pull"], "rest": {"bench": 90},
             "startsAt": "2026-11-20T14:03:11Z", "raw": {"b": [1, null, "x"], "a": true}, "nested": [[1, -2], []]}
            """#
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .iso8601
        let expected = try foundation.decode(Session.self, from: Data(text.utf8))
        let decoded = try JSONValueDecoder().decode(Session.self, from: Data(text.utf8))
        #expect(decoded == expected)
        // The JSONValue member is the parsed tree itself, in source order.
        #expect(decoded.raw?.objectValue?.keys == ["b", "a"])
    }

    @Test func absentOptionalsAndNullsAreNil() throws {
        let decoded = try JSONValueDecoder().decode(
            Session.self,
            from: Data(#"{"name":"a","minutes":1,"intensity":null,"tags":[],"rest":{},"startsAt":"2026-01-01T00:00:00Z","nested":[]}"#.utf8))
        #expect(decoded.intensity == nil && decoded.raw == nil)
    }

    @Test func errorsCarryTheCodingPath() throws {
        let missing = #expect(throws: DecodingError.self) {
            try JSONValueDecoder().decode(Session.self, from: Data(#"{"name":"a"}"#.utf8))
        }
        guard case .keyNotFound(let key, _) = missing else { Issue.record("expected keyNotFound, got \(String(describing: missing))"); return }
        #expect(key.stringValue == "minutes")

        let fraction = #expect(throws: DecodingError.self) {
            try JSONValueDecoder().decode(
                Session.self,
                from: Data(#"{"name":"a","minutes":1.5,"tags":[],"rest":{},"startsAt":"2026-01-01T00:00:00Z","nested":[]}"#.utf8))
        }
        guard case .dataCorrupted(let context) = fraction else { Issue.record("expected dataCorrupted"); return }
        #expect(context.codingPath.map(\.stringValue) == ["minutes"])

        let overflow = #expect(throws: DecodingError.self) {
            try JSONValueDecoder().decode(
                Session.self,
                from: Data(#"{"name":"a","minutes":1,"tags":[],"rest":{},"startsAt":"2026-01-01T00:00:00Z","nested":[[300]]}"#.utf8))
        }
        guard case .dataCorrupted(let deep) = overflow else { Issue.record("expected dataCorrupted"); return }
        #expect(deep.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["nested", "0", "0"])
        #expect(overflow?.location == "nested[0][0]: Parsed JSON number <300.0> does not fit in Int8.")
        #expect(missing?.location == "(root): missing `minutes`")

        let wrongType = #expect(throws: DecodingError.self) { try JSONValueDecoder().decode([String].self, from: Data(#"["a", 2]"#.utf8)) }
        guard case .typeMismatch = wrongType else { Issue.record("expected typeMismatch"); return }
    }

    /// Members of the expected kind are read directly; any other kind still fails with the member's path.
    @Test func aMemberOfTheWrongKindNamesItsPath() throws {
        struct Entry: Decodable {
            var name: String
            var note: String?
            var passed: Bool?
            var weight: Double?
        }
        for (text, path) in [(#"{"name": 3}"#, "name"), (#"{"name": "a", "note": false}"#, "note"),
                             (#"{"name": "a", "passed": "yes"}"#, "passed"), (#"{"name": "a", "weight": "9"}"#, "weight")] {
            let error = #expect(throws: DecodingError.self, "\(text)") { try JSONValueDecoder().decode(Entry.self, from: Data(text.utf8)) }
            guard case .typeMismatch(_, let context) = error else { Issue.record("expected typeMismatch for \(text)"); continue }
            #expect(context.codingPath.map(\.stringValue) == [path])
        }
        let present = try JSONValueDecoder().decode(Entry.self, from: Data(#"{"name": "a", "note": "n", "passed": true, "weight": 2.5}"#.utf8))
        #expect(present.note == "n" && present.passed == true && present.weight == 2.5)
    }

    @Test func snakeCaseKeysFillCamelCaseProperties() throws {
        struct Scenario: Decodable, Equatable {
            var optionFeedback: [String]
            var chosenOptionId: String
            var _private: Int
        }
        let text = #"{"option_feedback": ["shorter"], "chosen_option_id": "strength", "_private": 1}"#
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        let expected = try foundation.decode(Scenario.self, from: Data(text.utf8))
        #expect(try JSONValueDecoder(convertsFromSnakeCase: true).decode(Scenario.self, from: Data(text.utf8)) == expected)
        #expect(JSONValueDecoder.camelCase("__leading_and_trailing__") == "__leadingAndTrailing__")
    }

    /// A type that reads itself from the parsed value is read so wherever it is asked for;
    /// a value it cannot read goes through `Decodable`, whose error has the path.
    @Test func aReadableTypeIsReadStraightFromTheValue() throws {
        struct Mark: JSONValueReadable, Equatable {
            var name: String
            var direct = false
            init(name: String, direct: Bool) { (self.name, self.direct) = (name, direct) }
            init?(json: JSONValue) {
                guard let name = json["name"]?.stringValue else { return nil }
                self.init(name: name, direct: true)
            }
            enum CodingKeys: String, CodingKey { case name }
        }
        struct Holder: Decodable { var marks: [Mark]; var one: Mark? }
        let read = try JSONValueDecoder().decode(Holder.self, from: Data(#"{"marks": [{"name": "a"}, {"name": "b"}], "one": {"name": "c"}}"#.utf8))
        #expect(read.marks == [Mark(name: "a", direct: true), Mark(name: "b", direct: true)])
        #expect(read.one == Mark(name: "c", direct: true))
        let error = try #require(throws: DecodingError.self) {
            try JSONValueDecoder().decode(Holder.self, from: Data(#"{"marks": [{"name": "a"}, {"name": 2}]}"#.utf8))
        }
        #expect(error.location.hasPrefix("marks[1].name:"), "\(error.location)")
    }

    /// ASCII keys are converted byte by byte, as Foundation converts them: each word
    /// after the first capitalized, runs of underscores one break, the ends kept.
    @Test(arguments: [
        ("max_days_per_week", "maxDaysPerWeek"), ("MAX_DAYS", "MAXDays"), ("a__b", "aB"), ("_x_y_", "_xY_"), ("___", "___"),
        ("plain", "plain"), ("week_2_focus", "week2Focus"), ("mIxEd_cAsE", "mIxEdCase"), ("é_x", "éX"),
    ])
    func snakeCaseKeysBecomeCamelCase(key: String, expected: String) {
        #expect(JSONValueDecoder.camelCase(key) == expected)
        let words = key.drop { $0 == "_" }
        if key.contains("_"), !words.isEmpty, key.utf8.allSatisfy({ $0 < 0x80 }) {
            // Foundation's own rule, word by word.
            let core = words.prefix(through: words.lastIndex { $0 != "_" }!)
            let parts = core.split(separator: "_")
            let foundation = key.prefix { $0 == "_" } + parts[0] + parts.dropFirst().map(\.capitalized).joined()
                + key[core.endIndex...]
            #expect(JSONValueDecoder.camelCase(key) == foundation)
        }
    }
}

@Suite("JSON value encoder")
struct JSONValueEncoderTests {
    enum Level: String, Codable { case easy, hard }

    struct Week: Codable, Equatable {
        var number: Int
        var level: Level
        var note: String?
        var loads: [Double]
        var checks: [String: Bool]
        var raw: JSONValue
        var startsAt: Date
        var nested: [[Week]]
    }

    @Test func encodesWhatJSONEncoderEncodes() throws {
        let inner = Week(number: 2, level: .hard, note: "a \"quoted\" note\n", loads: [], checks: [:], raw: .null,
                         startsAt: Date(timeIntervalSince1970: 0), nested: [])
        let week = Week(number: 1, level: .easy, note: nil, loads: [60, 62.5, -1e-3], checks: ["b": true, "a": false],
                        raw: .array([.string("x"), .number(1), .object(JSONObject())]),
                        startsAt: Date(timeIntervalSince1970: 1_795_000_000), nested: [[inner], []])
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        foundation.dateEncodingStrategy = .iso8601
        let expected = try JSONParser.parse(foundation.encode(week))
        let encoded = try JSONValueEncoder().encode(week)
        #expect(encoded == expected)
        #expect(encoded["note"] == nil, "an absent optional is left out, not null")
        #expect(encoded["startsAt"] == .string("2026-11-18T11:06:40Z"))
        // And it reads back.
        let decoded = try JSONValueDecoder().decode(Week.self, from: Data(encoded.serialized(.prettySorted).utf8))
        #expect(decoded == week)
    }

    struct WritesAKeyTwice: Encodable {
        enum Key: String, CodingKey { case a, b }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(1, forKey: .a)
            try container.encode("two", forKey: .a)
            var list = container.nestedUnkeyedContainer(forKey: .b)
            try list.encode(Date(timeIntervalSince1970: 0))
            try list.encode("x")
            try list.encode(JSONValue.bool(true))
        }
    }

    @Test func aKeyWrittenTwiceKeepsTheLastValueAndArraysTakeAnyValue() throws {
        let foundation = JSONEncoder()
        foundation.dateEncodingStrategy = .iso8601
        let expected = try JSONParser.parse(#"{"a": "two", "b": ["1970-01-01T00:00:00Z", "x", true]}"#)
        #expect(try JSONParser.parse(foundation.encode(WritesAKeyTwice())) == expected)
        #expect(try JSONValueEncoder().encode(WritesAKeyTwice()) == expected)
    }
}
