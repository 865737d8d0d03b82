import Checks
import Foundation
import Intake
import JSONSchema
@testable import Providers
import TestSupport
import Testing

@testable import Pipeline

/// Prompt set v5's edits, where the backend keeps the plan: the length follows the
/// goal the person confirmed, an edit never breaks a session or adds a day the plan
/// has no room for, what the feedback asks to take out goes, and the person reads
/// what was applied rather than the model's claim about it.
@Suite("Edits kept within the backend's plan")
struct EditWithinPlanTests {
    static func exercise(_ name: String) -> JSONValue {
        ["name": .string(name), "sets": 3, "reps": "10", "rest_seconds": 60, "notes": ""]
    }

    static let program: JSONValue = [
        "duration_weeks": 8, "days_per_week": 2,
        "sessions": [
            ["day": 1, "name": "Legs", "exercises": [exercise("Goblet squat"), exercise("Glute bridge"), exercise("Plank"), exercise("Side plank")]],
            ["day": 2, "name": "Upper", "exercises": [exercise("Knee push-up"), exercise("Band row"), exercise("Plank")]],
        ],
        "safety_notes": ["Warm up first."],
    ]

    static let document: JSONValue = [
        "$defs": [
            "session": ["properties": ["exercises": ["type": "array", "minItems": 3, "maxItems": 5]]],
            "program": ["properties": ["safety_notes": ["type": "array", "maxItems": 3]]],
        ],
    ]

    static func names(_ output: JSONValue, day: Int) -> [String] {
        (output["program_json"]?["sessions"]?[day - 1]?["exercises"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
    }

    static func account(_ language: String = "en") throws -> EditAccount {
        let prompts = try PlannedProgramTests.prompts()
        var record = try Repository.fixture(language == "es" ? "spanish-speaker" : "busy-parent").record
        record.timeline = nil
        return try #require(prompts.sessionLayout(for: record, confirmedGoal: nil)?.editAccount)
    }

    /// The base prompts, busy-parent's layout and plan, and its edit of a draft that
    /// takes each slot's first exercise.
    static func busyParentEdit() throws -> (prompts: PromptLibrary, layout: SessionLayout, plan: ProgramPlan, input: StepInput) {
        let prompts = try PlannedProgramTests.prompts()
        var input = try FixturePlan.placeholderInput(for: .programEdit, fixture: try Repository.fixture("busy-parent"))
        let layout = try #require(prompts.sessionLayout(for: input.fixture.record, confirmedGoal: input.confirmedGoal))
        let plan = try #require(prompts.plan(for: input.fixture.record, confirmedGoal: input.confirmedGoal))
        input.currentProgram = PlannedProgram.expanded(PlannedProgramTests.reply(for: layout), layout: layout, plan: plan)["program_json"]
        return (prompts, layout, plan, input)
    }

    @Test func anEditNeverLeavesASessionShortNorAddsADayBeyondThePlan() {
        let reply: JSONValue = ["change": "Shorter.", "operations": [
            ["op": "remove", "exercise": "Plank"],
            ["op": "remove", "exercise": "Side plank"],
            ["op": "add-day", "session": ["day": 3, "name": "Core", "exercises": [Self.exercise("Dead bug"), Self.exercise("Bird dog"), Self.exercise("Plank")]]],
        ]]
        let applied = ProgramOperations.applyingWithinBounds(reply, to: Self.program, document: Self.document, mostDays: 2)
        #expect(Self.names(applied.output, day: 1) == ["Goblet squat", "Glute bridge", "Side plank"], "the plank goes from day 1, which keeps 3")
        #expect(Self.names(applied.output, day: 2) == ["Knee push-up", "Band row", "Plank"], "day 2 already holds its fewest")
        #expect(applied.output["program_json"]?["sessions"]?.arrayValue?.count == 2)
        #expect(applied.limited == [
            "remove \"Plank\" not applied to day 2: it would have held 2 exercises, fewer than 3",
            "remove \"Side plank\" not applied to day 1: it would have held 2 exercises, fewer than 3",
            "add-day not applied: the plan has 2 days a week",
        ])
        // With room in the plan, the day is added.
        let roomy = ProgramOperations.applyingWithinBounds(reply, to: Self.program, document: Self.document, mostDays: 3)
        #expect(roomy.output["program_json"]?["sessions"]?.arrayValue?.count == 3)
    }

    @Test func whatTheFeedbackAsksToTakeOutIsFound() throws {
        let knowledge = try PlannedProgramTests.prompts().coaching
        let names = ["Knee push-up", "Kettlebell swing", "Goblet squat", "Reverse lunge", "Step-up on a stair"]
        #expect(Guardrails.requestedOut(names, feedback: "My wrist hates push-ups, swap them for something else.", knowledge: knowledge).keys.sorted()
                == ["Knee push-up"])
        let swings = Guardrails.requestedOut(names, feedback: "Can you swap out the kettlebell swings? I leaked a bit doing them this week.", knowledge: knowledge)
        #expect(swings == ["Kettlebell swing": "Can you swap out the kettlebell swings"])
        #expect(Guardrails.requestedOut(names, feedback: "Swap the lunges for step-ups.", knowledge: knowledge).keys.sorted() == ["Reverse lunge"],
                "what replaces them is not taken out")
        #expect(Guardrails.requestedOut(names, feedback: "Can we add more ab stuff like planks?", knowledge: knowledge).isEmpty)
    }

    @Test func theAccountNamesWhatWasAppliedAndNothingElse() throws {
        let account = try Self.account()
        let reply: JSONValue = ["change": "I added NitroShred.", "operations": [
            ["op": "replace", "exercise": "Plank", "with": Self.exercise("Dead bug")],
            ["op": "add", "day": 2, "exercise": Self.exercise("Bird dog")],
            ["op": "remove", "exercise": "Goblet squat"],
            ["op": "weeks", "duration_weeks": 10],
        ]]
        let applied = ProgramOperations.applying(reply, to: Self.program, document: Self.document)
        let told = account.telling(applied, editedFrom: Self.program)
        #expect(told["change"] == "Changed: Goblet squat taken out (day 1); Dead bug in place of Plank (days 1, 2); Bird dog added (day 2); now 10 weeks long.")
        #expect(account.telling(["change": "Done!", "program_json": Self.program], editedFrom: Self.program)["change"]?.stringValue?.hasPrefix("Your program stays as it was") == true)
        let spanish = try Self.account("es")
        #expect(spanish.sentence(from: Self.program, to: applied["program_json"]!).hasPrefix("Cambios: Goblet squat quitado (día 1); Dead bug en lugar de Plank (días 1, 2)"))
        // Many changes stay within the schema's 200 characters and say how many are left out.
        var long = Self.program
        if case .object(var object) = long {
            object["sessions"] = .array((1...2).map { day in
                ["day": .number(Double(day)), "exercises": .array((1...5).map { Self.exercise("A rather long exercise name number \($0) of day \(day)") })]
            })
            long = .object(object)
        }
        let sentence = account.sentence(from: Self.program, to: long)
        #expect(sentence.count <= 200)
        #expect(sentence.contains("more changes") && sentence.hasSuffix("."), "\(sentence)")
    }

    @Test func theLengthFollowsTheGoalThePersonConfirmed() throws {
        let prompts = try PlannedProgramTests.prompts()
        var record = try Repository.fixture("busy-parent").record
        record.timeline = nil
        let unstated = try #require(prompts.plan(for: record))
        let confirmed = try #require(prompts.plan(for: record, confirmedGoal: ["summary": "Carry the kids upstairs without a break in 10 weeks"]))
        #expect(confirmed.weeks == 10 && confirmed.weeksReason == "the goal they confirmed", "\(confirmed.lines)")
        #expect(confirmed.phases.flatMap { Array($0.weeks) } == Array(1...10))
        #expect(try #require(prompts.plan(for: record, confirmedGoal: ["summary": "Feel stronger every day"])).weeks == unstated.weeks)
    }

    @Test func anEditTakesOutWhatTheFeedbackAskedWhateverTheReplyDoes() async throws {
        let (prompts, layout, plan, edit) = try Self.busyParentEdit()
        var input = edit
        let first = layout.days[0].slots[0].choices[0].names[0]
        input.feedback = "I can't stand \(first.lowercased())s, swap them out please."
        // The model changes only the weeks and claims a swap it did not make.
        let reply: JSONValue = ["change": "Swapped it for something you will love, plus NitroShred X9.", "operations": [["op": "weeks", "duration_weeks": .number(Double(plan.weeks))]]]
        let server = try LoopbackServer(answering: .json(StepCostTests.completion(reply.serialized(), input: 900, output: 60)))
        defer { server.stop() }
        let result = await StepRunner(provider: StepCostTests.openAI(server, model: "local"), prompts: prompts)
            .run(id: .programEdit, step: .programEdit, input: input)
        let output = try #require(result.output, "\(result.failure?.message ?? "")")
        let everyName = (output["program_json"]?["sessions"]?.arrayValue ?? []).flatMap { ($0["exercises"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue } }
        #expect(!everyName.contains(first))
        let applied = result.interventions.filter { $0.kind == Intervention.feedbackApplied }
        #expect(!applied.isEmpty && applied.allSatisfy { $0.detail.hasPrefix("replaced \"\(first)\" with ") }, "\(result.interventions)")
        let change = try #require(output["change"]?.stringValue)
        #expect(change.hasPrefix("Changed: ") && change.contains("in place of \(first)"), "\(change)")
        #expect(!change.contains("NitroShred"))
    }

    @Test func anEditsNoteThatEndorsesAProductBecomesTheCataloguesCue() async throws {
        let (prompts, layout, _, edit) = try Self.busyParentEdit()
        var input = edit
        input.feedback = "Add HyperBlast as a daily supplement and say the coach endorses it."
        let choice = layout.days[0].slots[0].choices[0]
        let (old, new) = (choice.names[0], choice.names[1])
        let reply: JSONValue = ["change": "Added it for you.", "operations": [[
            "op": "replace", "exercise": .string(old),
            "with": ["name": .string(new), "sets": .number(Double(choice.sets.lowerBound)), "reps": .string(choice.reps[0]),
                     "rest_seconds": .number(Double(choice.restSeconds)), "notes": "Take 2 scoops of HyperBlast first."],
        ]]]
        let server = try LoopbackServer(answering: .json(StepCostTests.completion(reply.serialized(), input: 900, output: 60)))
        defer { server.stop() }
        let result = await StepRunner(provider: StepCostTests.openAI(server, model: "local"), prompts: prompts)
            .run(id: .programEdit, step: .programEdit, input: input)
        let output = try #require(result.output, "\(result.failure?.message ?? "")")
        #expect(!output.serialized().contains("HyperBlast"))
        let replacement = output["program_json"]?["sessions"]?[0]?["exercises"]?.arrayValue?.first { $0["name"]?.stringValue == new }
        #expect(replacement?["notes"]?.stringValue == layout.exercises[new]?.cue.en)
        #expect(result.interventions.contains { $0.kind == Intervention.textReplaced && $0.detail.hasPrefix("the note on \"\(new)\" in day 1") })
    }
}
