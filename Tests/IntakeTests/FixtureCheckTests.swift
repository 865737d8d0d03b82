import Foundation
import JSONSchema
import Testing

@testable import Intake

@Suite("fixtures check")
struct FixtureCheckTests {
    struct BrokenRecord: CustomTestStringConvertible, Sendable {
        let label: String
        let contents: Data
        /// `line:column`, or nil when the problem is about the whole file.
        let location: String?
        let fragment: String
        var testDescription: String { label }
    }

    static let brokenRecords: [BrokenRecord] = [
        BrokenRecord(label: "empty file", contents: Data(), location: "1:1", fragment: "the file is empty"),
        BrokenRecord(label: "binary file", contents: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00]),
                     location: "1:1", fragment: "not valid UTF-8"),
        BrokenRecord(label: "five megabyte string",
                     contents: Data("{\"name\": \"Sam\",\n \"goals\": \"\(String(repeating: "run ", count: 1_250_000))\"}".utf8),
                     location: "2:11", fragment: "`goals` has 5000000 characters; at most 8000 allowed"),
        BrokenRecord(label: "wrong top-level type", contents: Data("[{\"name\": \"Sam\"}]".utf8),
                     location: "1:1", fragment: "object"),
        BrokenRecord(label: "duplicate keys", contents: Data("{\n  \"name\": \"Sam\",\n  \"name\": \"Samuel\"\n}".utf8),
                     location: "3:3", fragment: "duplicate key \"name\""),
        BrokenRecord(label: "invalid UTF-8", contents: Data([0x7B, 0x22, 0x6E, 0x61, 0x6D, 0x65, 0x22, 0x3A, 0x22, 0x53, 0xE9, 0x22, 0x7D]),
                     location: "1:11", fragment: "not valid UTF-8"),
        BrokenRecord(label: "NaN", contents: Data("{\"name\": \"Sam\",\n\"age\": NaN}".utf8),
                     location: "2:8", fragment: "NaN is not a JSON number"),
        BrokenRecord(label: "deep nesting",
                     contents: Data(("{\"goals\": " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}").utf8),
                     location: "1:522", fragment: "nesting deeper than 512"),
        BrokenRecord(label: "syntax error", contents: Data("{\n  \"name\": \"Sam\"\n  \"age\": 40\n}".utf8),
                     location: "3:3", fragment: "expected ',' or '}'"),
        BrokenRecord(label: "truncated", contents: Data("{\n  \"name\": \"Sam\",\n  \"age\": 4".utf8),
                     location: "3:11", fragment: "truncated"),
        BrokenRecord(label: "age out of range", contents: Data("{\n  \"name\": \"Sam\",\n  \"age\": 7\n}".utf8),
                     location: "3:10", fragment: "`age` is 7; the minimum is 13"),
        BrokenRecord(label: "integer written as text", contents: Data("{\"height\": \"5'8\"}".utf8),
                     location: "1:12", fragment: "height: expected integer, got string"),
        BrokenRecord(label: "unknown key", contents: Data("{\n  \"name\": \"Sam\",\n  \"hieght\": 68\n}".utf8),
                     location: "3:3", fragment: "unknown field `hieght`; did you mean `height`?"),
    ]

    @Test(arguments: brokenRecords)
    func reportsOnePreciseProblemPerBrokenRecord(_ broken: BrokenRecord) throws {
        let project = try TemporaryProject()
        defer { project.remove() }
        try project.write("broken.json", broken.contents)
        try project.write("broken.yaml", TemporaryProject.minimalScenario)
        let report = try FixtureCorpus(layout: project.layout).check()
        #expect(report.problems.count == 1, "\(report.problems)")
        let problem = try #require(report.problems.first)
        #expect(problem.file == "fixtures/broken.json")
        #expect(problem.location?.description == broken.location, "\(problem)")
        #expect(problem.description.contains(broken.fragment), "\(problem)")
        #expect(problem.description.count < 500, "messages stay short even for huge values")
    }

    @Test func aFixtureMayNotTakeTheNameOfTheVariantsFolder() throws {
        let project = try TemporaryProject()
        defer { project.remove() }
        try project.write("variants.json", #"{"name": "Sam"}"#)
        try project.write("variants.yaml", TemporaryProject.minimalScenario)
        let corpus = try FixtureCorpus(layout: project.layout)
        let report = corpus.check()
        #expect(report.problems.map(\.description) == ["fixtures/variants.json: `variants` is reserved: golden/variants/ holds the prompt variants' files; rename the fixture"])
        #expect(throws: FixtureError.self) { try corpus.load("variants") }
    }

    @Test func reportsEveryProblemOfEveryFileAtOnce() throws {
        let project = try TemporaryProject()
        defer { project.remove() }
        try project.write("a.json", "{\"age\": 7, \"weight\": 900, \"nmae\": \"x\"}")
        try project.write("a.yaml", TemporaryProject.minimalScenario)
        try project.write("b.json", "{\"name\": \"Sam\"}")
        try project.write("b.yaml", "summary: x\nprogram_edit:\n  feedback: y\nexpect:\n  max_days_per_wek: 3\n  equipment: [barbel]\n")
        try project.write("c.json", "{\"name\": \"Sam\"}")
        let report = try FixtureCorpus(layout: project.layout).check()
        let lines = report.problems.map(\.description)
        #expect(report.fixtureNames == ["a", "b", "c"])
        #expect(lines.count == 6, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("fixtures/a.json:1:9: `age` is 7; the minimum is 13") })
        #expect(lines.contains { $0.hasPrefix("fixtures/a.json:1:22: `weight` is 900; the maximum is 600") })
        #expect(lines.contains { $0.hasPrefix("fixtures/a.json:1:27: unknown field `nmae`; did you mean `name`?") })
        #expect(lines.contains { $0.hasPrefix("fixtures/b.yaml:5:3: expect: unknown field `max_days_per_wek`; did you mean `max_days_per_week`?") })
        #expect(lines.contains { $0.hasPrefix("fixtures/b.yaml:6:15: `equipment[0]` is \"barbel\"; expected one of") })
        #expect(lines.contains { $0.hasPrefix("fixtures/c.json: missing scenario c.yaml beside this record") })
    }

    @Test func pointsAtYAMLSyntaxErrorsAndBadRegexes() throws {
        let project = try TemporaryProject()
        defer { project.remove() }
        try project.write("a.json", "{}")
        try project.write("a.yaml", "summary: x\nprogram_edit:\n  feedback: [unclosed\n")
        try project.write("b.json", "{}")
        try project.write("b.yaml", TemporaryProject.minimalScenario + "\nassertions:\n  - step: program-draft\n    kind: regex\n    value: \"(unclosed\"\n")
        let report = try FixtureCorpus(layout: project.layout).check()
        let lines = report.problems.map(\.description)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("fixtures/a.yaml:4:1: YAML syntax") })
        #expect(lines.contains { $0.hasPrefix("fixtures/b.yaml:7:12: assertions[0].value: invalid regular expression") })
    }

    @Test func checksOnlyTheNamedFilesAndFolders() throws {
        let project = try TemporaryProject()
        defer { project.remove() }
        let good = try project.write("good.json", "{\"name\": \"Sam\"}")
        try project.write("good.yaml", TemporaryProject.minimalScenario)
        try project.write("bad.json", "{")
        let report = try FixtureCorpus(layout: project.layout).check(paths: [good])
        #expect(report.isValid)
        #expect(report.fileCount == 2)
        try project.write("orphan.yaml", TemporaryProject.minimalScenario)
        let orphan = try FixtureCorpus(layout: project.layout).check(paths: [project.layout.fixtures.appendingPathComponent("orphan.yaml")])
        #expect(orphan.problems.map(\.description) == ["fixtures/orphan.yaml: no record orphan.json beside this scenario"])
        let missing = try FixtureCorpus(layout: project.layout).check(paths: [project.layout.root.appendingPathComponent("nope")])
        #expect(missing.problems.map(\.message) == ["no such file or folder"])
    }

    @Test func loadsAValidFixtureAndExplainsAnInvalidOne() throws {
        let project = try TemporaryProject()
        defer { project.remove() }
        try project.write("sam.json", "{\"name\": \"Sam\", \"age\": 40}")
        try project.write("sam.yaml", TemporaryProject.minimalScenario + "\nconfirm:\n  prefer: [run]\n  position: 2\n")
        let corpus = try FixtureCorpus(layout: project.layout)
        let fixture = try corpus.load("sam")
        #expect(fixture.record == LocalIntakeData(name: "Sam", age: 40))
        #expect(fixture.scenario.confirm == ConfirmChoice(prefer: ["run"], position: 2))
        #expect(fixture.scenario.programEdit.feedback == "Fewer days please.")
        #expect(throws: FixtureError.notFound(name: "sma", suggestion: "sam", folder: "fixtures")) { try corpus.load("sma") }
    }
}

@Suite("The fixture corpus")
struct CorpusTests {
    @Test func everyCommittedFixtureIsValid() throws {
        let corpus = try FixtureCorpus(layout: TemporaryProject.repositoryLayout)
        let report = corpus.check()
        #expect(report.problems.isEmpty, "\(report.problems.map(\.description).joined(separator: "\n"))")
        #expect(report.fixtureNames.count >= 24)
        let fixtures = try corpus.load()
        #expect(fixtures.count == report.fixtureNames.count)
    }

    @Test func coversThePeopleTheBriefNames() throws {
        let names = Set(try FixtureCorpus(layout: TemporaryProject.repositoryLayout).fixtureNames())
        for required in [
            "busy-parent", "total-beginner", "advanced-lifter", "senior-arthritis", "teenager", "pregnant",
            "knee-injury", "shoulder-injury", "home-no-equipment", "frequent-traveller", "race-runner",
            "team-sport-in-season", "weight-gain", "weight-loss-deadline", "minimal-record", "verbose-everything",
            "spanish-speaker", "contradictory", "speech-to-text-mess", "eating-disorder-risk",
            "hostile-ignore-instructions", "hostile-fake-closing-tag",
        ] {
            #expect(names.contains(required), "missing fixture \(required)")
        }
    }

    @Test func theMinimalRecordHasOnlyAName() throws {
        let fixture = try FixtureCorpus(layout: TemporaryProject.repositoryLayout).load("minimal-record")
        #expect(fixture.recordJSON.objectValue?.keys == ["name"])
    }

    @Test func theVerboseRecordAnswersEveryQuestion() throws {
        let fixture = try FixtureCorpus(layout: TemporaryProject.repositoryLayout).load("verbose-everything")
        #expect(fixture.record.answeredFields.count == 25)
    }
}
