import Foundation
import JSONSchema
import Testing

@testable import Intake

@Suite("fixtures check: expectations the record calls for")
struct ExpectationCoverageTests {
    static let answeringRecord = """
        {
          "name": "Sam",
          "frequency": "3 days max",
          "injuries": "Sore left knee on stairs",
          "environment": "Home: dumbbells, bands",
          "anythingElse": "About 30 minutes after work."
        }
        """

    func check(record: String = answeringRecord, scenario: String) throws -> [String] {
        let project = try TemporaryProject()
        defer { project.remove() }
        try project.write("sam.json", record)
        try project.write("sam.yaml", scenario)
        return try FixtureCorpus(layout: project.layout).check().problems.map(\.description)
    }

    @Test func anAnsweredQuestionWithoutItsExpectationIsReportedWithTheAnswerAndTheFix() throws {
        let lines = try check(scenario: TemporaryProject.minimalScenario)
        #expect(lines == [
            "fixtures/sam.yaml:1:1: expect.max_days_per_week: the intake says frequency \"3 days max\" but the scenario declares no "
                + "max_days_per_week, so the days-per-week check (program.days-per-week) cannot run; add expect.max_days_per_week, "
                + "or `max_days_per_week: null` to leave it off on purpose",
            "fixtures/sam.yaml:1:1: expect.max_session_minutes: the intake says anythingElse \"About 30 minutes after work.\" but the "
                + "scenario declares no max_session_minutes, so the session-length check (program.session-length) cannot hold "
                + "sessions to that time; add expect.max_session_minutes, or `max_session_minutes: null` to leave it off on purpose",
            "fixtures/sam.yaml:1:1: expect.equipment: the intake says environment \"Home: dumbbells, bands\" but the scenario declares "
                + "no equipment, so the equipment check (program.equipment) cannot run; add expect.equipment, "
                + "or `equipment: null` to leave it off on purpose",
            "fixtures/sam.yaml:1:1: expect.avoid: the intake says injuries \"Sore left knee on stairs\" but the scenario declares no "
                + "avoid, so the avoid check (program.avoids) cannot run; add expect.avoid, or `avoid: null` to leave it off on purpose",
        ])
    }

    @Test func theProblemPointsAtTheExpectBlockWhenThereIsOne() throws {
        let scenario = TemporaryProject.minimalScenario + """

            expect:
              max_days_per_week: 3
              max_session_minutes: 30
              equipment: [dumbbell, resistance-band]
              mention: ["Sam"]
            """
        let lines = try check(scenario: scenario)
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasPrefix("fixtures/sam.yaml:4:1: expect.avoid: the intake says injuries \"Sore left knee on stairs\"") == true)
        // The edit's expectations apply to the edited program only, so they do not stand in for expect.
        let inEditOnly = TemporaryProject.minimalScenario + """

              expect:
                avoid: ["lunge"]
            expect:
              max_days_per_week: 3
              max_session_minutes: 30
              equipment: [dumbbell, resistance-band]
            """
        #expect(try check(scenario: inEditOnly).map { $0.contains("expect.avoid: the intake says injuries") } == [true])
    }

    @Test func nullLeavesACheckOffOnPurpose() throws {
        let project = try TemporaryProject()
        defer { project.remove() }
        try project.write("sam.json", Self.answeringRecord)
        try project.write("sam.yaml", TemporaryProject.minimalScenario + """

            expect:
              max_days_per_week: null
              max_session_minutes: ~
              equipment: null  # any equipment goes
              avoid: null
            """)
        let corpus = try FixtureCorpus(layout: project.layout)
        #expect(corpus.check().problems.map(\.description) == [])
        #expect(try corpus.load("sam").scenario.expect == Expectations())
    }

    @Test func declaredExpectationsSatisfyTheRule() throws {
        let lines = try check(scenario: TemporaryProject.minimalScenario + """

            expect:
              max_days_per_week: 3
              max_session_minutes: 30
              equipment: [dumbbell, resistance-band]
              avoid: ["jump", "deep squat"]
            """)
        #expect(lines == [])
    }

    @Test func nullIsNotAllowedInTheEditsExpectations() throws {
        let lines = try check(record: "{\"name\": \"Sam\"}", scenario: TemporaryProject.minimalScenario + """

              expect:
                equipment: null
            """)
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasPrefix("fixtures/sam.yaml:5:16: program_edit.expect.equipment: expected array, got null") == true, "\(lines)")
    }

    @Test func aRecordThatSkipsTheQuestionsNeedsNoExpectations() throws {
        #expect(try check(record: "{\"name\": \"Sam\", \"frequency\": \"  \"}", scenario: TemporaryProject.minimalScenario) == [])
        // `fixtures check` reports the gap; running the fixture does not depend on it.
        let project = try TemporaryProject()
        defer { project.remove() }
        try project.write("sam.json", Self.answeringRecord)
        try project.write("sam.yaml", TemporaryProject.minimalScenario)
        #expect(try FixtureCorpus(layout: project.layout).load("sam").scenario.expect == Expectations())
    }

    @Test(arguments: ["None", "none.", "N/A", "Nope!", "nothing", "  None really  ", "Ninguna"])
    func anInjuriesAnswerThatSaysNoneNeedsNoAvoid(answer: String) {
        #expect(ExpectationCoverage.unlessNothingToReport(answer) == nil)
    }

    @Test(arguments: ["None really. Wrists get sore sometimes", "No pain, but a torn ACL in 2019", "Nothing serious. Stiff lower back"])
    func anInjuriesAnswerThatGoesOnNeedsAvoid(answer: String) {
        #expect(ExpectationCoverage.unlessNothingToReport(answer) != nil)
    }

    @Test(arguments: [
        ("30 min tops, before my shift", "30 min"), ("I can get 20-25 minutes after bed time", "20-25 minutes"),
        ("An hour max, before work.", "An hour"), ("30, 40 minutes is plenty.", "30, 40 minutes"),
        ("Tengo media hora en la tarde", "media hora"), ("2-hour barbell sessions", "2-hour"), ("Weekdays 60 min, Saturday up to 90.", "60 min"),
        ("3 days, maybe 4", nil), ("Thanks, that's all!", nil), ("About 6 months", nil), ("2 mini sessions", nil),
    ])
    func aDurationInTheAnswerCallsForASessionLimit(answer: String, found: String?) {
        #expect(ExpectationCoverage.duration(answer).map { String(answer[$0]) } == found)
    }

    @Test func aLongAnswerIsQuotedAroundWhatCallsForTheExpectation() throws {
        let answer = String(repeating: "I love my dog and my garden. ", count: 6) + "Realistically 45 minutes on school days." + String(repeating: " More about me.", count: 6)
        let record = "{\"name\": \"Sam\", \"anythingElse\": \(JSONValue.string(answer).serialized())}"
        let lines = try check(record: record, scenario: TemporaryProject.minimalScenario)
        #expect(lines.count == 1, "\(lines)")
        let line = try #require(lines.first)
        let quoted = try #require(line.components(separatedBy: "anythingElse \"").last?.components(separatedBy: "\" but").first)
        #expect(quoted.hasPrefix("…") && quoted.hasSuffix("…"), "\(quoted)")
        #expect(quoted.contains("45 minutes"))
        #expect(quoted.count <= 82)
    }
}
