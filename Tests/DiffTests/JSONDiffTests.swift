import JSONSchema
import Testing

@testable import Diff

@Suite("JSON diff")
struct JSONDiffTests {
    static let options: JSONValue = ["options": [
        ["id": "run-5k", "summary": "Run 5 km without stopping", "detail": "Three runs a week."],
        ["id": "lift-2x", "summary": "Strength twice a week", "detail": "Full body, 40 minutes."],
        ["id": "walk-daily", "summary": "Walk every day", "detail": "30 minutes after lunch."],
    ]]

    static func exercise(_ name: String, reps: String = "10") -> JSONValue {
        ["name": .string(name), "sets": 3, "reps": .string(reps), "rest_seconds": 60]
    }

    static let program: JSONValue = ["program_json": [
        "title": "Evening Energy",
        "session_minutes": 25,
        "equipment": ["mat", "dumbbell"],
        "sessions": [
            ["day": 1, "name": "Full body A", "exercises": [exercise("Goblet squat"), exercise("Dumbbell row")]],
            ["day": 2, "name": "Full body B", "exercises": [exercise("Glute bridge"), exercise("Dead bug")]],
        ],
        "progression": [["weeks": "1-4", "focus": "Learn the moves"], ["weeks": "5-8", "focus": "Add a set"]],
        "safety_notes": ["Warm up for 3 minutes.", "Stop if anything hurts."],
    ]]

    /// `value` with the member or element at `path` replaced, or removed when `replacement` is nil.
    static func editing(_ value: JSONValue, _ path: [String], to replacement: JSONValue?) -> JSONValue {
        guard let first = path.first else { return replacement ?? .null }
        let rest = Array(path.dropFirst())
        switch value {
        case .object(var object):
            object[first] = rest.isEmpty ? replacement : editing(object[first] ?? .null, rest, to: replacement)
            return .object(object)
        case .array(var elements):
            let index = Int(first)!
            if rest.isEmpty, replacement == nil { elements.remove(at: index) } else {
                elements[index] = editing(elements[index], rest, to: replacement)
            }
            return .array(elements)
        default:
            return value
        }
    }

    static func lines(_ diff: JSONDiff) -> [String] { diff.changes.map(\.description) }

    @Test(arguments: [JSONValue.null, 3, "text", [1, 2], options, program])
    func identicalValuesHaveNoChanges(value: JSONValue) {
        let diff = JSONDiff(old: value, new: value)
        #expect(diff.isEmpty)
        #expect(diff.rendered() == "")
        #expect(diff.counts.total == 0)
    }

    @Test(arguments: [
        (JSONValue(1), JSONValue(2), "~ (root): 1 → 2"),
        (["a": 1, "b": true], ["a": 1, "b": false], "~ b: true → false"),
        (["a": ["b": "x"]], ["a": ["b": "y"]], "~ a.b: \"x\" → \"y\""),
        (["a": 1], ["a": 1, "b": 2], "+ b: 2"),
        (["a": 1, "b": 2], ["a": 1], "- b: 2"),
        (["my key": 1], ["my key": 2], "~ [\"my key\"]: 1 → 2"),
    ] as [(JSONValue, JSONValue, String)])
    func reportsOneChangeForScalarsAndKeys(old: JSONValue, new: JSONValue, expected: String) {
        #expect(Self.lines(JSONDiff(old: old, new: new)) == [expected])
    }

    @Test(arguments: [
        (JSONValue(3), JSONValue("3")),
        (["x": 1], [1]),
        (.null, ["x": 1]),
        ([1, 2], "1, 2"),
    ] as [(JSONValue, JSONValue)])
    func aTypeChangeIsOneChange(old: JSONValue, new: JSONValue) {
        let diff = JSONDiff(old: ["value": old], new: ["value": new])
        #expect(diff.changes == [.init(kind: .changed, path: "value", oldValue: old, newValue: new)])
    }

    @Test func wholeAndFractionalNumbersAreEqual() {
        #expect(JSONDiff(old: ["sets": 1], new: ["sets": 1.0]).isEmpty)
    }

    @Test(arguments: [
        (0.0, 60.0, 60.4, false),
        (0.5, 60.0, 60.4, true),
        (0.5, 60.0, 60.6, false),
        (0.5, 60.0, 59.5, true),
    ])
    func numericTolerance(tolerance: Double, old: Double, new: Double, equal: Bool) {
        let options = JSONDiff.Options(numericTolerance: tolerance)
        let diff = JSONDiff(old: ["rest": [.number(old)]], new: ["rest": [.number(new)]], options: options)
        #expect(diff.isEmpty == equal)
        if !equal { #expect(Self.lines(diff) == ["~ rest[0]: \(JSONValue.number(old)) → \(JSONValue.number(new))"]) }
    }

    @Test func optionsAreMatchedByIDAcrossReordering() {
        guard case .array(let options)? = Self.options["options"] else { return }
        let reordered: JSONValue = ["options": .array([options[2], options[0], options[1]])]
        let diff = JSONDiff(old: Self.options, new: reordered)
        #expect(diff.changes == [.init(kind: .moved, path: #"options[id="walk-daily"]"#, move: .init(from: 2, to: 0))])
        #expect(diff.rendered() == #"↕ options[id="walk-daily"]: moved from 2 to 0"#)
    }

    @Test(arguments: [
        (["a", "b"], ["b", "a"], [#"↕ [id="b"]: moved from 1 to 0"#]),
        (["a", "b", "c"], ["c", "b"], [#"- [id="a"]: {"id":"a"}"#, #"↕ [id="c"]: moved from 2 to 0"#]),
        (["a", "b", "c"], ["x", "b", "c", "a"], [#"+ [id="x"]: {"id":"x"}"#, #"↕ [id="a"]: moved from 0 to 3"#]),
    ] as [([String], [String], [String])])
    func movesAreThoseNotExplainedByInsertionsOrRemovals(old: [String], new: [String], expected: [String]) {
        func elements(_ ids: [String]) -> JSONValue { .array(ids.map { ["id": .string($0)] }) }
        #expect(Self.lines(JSONDiff(old: elements(old), new: elements(new))) == expected)
    }

    @Test func aChangedSummaryIsOneChangeInsideTheOption() {
        let new = Self.editing(Self.options, ["options", "1", "summary"], to: "Strength three times a week")
        let diff = JSONDiff(old: Self.options, new: new)
        #expect(diff.changes == [.init(
            kind: .changed, path: #"options[id="lift-2x"].summary"#,
            oldValue: "Strength twice a week", newValue: "Strength three times a week"
        )])
    }

    @Test func anOptionWithANewIDIsOneRemovalAndOneAddition() {
        let replacement: JSONValue = ["id": "swim-1k", "summary": "Swim 1 km", "detail": "Twice a week."]
        let diff = JSONDiff(old: Self.options, new: Self.editing(Self.options, ["options", "1"], to: replacement))
        #expect(diff.changes.map(\.kind) == [.removed, .added])
        #expect(diff.changes.map(\.path) == [#"options[id="lift-2x"]"#, #"options[id="swim-1k"]"#])
        #expect(diff.changes[1].newValue == replacement)
        #expect(diff.counts == .init(added: 1, removed: 1))
    }

    @Test func aMovedOptionThatAlsoChangedReportsBoth() {
        guard case .array(let options)? = Self.options["options"] else { return }
        let edited = Self.editing(options[0], ["detail"], to: "Four runs a week.")
        let diff = JSONDiff(old: Self.options, new: ["options": .array([options[1], options[2], edited])])
        #expect(Self.lines(diff) == [
            #"↕ options[id="run-5k"]: moved from 0 to 2"#,
            #"~ options[id="run-5k"].detail: "Three runs a week." → "Four runs a week.""#,
        ])
    }

    @Test func sessionsAreMatchedByDayAndExercisesByName() {
        let path = ["program_json", "sessions", "1", "exercises", "1", "reps"]
        let diff = JSONDiff(old: Self.program, new: Self.editing(Self.program, path, to: "12"))
        #expect(diff.changes == [.init(
            kind: .changed, path: #"program_json.sessions[day=2].exercises[name="Dead bug"].reps"#,
            oldValue: "10", newValue: "12"
        )])
    }

    @Test(arguments: [
        (["mat", "bench", "dumbbell"], ["+ program_json.equipment[1]: \"bench\""]),
        (["dumbbell"], ["- program_json.equipment[0]: \"mat\""]),
        (["mat", "kettlebell"], ["~ program_json.equipment[1]: \"dumbbell\" → \"kettlebell\""]),
        (["band", "mat", "dumbbell", "bench"], [
            "+ program_json.equipment[0]: \"band\"", "+ program_json.equipment[3]: \"bench\"",
        ]),
    ] as [([JSONValue], [String])])
    func stringArraysAreAlignedOnTheirEqualElements(equipment: [JSONValue], expected: [String]) {
        let new = Self.editing(Self.program, ["program_json", "equipment"], to: .array(equipment))
        #expect(Self.lines(JSONDiff(old: Self.program, new: new)) == expected)
    }

    @Test func duplicateKeyValuesFallBackToTheNextKeyThenToPosition() {
        let old: JSONValue = ["sessions": [
            ["day": 1, "name": "Legs", "minutes": 20], ["day": 1, "name": "Core", "minutes": 10],
        ]]
        let swapped: JSONValue = ["sessions": [
            ["day": 1, "name": "Core", "minutes": 10], ["day": 1, "name": "Legs", "minutes": 25],
        ]]
        #expect(Self.lines(JSONDiff(old: old, new: swapped)) == [
            #"↕ sessions[name="Core"]: moved from 1 to 0"#, #"~ sessions[name="Legs"].minutes: 20 → 25"#,
        ])
        let edited = Self.editing(old, ["sessions", "1", "minutes"], to: 15)
        let byDay = JSONDiff(old: old, new: edited, options: .init(arrayKeys: ["day"]))
        #expect(Self.lines(byDay) == ["~ sessions[1].minutes: 10 → 15"])
    }

    @Test func rendersASmallProgramChange() {
        var new = Self.editing(Self.program, ["program_json", "session_minutes"], to: 30)
        new = Self.editing(new, ["program_json", "equipment"], to: ["mat", "bench", "dumbbell"])
        new = Self.editing(new, ["program_json", "sessions", "0", "exercises", "0", "reps"], to: "8-10")
        new = Self.editing(new, ["program_json", "sessions", "1", "exercises", "1"], to: Self.exercise("Bird dog"))
        new = Self.editing(new, ["program_json", "progression", "1", "focus"], to: "Add a set to each exercise")
        new = Self.editing(new, ["program_json", "safety_notes", "0"], to: nil)
        #expect(JSONDiff(old: Self.program, new: new).rendered() == #"""
            ~ program_json.session_minutes: 25 → 30
            + program_json.equipment[1]: "bench"
            ~ program_json.sessions[day=1].exercises[name="Goblet squat"].reps: "10" → "8-10"
            - program_json.sessions[day=2].exercises[name="Dead bug"]: {"name":"Dead bug","sets":3,"reps":"10","rest_seconds":60}
            + program_json.sessions[day=2].exercises[name="Bird dog"]: {"name":"Bird dog","sets":3,"reps":"10","rest_seconds":60}
            ~ program_json.progression[weeks="5-8"].focus: "Add a set" → "Add a set to each exercise"
            - program_json.safety_notes[0]: "Warm up for 3 minutes."
            """#)
    }

    static let markdown =
        "# Evening Energy\nThree sessions a week. Day 1: goblet squat 3 × 10, rest 60 s. Day 2: glute bridge."

    @Test(arguments: [
        ("3 × 10", "3 × 8-10", #""…squat 3 × 10, rest 60 s.…" → "…squat 3 × 8-10, rest 60 s.…""#),
        ("glute bridge.", "glute bridge. Day 3: rest.", #""…2: glute bridge." → "…2: glute bridge. Day 3: rest.""#),
        ("# Evening", "# Morning", ##""# Evening Energy\nThree sessions…" → "# Morning Energy\nThree sessions…""##),
    ])
    func aLongStringShowsTheWordsThatDiffer(old: String, new: String, expected: String) {
        let edited = Self.markdown.replacingOccurrences(of: old, with: new)
        let diff = JSONDiff(old: ["program_markdown": .string(Self.markdown)], new: ["program_markdown": .string(edited)])
        #expect(diff.rendered() == "~ program_markdown: " + expected)
        #expect(diff.changes.count == 1)
    }

    @Test func colorOnlyWhenAsked() {
        let diff = JSONDiff(old: ["a": 1, "b": 2, "c": [1]], new: ["a": 2, "c": [1, 3]])
        #expect(!diff.rendered().contains("\u{1B}["))
        #expect(diff.rendered(color: true) == [
            "\u{1B}[33m~ a: 1 → 2\u{1B}[0m", "\u{1B}[31m- b: 2\u{1B}[0m", "\u{1B}[32m+ c[1]: 3\u{1B}[0m",
        ].joined(separator: "\n"))
    }
}
