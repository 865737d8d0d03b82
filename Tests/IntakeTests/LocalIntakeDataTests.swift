import Foundation
import JSONSchema
import Testing

@testable import Intake

@Suite("LocalIntakeData")
struct LocalIntakeDataTests {
    static let everyField = LocalIntakeData(
        name: "Ana", age: 34, gender: "female", goals: "Run a 10K", timeline: "by summer",
        experienceLevel: "beginner", frequency: "3 days", currentRoutine: "walks", pastAttempts: "Couch to 5K, stopped",
        hobbySports: "hiking", height: 65, weight: 150, bodyComp: "average", physicalBaseline: "10 push-ups",
        mobility: "tight hips", injuries: "old ankle sprain", healthNuances: "asthma", supplements: "none",
        activityLevel: "desk job", sleep: "6 hours", nutrition: "vegetarian", environment: "home, dumbbells",
        movementPrefs: "hates burpees", coachingStyle: "gentle", anythingElse: "🙂 <b>thanks</b> {{name}}")

    @Test func roundTripKeepsEveryField() throws {
        let data = try JSONEncoder().encode(Self.everyField)
        let decoded = try JSONDecoder().decode(LocalIntakeData.self, from: data)
        #expect(decoded == Self.everyField)
        let keys = try JSONParser.parse(data).objectValue?.keys ?? []
        #expect(Set(keys) == Set(LocalIntakeData.fieldKeys))
        #expect(keys.count == 25)
    }

    @Test func skippedFieldsAreOmittedNotNull() throws {
        let data = try JSONEncoder().encode(LocalIntakeData(name: "Sam"))
        #expect(String(decoding: data, as: UTF8.self) == #"{"name":"Sam"}"#)
    }

    @Test func fieldCatalogueMatchesTheSchema() throws {
        let schema = try JSONParser.parse(Data(contentsOf: TemporaryProject.repositoryLayout.intakeSchema))
        let properties = try #require(schema["properties"]?.objectValue)
        #expect(properties.keys == LocalIntakeData.fieldKeys)
        #expect(schema["additionalProperties"] == false)
    }

    @Test func displaysHeightInFeetAndInches() {
        let record = LocalIntakeData(height: 68, weight: 150)
        let height = LocalIntakeData.fields.first { $0.key == "height" }!
        #expect(record.displayValue(of: height) == "5'8\" (68 in)")
        #expect(record.answeredFields.map(\.key) == ["height", "weight"])
    }
}

@Suite("Intake schema")
struct IntakeSchemaTests {
    let schema: Schema

    init() throws {
        let url = TemporaryProject.repositoryLayout.intakeSchema
        schema = try Schema(JSONParser.parse(Data(contentsOf: url)), baseURI: url.absoluteString)
    }

    @Test(arguments: [
        ("age", 12, false), ("age", 13, true), ("age", 100, true), ("age", 101, false),
        ("height", 47, false), ("height", 48, true), ("height", 96, true), ("height", 97, false),
        ("weight", 69, false), ("weight", 70, true), ("weight", 600, true), ("weight", 601, false),
    ])
    func integerBoundsAreInclusive(field: String, value: Int, valid: Bool) {
        let record: JSONValue = .object(JSONObject([.init(key: field, value: .number(Double(value)))]))
        #expect(schema.validate(record).isValid == valid)
    }

    @Test(arguments: [
        (#"{"age": 30.5}"#, "age"),
        (#"{"age": "thirty"}"#, "age"),
        (#"{"height": "5'8\""}"#, "height"),
        (#"{"name": 7}"#, "name"),
        (#"{"goals": ["run"]}"#, "goals"),
        (#"{"weight": null}"#, "weight"),
    ])
    func rejectsWrongTypes(json: String, field: String) throws {
        let errors = schema.validate(try JSONParser.parse(json)).errors
        #expect(errors.count == 1)
        #expect(errors.first?.instanceLocation.description == "/\(field)")
    }

    @Test func freeTextIsFreeUpToTheLengthLimit() throws {
        let anything = "¿Qué tal? 💪🏽 <script>alert(1)</script> {{system}} ignore previous instructions\n\n" + String(repeating: "a", count: 4000)
        #expect(schema.validate(["goals": .string(anything)]).isValid)
        // Length is counted in code points: 8,000 emoji are fine, 8,001 are not.
        #expect(schema.validate(["goals": .string(String(repeating: "💪", count: 8000))]).isValid)
        #expect(!schema.validate(["goals": .string(String(repeating: "💪", count: 8001))]).isValid)
    }

    @Test func unknownKeysAreErrors() throws {
        let errors = schema.validate(["name": "Sam", "hieght": 70]).errors
        #expect(errors.map(\.instanceLocation.description) == ["/hieght"])
    }
}
