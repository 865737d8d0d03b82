import Foundation
import Intake
import JSONSchema
import Testing

@testable import Pipeline

/// The plan the backend makes from an intake record before a model writes the
/// program: weeks, phases that cover them, days, minutes and equipment.
struct ProgramPlanTests {
    static let names = try! FixtureCorpus(layout: Repository.layout).fixtureNames()

    @Test(arguments: names)
    func everyFixturesPlanCoversItsWeeksWithinItsLimits(name: String) throws {
        let prompts = try Repository.prompts()
        let record = try Repository.fixture(name).record
        let plan = try #require(prompts.plan(for: record))
        let limits = try #require(prompts.intakeLimits).limits(for: record)

        #expect((4...24).contains(plan.weeks))
        #expect((2...4).contains(plan.phases.count), "\(plan.lines)")
        // Every week exactly once, in order, and the last a lighter week or a taper.
        #expect(plan.phases.flatMap { Array($0.weeks) } == Array(1...plan.weeks), "\(plan.lines)")
        #expect(["lighter", "taper"].contains(plan.phases.last?.kind), "\(plan.lines)")
        #expect(Set(plan.phases.map(\.kind)).count == plan.phases.count)

        #expect((1...6).contains(plan.days), "a rest day every week: \(plan.lines)")
        if let available = limits.days { #expect(plan.days <= available) }
        if let available = limits.sessionMinutes, available >= 15 { #expect(plan.minutes <= available) }
        #expect((15...90).contains(plan.minutes))
        #expect(plan.equipment == limits.equipment)
    }

    @Test func theTimelineSetsTheLengthAndTheGoalTheDefault() throws {
        let prompts = try Repository.prompts()
        func plan(_ name: String) throws -> ProgramPlan { try #require(prompts.plan(for: try Repository.fixture(name).record)) }
        // "Race is in 12 weeks": the race's own length, ending on a taper.
        let race = try plan("race-runner")
        #expect(race.weeks == 12)
        #expect(race.phases.map(\.kind) == ["foundation", "build", "peak", "taper"])
        #expect(race.phases.map(\.weekRange) == ["1-4", "5-8", "9-11", "12"])
        #expect(try plan("weight-loss-deadline").weeks == 10)
        #expect(try plan("eating-disorder-risk").weeks == 8)
        // "3 días", a beginner who never went to a gym, written in Spanish.
        let spanish = try plan("spanish-speaker")
        #expect(spanish.days == 3)
        #expect(spanish.phases.first?.focus.hasPrefix("Aprende") == true)
        // "Every day. Twice on days I eat more", with signs of disordered eating: rest days matter more than volume.
        let compulsive = try plan("eating-disorder-risk")
        #expect(compulsive.days == 4 && compulsive.daysReason.contains("disordered-eating"), "\(compulsive.daysReason)")
        // A time in words: "About half an hour is plenty", "Tengo media hora en la tarde" (not "an hour").
        #expect(try plan("senior-arthritis").minutes == 30)
        #expect(try plan("spanish-speaker").minutes == 30)
        #expect(try plan("spanish-speaker").minutesReason.contains("media hora"))
    }

    @Test func aBeginnerTrainsAtMostFourDays() throws {
        let prompts = try Repository.prompts()
        let record = LocalIntakeData(experienceLevel: "Total beginner, never lifted", frequency: "6 days a week")
        let plan = try #require(prompts.plan(for: record))
        #expect(plan.days == 4)
        #expect(plan.daysReason.contains("beginner"))
    }

    @Test func aTemplateShowsThePlanAndABrokenRuleNamesItsLine() throws {
        let root = try Repository.temporaryCopy(named: "program-plan")
        defer { try? FileManager.default.removeItem(at: root) }
        let variant = root.appendingPathComponent("prompts/program-draft/variants/planned")
        try FileManager.default.createDirectory(at: variant, withIntermediateDirectories: true)
        try "The plan:\n{{program_plan}}\n<intake_data>\n{{{intake_json}}}\n</intake_data>".write(
            to: variant.appendingPathComponent("user.mustache"), atomically: true, encoding: .utf8)
        let layout = ProjectLayout(root: root)
        let prompts = try PromptLibrary(layout: layout, variants: VariantSelection(resolving: ["program-draft=planned"], layout: layout))
        let fixture = try Repository.fixture("race-runner")
        let rendered = prompts.render(.programDraft, input: try FixturePlan.placeholderInput(for: .programDraft, fixture: fixture))
        #expect(rendered.user.contains("- 12 weeks (the timeline \"Race is in 12 weeks (Atlanta, March)\")"))
        #expect(rendered.user.contains("- Week 12: taper."))

        let rules = root.appendingPathComponent("prompts/program-plan.yaml")
        let broken = try String(contentsOf: rules, encoding: .utf8).replacingOccurrences(of: "  beginner_maximum: 4", with: "  beginner_maximum: nine")
        try broken.write(to: rules, atomically: true, encoding: .utf8)
        #expect {
            try PromptLibrary(layout: layout)
        } throws: { error in
            let text = "\(error)"
            return text.contains("prompts/program-plan.yaml:") && text.contains("days.beginner_maximum")
        }
    }
}
