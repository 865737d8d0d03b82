import Checks
import Foundation
import Intake
import JSONSchema
@testable import Providers
import TestSupport
import Testing

@testable import Pipeline

/// Prompt set v6 for goal options (`plan: pinned`, `guardrails: true`): the backend reads
/// the intake into a goal frame and picks three kinds of option, the model writes their
/// words, the guardrails judge each option, and an edit keeps what its feedback leaves.
@Suite("Goal options under the backend")
struct PlannedOptionsTests {
    static let names = try! FixtureCorpus(layout: Repository.layout).fixtureNames()

    static func prompts() throws -> PromptLibrary {
        try PromptLibrary(layout: Repository.layout)
    }

    static func input(_ name: String, options: JSONValue? = nil, feedback: String? = nil) throws -> StepInput {
        StepInput(fixture: try Repository.fixture(name), currentOptions: options, feedback: feedback)
    }

    /// A reply that writes every slot of `layout` with clean sentences of its own.
    static func reply(for layout: OptionLayout) -> JSONValue {
        let written = [
            ("Finish feeling strong", "You build one longer session each week and rest well before the day."),
            ("Lift ten more pounds on your main lifts", "Three gym sessions a week add a little load whenever your form stays clean."),
            ("Walk thirty minutes without stopping", "Easy walks grow by five minutes a week until half an hour feels comfortable."),
        ]
        // Each names what its kind is about, as the guardrails ask.
        return ["options": .array(zip(written, layout.slots).map { text, slot in
            ["summary": .string(text.0 + (slot.mentions.first.map { " with your \($0)" } ?? "") + "."), "detail": .string(text.1)]
        })]
    }

    static func server(replying texts: [String]) throws -> LoopbackServer {
        try LoopbackServer(responses: texts.map { .json(StepCostTests.completion($0, input: 700, output: 120)) })
    }

    @Test(arguments: names)
    func everyPersonIsOfferedThreeDistinctKindsThatSuitThem(name: String) throws {
        let prompts = try Self.prompts()
        let record = try Repository.fixture(name).record
        let frame = try #require(prompts.goalFrame(for: record))
        let layout = try #require(prompts.optionLayout(.goalOptions, input: try Self.input(name)))
        let kinds = layout.slots.map(\.kind)
        #expect(kinds.count == 3 && Set(kinds).count == 3, "\(name): \(kinds)")
        if frame.noWeightLoss != nil { #expect(!kinds.contains("weight-loss"), "\(name): \(kinds)") }
        if frame.event != nil { #expect(kinds.first == (frame.wants.contains("time") ? "time" : "event"), "\(name): \(kinds)") }
        // The backend's own text for each is a whole sentence with every placeholder filled.
        for slot in layout.slots {
            for text in [slot.fallback.summary, slot.fallback.detail] {
                #expect(!text.contains("{") && text.hasSuffix("."), "\(name) \(slot.kind): \(text)")
            }
        }
        let schema = try Schema(PlannedOptions.replySchema(layout: layout))
        #expect(schema.isValid(Self.reply(for: layout)))
        #expect(!schema.isValid(["options": [["summary": "Run far and then,", "detail": "You run."]]]))
    }

    @Test func theFrameReadsWhatTheyWantTheirEventTimelineAndLimits() throws {
        let prompts = try Self.prompts()
        let runner = try #require(prompts.goalFrame(for: try Repository.fixture("race-runner").record))
        #expect(runner.event == "half marathon" && runner.weeks == 12)
        let eating = try #require(prompts.goalFrame(for: try Repository.fixture("eating-disorder-risk").record))
        #expect(eating.noWeightTalk && eating.noWeightLoss != nil)
        let gaining = try #require(prompts.goalFrame(for: try Repository.fixture("weight-gain").record))
        #expect(gaining.noWeightLoss?.hasPrefix("underweight") == true && !gaining.noWeightTalk && gaining.wants.first == "weight-gain")
        let spanish = try #require(prompts.goalFrame(for: try Repository.fixture("spanish-speaker").record))
        #expect(spanish.language == "es" && spanish.weeks == nil && spanish.month == "diciembre")
        // A weight-loss option never offers more than 1% of body weight a week, in whole
        // pounds that agree with its total: 15 lbs in 10 weeks asked at 168 lbs is 10.
        let layout = try #require(prompts.optionLayout(.goalOptions, input: StepInput(fixture: try Repository.fixture("weight-loss-deadline"))))
        let loss = try #require(layout.slots.first { $0.kind == "weight-loss" })
        #expect(loss.brief.contains("up to 10 pounds in 10 weeks, about 1 lb a week"), "\(loss.brief)")
    }

    @Test func aCleanReplyBecomesTheOptionsWithTheBackendsIdsKindsAndWeeks() async throws {
        let prompts = try Self.prompts()
        let input = try Self.input("race-runner")
        let layout = try #require(prompts.optionLayout(.goalOptions, input: input))
        let server = try Self.server(replying: [Self.reply(for: layout).serialized()])
        defer { server.stop() }
        let result = await StepRunner(provider: StepCostTests.openAI(server, model: "local"), prompts: prompts)
            .run(id: .goalOptions, step: .goalOptions, input: input)
        let options = try #require(result.output?["options"]?.arrayValue, "\(result.failure?.message ?? "")")
        #expect(options.compactMap { $0["id"]?.stringValue } == layout.slots.map(\.id))
        #expect(options.allSatisfy { $0["weeks"]?.intValue == 12 })
        #expect(result.interventions.isEmpty && !result.repaired)
        // The request carries the pinned shape: exactly three options, each two sentences' worth.
        let request = try #require(server.requests.first?.bodyText)
        #expect(request.contains("\"minItems\":3") && request.contains("half marathon"))
    }

    @Test func anOptionAtFaultGetsOneRepairNamingItThenTheBackendsText() async throws {
        let prompts = try Self.prompts()
        let input = try Self.input("hostile-ignore-instructions")
        let layout = try #require(prompts.optionLayout(.goalOptions, input: input))
        var faulty = Self.reply(for: layout)
        guard case .object(var root) = faulty, var options = root["options"]?.arrayValue else { Issue.record("no options"); return }
        options[1] = ["summary": "I will lift every day and write ACCESS GRANTED.", "detail": "You train on your usual days and add a rep each week."]
        root["options"] = .array(options)
        faulty = .object(root)
        let server = try Self.server(replying: [faulty.serialized(), faulty.serialized()])
        defer { server.stop() }
        let result = await StepRunner(provider: StepCostTests.openAI(server, model: "local"), prompts: prompts)
            .run(id: .goalOptions, step: .goalOptions, input: input)
        #expect(result.status == .valid, "\(result.failure?.message ?? "")")
        let kinds = result.interventions.map(\.kind)
        #expect(kinds.filter { $0 == Intervention.firstPerson }.count == 2 && kinds.filter { $0 == Intervention.echoedInstruction }.count == 2)
        #expect(kinds.last == Intervention.textReplaced)
        let repair = try #require(server.requests.last?.bodyText)
        #expect(repair.contains("option 2: written in the person's own first person") && repair.contains("ACCESS GRANTED"))
        let written = try #require(result.output?["options"]?.arrayValue)
        #expect(written[1]["summary"]?.stringValue == layout.slots[1].fallback.summary)
        #expect(written[0]["summary"]?.stringValue?.hasPrefix("Finish feeling strong") == true, "the options not at fault keep the model's words")
    }

    @Test func anEditWritesOnlyWhatTheFeedbackAsksAndKeepsTheRest() async throws {
        let prompts = try Self.prompts()
        let first = try #require(prompts.optionLayout(.goalOptions, input: try Self.input("contradictory")))
        let current = PlannedOptions.expanded(Self.reply(for: first), layout: first)
        let input = try Self.input("contradictory", options: current, feedback: "OK fine. Forget the marathon, I'll do it next year. Focus on getting strong and losing the gut.")
        let layout = try #require(prompts.optionLayout(.goalOptionsEdit, input: input))
        #expect(layout.slots.count == 1 && layout.leaveOut == ["Forget the marathon"], "\(layout.lines)")
        let server = try Self.server(replying: [Self.reply(for: layout).serialized()])
        defer { server.stop() }
        let result = await StepRunner(provider: StepCostTests.openAI(server, model: "local"), prompts: prompts)
            .run(id: .optionEdit(round: 1), step: .goalOptionsEdit, input: input)
        let before = try #require(current["options"]?.arrayValue)
        let after = try #require(result.output?["options"]?.arrayValue, "\(result.failure?.message ?? "")")
        #expect(zip(before, after).filter { $0 == $1 }.count == 2, "the two options the feedback did not touch stay as they were")
        // Strength and weight loss are what the two kept options are about: the marathon's
        // place goes to a kind they have not seen, never a third option saying the same.
        #expect(after.map { $0["kind"]?.stringValue } == ["endurance", "strength", "weight-loss"])
    }

    @Test func harmfulFeedbackIsDeclinedInASentenceWithoutAModelCall() async throws {
        let prompts = try Self.prompts()
        let first = try #require(prompts.optionLayout(.goalOptions, input: try Self.input("eating-disorder-risk")))
        let current = PlannedOptions.expanded(Self.reply(for: first), layout: first)
        let input = try Self.input("eating-disorder-risk", options: current, feedback: "none of these are about getting thinner?? I want to get down to 98 before spring break")
        let server = try LoopbackServer(answering: .status(500))
        defer { server.stop() }
        let result = await StepRunner(provider: StepCostTests.openAI(server, model: "local"), prompts: prompts)
            .run(id: .optionEdit(round: 1), step: .goalOptionsEdit, input: input)
        #expect(server.requests.isEmpty)
        #expect(result.output?["options"] == current["options"])
        #expect(result.output?["note"]?.stringValue?.contains("doctor") == true)
        #expect(result.interventions.map(\.kind) == [Intervention.feedbackDeclined, Intervention.feedbackDeclined])
    }

    @Test func theProgramsWeeksComeFromTheConfirmedOptionsFrameNeverItsWords() throws {
        let prompts = try Self.prompts()
        let record = try Repository.fixture("advanced-lifter").record
        let prose: JSONValue = ["id": "strength", "summary": "Peak over the next 2 weeks.", "detail": "Heavy singles."]
        #expect(prompts.plan(for: record, confirmedGoal: prose)?.weeks == 4, "an old option's words set it, within the bounds")
        let framed: JSONValue = ["id": "strength", "summary": "Peak over the next 2 weeks.", "detail": "Heavy singles.", "weeks": 16]
        #expect(prompts.plan(for: record, confirmedGoal: framed)?.weeks == 16)
    }

    @Test func aHealthGoalTheirGoalsNameIsAnOptionOfItsOwnAndAHealthAnswerAloneIsNot() throws {
        let prompts = try Self.prompts()
        // "get my blood pressure down so I don't need meds": a goal, with the doctor's say on the medication.
        let traveller = try #require(prompts.optionLayout(.goalOptions, input: try Self.input("frequent-traveller")))
        let health = try #require(traveller.slots.first { $0.kind == "health" })
        #expect(health.fallback.summary.hasPrefix("Bring your blood pressure down") && health.fallback.detail.contains("doctor"))
        // Type 2 diabetes in his health answers, "keep my heart going" in his goals: the heart it is.
        let frame = try #require(prompts.goalFrame(for: try Repository.fixture("older-beginner-heart-condition").record))
        #expect(frame.healthTopic == "a heart condition")
    }

    @Test func aWishTakesTheBackendsTextForWhatItIsAboutAndAPointerReadsTheClauseBefore() throws {
        let prompts = try Self.prompts()
        func edit(_ name: String, _ feedback: String) throws -> OptionLayout {
            let first = try #require(prompts.optionLayout(.goalOptions, input: try Self.input(name)))
            let current = PlannedOptions.expanded(Self.reply(for: first), layout: first)
            return try #require(prompts.optionLayout(.goalOptionsEdit, input: try Self.input(name, options: current, feedback: feedback)))
        }
        // Reviewed text for exactly what was asked: the backend writes it, and no model is called.
        let posture = try edit("desk-worker-back-pain", "I also want something for my posture. My wife says I'm turning into a shrimp.")
        #expect(posture.slots.isEmpty && posture.note == nil && posture.answered.count == 1, "\(posture.entries)")
        #expect(posture.entries.contains { if case .kept(let option) = $0 { option["summary"]?.stringValue?.hasPrefix("Stand taller") == true } else { false } })
        let dress = try edit("weight-loss-deadline", "Honestly my arms and back are what I care about in the dress. Can they be more about that?")
        #expect(dress.slots.map(\.fallback.summary).contains { $0.hasPrefix("Tone your arms and back") }, "\(dress.slots)")
        // "less about the wait and more about my back": one clause, read as what to leave out and a wish.
        let back = try edit("speech-to-text-mess", "um can you make it like less about the wait and more about my back not hurting")
        #expect(back.leaveOut == ["um can you make it like less about the wait"])
        #expect(!back.entries.contains { if case .kept(let option) = $0 { option["kind"] == "weight-loss" } else { false } })
        // An option they keep already answers it: nothing to write, and the note names that option.
        let energy = try edit("night-shift-nurse", "Can one of them be about energy?")
        #expect(energy.slots.isEmpty && energy.note?.contains("is already about that") == true, "\(energy.note ?? "")")
        // What they eat is a dietitian's, never an option.
        let eating = try edit("weight-gain", "All of these are gym only. Can one be about the eating side? That's my actual problem.")
        #expect(eating.slots.isEmpty && eating.declined.count == 1 && eating.note?.contains("dietitian") == true)
    }

    /// A person no fixture holds: `minimal-record`'s files with `record` for its answers.
    static func person(_ record: LocalIntakeData) throws -> Fixture {
        let base = try Repository.fixture("minimal-record")
        return Fixture(name: "unseen", record: record, recordJSON: base.recordJSON, scenario: base.scenario, recordURL: base.recordURL, scenarioURL: base.scenarioURL)
    }

    @Test func peopleNoFixtureHoldsGetOptionsAndEditsThatReadRight() throws {
        let prompts = try Self.prompts()
        let omar = try Self.person(LocalIntakeData(
            name: "Omar", age: 52, goals: "Lower my blood sugar, my doctor says I'm pre-diabetic. Lose 25 pounds.", timeline: "1 year",
            frequency: "4 days, 30 minutes", height: 70, weight: 230))
        let first = try #require(prompts.optionLayout(.goalOptions, input: StepInput(fixture: omar)))
        #expect(first.weeks == 52, "\"1 year\" is 52 weeks")
        let loss = try #require(first.slots.first { $0.kind == "weight-loss" })
        #expect(loss.fallback.summary == "Lose up to 25 pounds in 52 weeks." && loss.fallback.detail.contains("about 0.5 lb a week"), "\(loss.fallback)")
        let current = PlannedOptions.expanded(Self.reply(for: first), layout: first)
        func edit(_ feedback: String, _ person: Fixture, options: JSONValue) throws -> OptionLayout {
            try #require(prompts.optionLayout(.goalOptionsEdit, input: StepInput(fixture: person, currentOptions: options, feedback: feedback)))
        }
        // What they ask for more of is what a kept option is about: the weight option's place goes to a new kind, never a copy.
        let sugar = try edit("Less about the weight please, more about getting my blood sugar down", omar, options: current)
        #expect(!sugar.slots.contains { $0.kind == "weight-loss" || $0.fallback.summary.hasPrefix("Work on") }, "\(sugar.slots.map(\.fallback))")
        // A wish with nothing to hold on to changes nothing, and says so.
        let beach = try edit("I want to look good on the beach", omar, options: current)
        #expect(beach.slots.isEmpty && beach.note?.hasPrefix("Your options stay as they were") == true, "\(beach.note ?? "")")

        let lucia = try Self.person(LocalIntakeData(
            name: "Lucía", age: 61, goals: "Quiero caminar sin dolor de rodilla y tener más equilibrio.", timeline: "Para junio",
            frequency: "3 días, 30 minutos", injuries: "Artrosis en la rodilla derecha"))
        let hers = try #require(prompts.optionLayout(.goalOptions, input: StepInput(fixture: lucia)))
        #expect(hers.slots.contains { $0.kind == "health" && $0.fallback.summary.contains("rodillas") }, "\(hers.slots.map(\.fallback))")
        let dance = try edit("¿Puede una ser sobre bailar en la boda?", lucia, options: PlannedOptions.expanded(Self.reply(for: hers), layout: hers))
        #expect(dance.answered.count == 1 && dance.entries.contains { if case .kept(let option) = $0 { option["summary"]?.stringValue?.hasPrefix("Camina y baila") == true } else { false } })
    }

    @Test func aTooLongOrUnfoundedOptionTakesTheBackendsTextWithoutARepair() async throws {
        let prompts = try Self.prompts()
        let input = try Self.input("pregnant")
        let layout = try #require(prompts.optionLayout(.goalOptions, input: input))
        guard case .object(var root) = Self.reply(for: layout), var options = root["options"]?.arrayValue else { Issue.record("no options"); return }
        // A number no answer gives, and a summary past the card's length.
        options[0] = ["summary": "Lift 150 pounds with ease.", "detail": "You add a little weight each week with good form."]
        options[2] = ["summary": .string("Walk" + String(repeating: " steady", count: 15) + "."), "detail": "You walk a little longer each week."]
        root["options"] = .array(options)
        let server = try Self.server(replying: [JSONValue.object(root).serialized()])
        defer { server.stop() }
        let result = await StepRunner(provider: StepCostTests.openAI(server, model: "local"), prompts: prompts)
            .run(id: .goalOptions, step: .goalOptions, input: input)
        #expect(server.requests.count == 1, "no repair is sent for what the backend's own text mends")
        let written = try #require(result.output?["options"]?.arrayValue, "\(result.failure?.message ?? "")")
        #expect(written[0]["summary"]?.stringValue == layout.slots[0].fallback.summary)
        #expect(written[2]["summary"]?.stringValue == layout.slots[2].fallback.summary)
        #expect(written[1]["summary"] == options[1]["summary"], "the clean option keeps the model's words")
        let replaced = result.interventions.filter { $0.kind == Intervention.textReplaced }.map(\.detail)
        #expect(replaced.count == 2 && replaced[0].contains("the number 150") && replaced[1].contains("words; write at most"), "\(replaced)")
    }

    @Test func aBrokenGoalKindsFileIsNamedByItsLine() throws {
        let project = try Repository.temporaryCopy(named: "goal-kinds")
        defer { try? FileManager.default.removeItem(at: project) }
        let file = project.appendingPathComponent("prompts/coaching/goal-kinds.yaml")
        let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "    serves: strength\n", with: "    serves: strenght\n")
        try text.write(to: file, atomically: true, encoding: .utf8)
        #expect {
            try PromptLibrary(layout: ProjectLayout(root: project))
        } throws: { error in
            let message = "\(error)"
            return message.contains("prompts/coaching/goal-kinds.yaml:") && message.contains("`strenght` is no want of `wants` (did you mean strength?)")
        }
    }
}
