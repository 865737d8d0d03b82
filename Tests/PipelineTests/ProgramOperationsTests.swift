import Foundation
import JSONSchema
@testable import Pipeline
import Testing

/// `edit: operations`: an edit names its change and the operations that make it, and
/// they are applied, in order, to the current program.
@Suite("Program edits as operations")
struct ProgramOperationsTests {
    static func exercise(_ name: String, sets: Int = 3) -> JSONValue {
        ["name": .string(name), "sets": .number(Double(sets)), "reps": "10", "rest_seconds": 60, "notes": ""]
    }

    static let program: JSONValue = [
        "title": "Steady Start", "duration_weeks": 8, "days_per_week": 2,
        "sessions": [
            ["day": 1, "name": "Legs", "exercises": [exercise("Goblet squat"), exercise("Glute bridge"), exercise("Plank")]],
            ["day": 2, "name": "Upper", "exercises": [exercise("Wall push-up"), exercise("Band row"), exercise("Plank")]],
        ],
        "safety_notes": ["Warm up first.", "Stop if anything hurts."],
    ]

    static let document: JSONValue = [
        "$defs": [
            "exercise": ["type": "object"], "session": ["type": "object"],
            "program": ["properties": [
                "duration_weeks": ["type": "integer", "minimum": 2, "maximum": 52],
                "safety_notes": ["type": "array", "maxItems": 3, "items": ["type": "string", "maxLength": 160]],
            ]],
        ],
        "type": "object",
        "properties": ["change": ["type": "string", "maxLength": 200], "program_json": ["$ref": "#/$defs/program"]],
    ]

    static func applied(_ operations: [JSONValue]) -> JSONValue {
        ProgramOperations.applying(["change": "Swapped it.", "operations": .array(operations)], to: program, document: document)
    }

    static func names(_ output: JSONValue, day: Int) -> [String] {
        (output["program_json"]?["sessions"]?[day - 1]?["exercises"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
    }

    @Test func theReplyNamesOnlyExercisesAndDaysTheProgramHas() throws {
        let schema = ProgramOperations.replySchema(editing: Self.program, document: Self.document)
        #expect(schema["properties"]?.objectValue?.keys == ["change", "operations"], "the change is decided first")
        #expect(schema["properties"]?["change"] == Self.document["properties"]?["change"])
        let kinds = schema["properties"]?["operations"]?["items"]?["anyOf"]?.arrayValue ?? []
        #expect(kinds.compactMap { $0["properties"]?["op"]?["const"]?.stringValue } == ProgramOperations.Kind.allCases.map(\.rawValue))
        let replace = try #require(kinds.first)
        #expect(replace["properties"]?["exercise"]?["enum"] == ["Goblet squat", "Glute bridge", "Plank", "Wall push-up", "Band row"],
                "each name once, in the program's order")
        #expect(kinds[1]["properties"]?["day"]?["maximum"] == 2)
        #expect(kinds[5]["properties"]?["duration_weeks"]?["maximum"] == 52, "a plan length the program schema allows")
        let compiled = try Schema(schema)
        #expect(compiled.validate(["change": "Swapped the plank.", "operations": [["op": "remove", "exercise": "Plank"]]]).isValid)
        #expect(!compiled.validate(["change": "Swapped.", "operations": [["op": "remove", "exercise": "Burpee"]]]).isValid,
                "an exercise the program does not have")
        #expect(!compiled.validate(["change": "Swapped.", "operations": [["op": "remove-day", "day": 3]]]).isValid, "a day it does not have")
        #expect(!compiled.validate(["change": "Nothing.", "operations": []]).isValid, "an edit changes something")
    }

    @Test func anExerciseIsReplacedOrRemovedWhereverItIs() {
        let replaced = Self.applied([["op": "replace", "exercise": "Plank", "with": Self.exercise("Dead bug", sets: 2)]])
        #expect(Self.names(replaced, day: 1) == ["Goblet squat", "Glute bridge", "Dead bug"])
        #expect(Self.names(replaced, day: 2) == ["Wall push-up", "Band row", "Dead bug"])
        #expect(replaced["change"] == "Swapped it.")
        let removed = Self.applied([["op": "remove", "exercise": "Plank"]])
        #expect(Self.names(removed, day: 1) == ["Goblet squat", "Glute bridge"] && Self.names(removed, day: 2) == ["Wall push-up", "Band row"])
    }

    @Test func operationsApplyInOrderWithDaysNumberedAsTheyAreThen() {
        let output = Self.applied([
            ["op": "remove-day", "day": 1],
            ["op": "add", "day": 1, "exercise": Self.exercise("Goblet squat")],
        ])
        let program = output["program_json"]
        #expect(program?["days_per_week"] == 1 && program?["sessions"]?.arrayValue?.count == 1)
        #expect(program?["sessions"]?[0]?["day"] == 1 && program?["sessions"]?[0]?["name"] == "Upper")
        #expect(Self.names(output, day: 1) == ["Wall push-up", "Band row", "Plank", "Goblet squat"])

        let added = Self.applied([["op": "add-day", "session": ["day": 7, "name": "Walk", "exercises": [Self.exercise("Brisk walk")]]]])
        #expect(added["program_json"]?["days_per_week"] == 3 && added["program_json"]?["sessions"]?[2]?["day"] == 3, "numbered as the last day")
    }

    @Test func theWeeksAndSafetyNotesChangeWithinTheSchemasLimits() {
        let output = Self.applied([
            ["op": "weeks", "duration_weeks": 12],
            ["op": "safety-note", "text": "Check with your doctor first."],
            ["op": "safety-note", "text": "Keep the knee pain-free."],
        ])
        #expect(output["program_json"]?["duration_weeks"] == 12)
        #expect(output["program_json"]?["safety_notes"] == ["Warm up first.", "Stop if anything hurts.", "Keep the knee pain-free."],
                "at the schema's 3 notes, a new note takes the last one's place")
    }
}
