import Foundation
import Intake
import JSONSchema

enum Samples {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func fixture(_ name: String = "busy-parent") throws -> Fixture {
        try FixtureCorpus(layout: ProjectLayout(root: root)).load(name)
    }

    static let options: JSONValue = ["options": [
        ["id": "energy-3x-week", "summary": "More energy: 3 short workouts a week", "detail": "20 minutes, three evenings."],
        ["id": "monkey-bars-8-weeks", "summary": "Cross the monkey bars in 8 weeks", "detail": "Grip and pulling strength."],
        ["id": "walk-10k-steps", "summary": "Walk 10,000 steps a day by June", "detail": "Add 1,000 steps each week."],
    ]]

    static func exercise(_ name: String, reps: String = "10") -> JSONValue {
        ["name": .string(name), "sets": 3, "reps": .string(reps), "rest_seconds": 60, "notes": ""]
    }

    /// Keisha's program: 3 days, 25 minutes, mat and dumbbells, in JSON and matching markdown.
    static func program(
        days: Int = 3, minutes: Int = 25, weeks: Int = 8, progression: [(String, String)] = [("1-4", "Learn the moves"), ("5-8", "Add a set")],
        exercises: [[String]] = [["Goblet squat", "Dumbbell row", "Plank"], ["Glute bridge", "Dead bug", "Dumbbell press"], ["Reverse lunge", "Bird dog", "Side plank"]],
        equipment: [String] = ["bodyweight", "mat", "dumbbell"], notes: [String] = ["Warm up for 3 minutes; stop if anything hurts."],
        markdownOverride: String? = nil
    ) -> JSONValue {
        let sessions: [JSONValue] = (0..<days).map { index in
            let names = exercises[index % exercises.count]
            return ["day": .number(Double(index + 1)), "name": .string("Full body \(index + 1)"), "minutes": .number(Double(minutes)),
                    "exercises": .array(names.map { exercise($0) })]
        }
        var markdown = "# Evening Energy\nHi Keisha, let's go!\n**Plan:** \(weeks) weeks · \(days) days a week · up to \(minutes) min\n"
        for index in 0..<days {
            markdown += "\n---\n\n## Day \(index + 1): Full body \(index + 1) (\(minutes) min)\n"
            for name in exercises[index % exercises.count] { markdown += "- **\(name)**: 3 × 10, rest 60 s.\n" }
        }
        markdown += "\n## Progression\n" + progression.map { "- **Weeks \($0.0):** \($0.1)" }.joined(separator: "\n")
        markdown += "\n\n## Safety notes\n" + notes.map { "- \($0)" }.joined(separator: "\n")
        let program: JSONValue = [
            "title": "Evening Energy", "goal": "More energy: 3 short workouts a week", "duration_weeks": .number(Double(weeks)),
            "days_per_week": .number(Double(days)), "session_minutes": .number(Double(minutes)),
            "equipment": .array(equipment.map(JSONValue.string)), "sessions": .array(sessions),
            "progression": .array(progression.map { ["weeks": .string($0.0), "focus": .string($0.1)] }),
            "safety_notes": .array(notes.map(JSONValue.string)),
        ]
        return ["program_json": program, "program_markdown": .string(markdownOverride ?? markdown)]
    }

    /// `output` with one member of its `program_json` replaced.
    static func replacing(_ key: String, with value: JSONValue, in output: JSONValue) -> JSONValue {
        guard var program = output["program_json"]?.objectValue, var object = output.objectValue else { return output }
        program[key] = value
        object["program_json"] = .object(program)
        return .object(object)
    }
}
