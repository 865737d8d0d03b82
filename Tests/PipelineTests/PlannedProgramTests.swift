import Checks
import Foundation
import Intake
import JSONSchema
@testable import Providers
import TestSupport
import Testing

@testable import Pipeline

/// Prompt set v5, the base (`plan: pinned`, `guardrails: true`): the backend lays out each day's
/// slots from the plan and the catalogue, the model chooses within them, and the
/// backend expands the choice into the app's program.
@Suite("Programs pinned to the backend's plan")
struct PlannedProgramTests {
    static let names = try! FixtureCorpus(layout: Repository.layout).fixtureNames()

    static func prompts() throws -> PromptLibrary {
        try PromptLibrary(layout: Repository.layout)
    }

    /// The reply a model gives that takes each slot's first exercise, its most sets and its longest prescription.
    static func reply(for layout: SessionLayout, goal: String = "Build steady strength for everyday life.") -> JSONValue {
        let days: [JSONValue] = layout.days.map { day in
            .array(day.slots.map { slot in
                let choice = slot.choices[0]
                return [.string(choice.names[0]), .number(Double(choice.sets.upperBound)), .string(choice.reps.last!)]
            })
        }
        return ["title": "Strong Steady Weeks", "goal": .string(goal), "days": .array(days), "safety_note": "Work at an effort where you can still talk, and stop if anything hurts."]
    }

    static func input(_ name: String) throws -> StepInput {
        try FixturePlan.placeholderInput(for: .programDraft, fixture: try Repository.fixture(name))
    }

    /// The checks a program must pass whatever the model chose within its lists.
    static let guaranteed = [
        "program.safe-for", "program.avoids", "program.equipment", "program.session-length", "program.session-time-plausible",
        "program.progression-covers-weeks", "program.days-per-week", "program.sessions-match-days", "program.distinct-exercises",
        "program.no-filler", "program.training-sessions", "program.rest-days", "program.respects-dislikes", "program.referral-for-intake",
        "output.script", "output.not-cut-off",
    ]

    @Test(arguments: names)
    func everyFixturesLayoutOffersOnlyWhatSuitsThemWithinItsMinutes(name: String) throws {
        let prompts = try Self.prompts()
        let input = try Self.input(name)
        let record = input.fixture.record
        let plan = try #require(prompts.plan(for: record))
        let layout = try #require(prompts.sessionLayout(for: record, confirmedGoal: input.confirmedGoal))
        #expect(layout.days.count == plan.days)
        let allowed = Set(prompts.coaching.allowedExercises(for: record, equipment: plan.equipment).values.flatMap { $0 }.map(\.id))
        for day in layout.days {
            #expect(day.slots.count >= 3, "\(name) day \(day.number): \(day.slots.map(\.pattern))")
            let names = day.slots.flatMap { $0.choices.flatMap(\.names) }
            #expect(Set(names).count == names.count, "\(name) day \(day.number): an exercise offered in two slots")
            for offered in names {
                let exercise = try #require(layout.exercises[offered])
                #expect(allowed.contains(exercise.id), "\(name): \(offered) does not suit them")
                if plan.beginner { #expect(exercise.level != .advanced, "\(name): \(offered) is advanced") }
            }
            // The longest session the lists allow still fits the plan's minutes.
            let longest = day.slots.map { slot in
                slot.choices.map { Double($0.sets.upperBound) * ($0.reps.map(ProgramPlanChecks.workSeconds).max()! + Double($0.restSeconds)) }.max()!
            }.reduce(300, +)
            #expect(longest <= Double(plan.minutes * 60), "\(name) day \(day.number): \(Int(longest / 60)) of \(plan.minutes) minutes")
        }
    }

    @Test func namesAndCuesComeInThePersonsLanguageAndAnEnduranceGoalTrainsItsActivity() throws {
        let prompts = try Self.prompts()
        let spanish = try Self.input("spanish-speaker")
        let layout = try #require(prompts.sessionLayout(for: spanish.fixture.record, confirmedGoal: spanish.confirmedGoal))
        #expect(layout.language == "es")
        #expect(layout.days.first?.name.hasPrefix("Cuerpo completo") == true)
        let offered = try #require(layout.days.first?.slots.first?.choices.first?.names.first)
        #expect(layout.exercises[offered]?.es == offered)

        let runner = try Self.input("race-runner")
        let race = try #require(prompts.sessionLayout(for: runner.fixture.record, confirmedGoal: ["summary": "Run a half marathon in 12 weeks"]))
        let conditioning = race.days.filter { $0.kind == "conditioning" }
        #expect(!conditioning.isEmpty)
        let running = try #require(prompts.coaching.advice.goalActivities.first { $0.id == "running" })
        for day in conditioning {
            let names = day.slots.first?.choices.flatMap(\.names) ?? []
            #expect(!names.isEmpty && names.allSatisfy { prompts.coaching.isActivity($0, running) }, "\(names)")
        }
    }

    @Test func theLayoutAddsWhatTheIntakeCallsFor() throws {
        let prompts = try Self.prompts()
        // Age 67 and a beta blocker: balance work every day, effort judged by feel.
        let older = try Self.input("older-beginner-heart-condition")
        let layout = try #require(prompts.sessionLayout(for: older.fixture.record, confirmedGoal: older.confirmedGoal))
        #expect(layout.days.allSatisfy { $0.slots.contains { $0.pattern == "balance" } }, "\(layout.lines)")
        #expect(layout.notes.contains { $0.contains("talk test") })
        // Four training days leave three to rest, and the program says so.
        let risk = try Self.input("eating-disorder-risk")
        let riskLayout = try #require(prompts.sessionLayout(for: risk.fixture.record, confirmedGoal: risk.confirmedGoal))
        #expect(riskLayout.notes == ["Rest on the other 3 days of the week: recovery days are part of the plan."])
        let busy = try Self.input("busy-parent")
        #expect(try #require(prompts.sessionLayout(for: busy.fixture.record, confirmedGoal: busy.confirmedGoal)).notes.count == 1, "no beta blocker")
    }

    @Test func theReplySchemaPinsEverySlotAndItsGrammarHoldsIt() throws {
        let prompts = try Self.prompts()
        let input = try Self.input("knee-injury")
        let rendered = prompts.render(.programDraft, input: input)
        let layout = try #require(prompts.sessionLayout(for: input.fixture.record, confirmedGoal: input.confirmedGoal))
        #expect(rendered.schema == PlannedProgram.replySchema(layout: layout))
        #expect(rendered.user.contains("Day 1, ") && rendered.user.contains("Weeks 1-"), "the request shows the plan and the slots")
        let schema = prompts.replySchema(.programDraft, document: rendered.schema)
        let reply = Self.reply(for: layout)
        #expect(schema.validate(reply).isValid)

        // Each slot takes only its own exercises, with the prescription of their unit.
        var wrongSlot = reply
        let secondSlot = layout.days[0].slots[1].choices[0]
        if case .object(var object) = wrongSlot, case .array(var days) = object["days"]!, case .array(var first) = days[0] {
            first[0] = [.string(secondSlot.names[0]), 1, .string(secondSlot.reps[0])]
            days[0] = .array(first)
            object["days"] = .array(days)
            wrongSlot = .object(object)
        }
        #expect(!schema.validate(wrongSlot).isValid, "an exercise of another slot")
        #expect(!schema.validate(Self.reply(for: layout, goal: "Build strength 你行.")).isValid, "another script")
        #expect(!schema.validate(Self.reply(for: layout, goal: "Build strength and")).isValid, "a sentence cut off")

        let grammar = try CompactJSONGrammar(schema: rendered.schema)
        let regex = try NSRegularExpression(pattern: "^" + grammar.regularExpression + "$")
        let text = reply.serialized(.compact)
        #expect(regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil, "the grammar lets a valid reply through")
    }

    /// Whatever the model chooses within its lists, the program passes every hard check
    /// a choice can affect: the guarantee the backend buys.
    @Test(arguments: names)
    func anyChoiceWithinTheListsPassesTheHardChecks(name: String) async throws {
        let prompts = try Self.prompts()
        let input = try Self.input(name)
        let layout = try #require(prompts.sessionLayout(for: input.fixture.record, confirmedGoal: input.confirmedGoal))
        let server = try LoopbackServer(answering: .json(StepCostTests.completion(Self.reply(for: layout).serialized(), input: 900, output: 200)))
        defer { server.stop() }
        let runner = StepRunner(provider: StepCostTests.openAI(server, model: "local"), prompts: prompts, repairAttempts: 0)
        let result = await runner.run(id: .programDraft, step: .programDraft, input: input)
        let output = try #require(result.output, "\(result.failure?.message ?? "")")
        #expect(result.status == .valid)
        let judged = try OutputCheck(output, step: .programDraft, fixture: input.fixture, prompts: prompts)
        let failed = judged.items.filter { item in item.passed == false && Self.guaranteed.contains { item.name.hasPrefix($0) } }
        #expect(failed.isEmpty, "\(failed.map { "\($0.name): \($0.message)" })")
        #expect(output["program_json"]?["duration_weeks"]?.intValue == prompts.plan(for: input.fixture.record, confirmedGoal: input.confirmedGoal)?.weeks)
    }

    @Test func theBackendAddsTheReferralTheIntakeOwesAndSaysSo() async throws {
        let prompts = try Self.prompts()
        for (name, owed) in [("knee-injury", true), ("busy-parent", false)] {
            let input = try Self.input(name)
            let layout = try #require(prompts.sessionLayout(for: input.fixture.record, confirmedGoal: input.confirmedGoal))
            let server = try LoopbackServer(answering: .json(StepCostTests.completion(Self.reply(for: layout).serialized(), input: 900, output: 200)))
            defer { server.stop() }
            let result = await StepRunner(provider: StepCostTests.openAI(server, model: "local"), prompts: prompts)
                .run(id: .programDraft, step: .programDraft, input: input)
            let notes = result.output?["program_json"]?["safety_notes"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(notes.contains { $0.hasPrefix("Check with your doctor") } == owed, "\(name): \(notes)")
            #expect(result.interventions.map(\.kind) == (owed ? [Intervention.referralAppended] : []), "\(name)")
            #expect((result.output?["program_markdown"]?.stringValue ?? "").contains("Check with your doctor") == owed, "the markdown shows it")
        }
    }

    @Test func harmfulAdviceGetsOneRepairThatNamesItAndIsCounted() async throws {
        let prompts = try Self.prompts()
        let input = try Self.input("busy-parent")
        let layout = try #require(prompts.sessionLayout(for: input.fixture.record, confirmedGoal: input.confirmedGoal))
        let harmful = Self.reply(for: layout, goal: "Lose weight fast with intermittent fasting on your training days.").serialized()
        let clean = Self.reply(for: layout).serialized()

        let repaired = try LoopbackServer(responses: [
            .json(StepCostTests.completion(harmful, input: 900, output: 200)), .json(StepCostTests.completion(clean, input: 900, output: 200)),
        ])
        defer { repaired.stop() }
        let result = await StepRunner(provider: StepCostTests.openAI(repaired, model: "local"), prompts: prompts)
            .run(id: .programDraft, step: .programDraft, input: input)
        #expect(result.status == .valid && result.repaired)
        #expect(result.interventions.map(\.kind) == [Intervention.blockedAdvice])
        #expect(result.attempts.first?.problems.first?.contains("fasting") == true)
        let repair = try #require(repaired.requests.last?.bodyText)
        #expect(repair.contains("cannot be shown to the person") && repair.contains("fasting"))

        let stubborn = try LoopbackServer(answering: .json(StepCostTests.completion(harmful, input: 900, output: 200)))
        defer { stubborn.stop() }
        let refused = await StepRunner(provider: StepCostTests.openAI(stubborn, model: "local"), prompts: prompts)
            .run(id: .programDraft, step: .programDraft, input: input)
        // A repair that still says it: the person gets the chosen exercises under the backend's own words.
        #expect(refused.status == .valid, "\(refused.failure?.message ?? "")")
        #expect(refused.interventions.map(\.kind) == [Intervention.blockedAdvice, Intervention.blockedAdvice, Intervention.textReplaced])
        let program = try #require(refused.output?["program_json"])
        let plan = try #require(prompts.plan(for: input.fixture.record, confirmedGoal: input.confirmedGoal))
        #expect(program["goal"]?.stringValue == "Train \(plan.days) days a week for \(plan.weeks) weeks, building strength step by step.")
        #expect(!(refused.output.map { $0.serialized() } ?? "").lowercased().contains("fasting"))
        #expect(program["sessions"] == PlannedProgram.expanded(Self.reply(for: layout), layout: layout, plan: plan)["program_json"]?["sessions"],
                "the model's choice of exercises stays")
    }

    @Test func guardrailsFindForeignScriptAndWeightAimsForDisorderedEating() throws {
        let prompts = try Self.prompts()
        let busy = try Repository.fixture("busy-parent").record
        let found = Guardrails.blockedContent(in: ["goal": "Build strength 你行."], record: busy, knowledge: prompts.coaching)
        #expect(found.map(\.kind) == [Intervention.foreignScript])
        #expect(Guardrails.blockedContent(in: ["goal": "Construye fuerza poco a poco."], record: busy, knowledge: prompts.coaching).isEmpty)
        let risk = try Repository.fixture("eating-disorder-risk").record
        let options: JSONValue = ["options": [["summary": "Lose 5 kg by summer", "detail": "A steady plan."]]]
        #expect(Guardrails.blockedContent(in: options, record: risk, knowledge: prompts.coaching).map(\.kind) == [Intervention.unsuitableGoal])
        #expect(Guardrails.blockedContent(in: options, record: busy, knowledge: prompts.coaching).isEmpty, "a weight aim is fine for others")
    }

    /// The checks take the guardrails' harmful-advice results for the text the guardrails
    /// judged, and only for that text: the results are the same as a search of their own.
    @Test func theChecksTakeTheGuardrailsAdviceOnlyForTheTextItJudged() throws {
        let prompts = try Self.prompts()
        let fixture = try Repository.fixture("busy-parent")
        let harmful: JSONValue = ["options": [["summary": "Try a 3-day water fast", "detail": "Skip meals to drop weight fast."]]]
        let clean: JSONValue = ["options": [["summary": "Build strength", "detail": "Three short sessions a week."]]]
        func checks(_ output: JSONValue, sharing advice: AdviceFindings?) -> [CheckResult] {
            var context = DomainChecks.Context(fixture: fixture, knowledge: prompts.coaching)
            context.advice = advice
            return DomainChecks.check(.goalOptions, output: output, context: context)
        }
        let reviewed = Guardrails.review(harmful, record: fixture.record, knowledge: prompts.coaching)
        #expect(!reviewed.blocked.isEmpty)
        #expect(checks(harmful, sharing: reviewed.advice) == checks(harmful, sharing: nil))
        // Findings for another text are not taken: the clean output's checks search it themselves.
        #expect(checks(clean, sharing: reviewed.advice) == checks(clean, sharing: nil))
        #expect(checks(clean, sharing: reviewed.advice).allSatisfy { !$0.name.hasPrefix("output.no-harmful-advice") || $0.passed })
    }

    @Test func anEditsNewExercisesComeFromThePersonsLists() throws {
        let prompts = try Self.prompts()
        var input = try FixturePlan.placeholderInput(for: .programEdit, fixture: try Repository.fixture("knee-injury"))
        let layout = try #require(prompts.sessionLayout(for: input.fixture.record, confirmedGoal: input.confirmedGoal))
        let draft = PlannedProgram.expanded(Self.reply(for: layout), layout: layout, plan: try #require(prompts.plan(for: input.fixture.record)))
        input.currentProgram = draft["program_json"]
        let rendered = prompts.render(.programEdit, input: input)
        let names = Set(rendered.schema["$defs"]?["exercise"]?["properties"]?["name"]?["enum"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        #expect(names == Set(layout.exercises.keys))
        #expect(!names.contains { $0.lowercased().contains("jump") || $0.lowercased().contains("lunge") }, "nothing the knee rules out")
    }

    @Test func anEditReplacesAnExerciseWithAnotherOfItsSlotAndNeverRepeatsOneInASession() async throws {
        let prompts = try Self.prompts()
        var input = try FixturePlan.placeholderInput(for: .programEdit, fixture: try Repository.fixture("busy-parent"))
        let layout = try #require(prompts.sessionLayout(for: input.fixture.record, confirmedGoal: input.confirmedGoal))
        let draft = PlannedProgram.expanded(Self.reply(for: layout), layout: layout, plan: try #require(prompts.plan(for: input.fixture.record)))
        input.currentProgram = draft["program_json"]
        let schema = try Schema(prompts.render(.programEdit, input: input).schema)
        let first = layout.days[0].slots[0].choices[0]
        let second = layout.days[0].slots[1].choices[0]
        func replace(_ name: String, with other: String, reps: String, rest: Int) -> JSONValue {
            ["change": "Swapped one exercise for you.", "operations": [[
                "op": "replace", "exercise": .string(name),
                "with": ["name": .string(other), "sets": 2, "reps": .string(reps), "rest_seconds": .number(Double(rest)), "notes": ""],
            ]]]
        }
        #expect(schema.validate(replace(first.names[0], with: first.names[1], reps: first.reps[0], rest: first.restSeconds)).isValid)
        #expect(!schema.validate(replace(first.names[0], with: second.names[0], reps: second.reps[0], rest: second.restSeconds)).isValid,
                "an exercise of another slot")
        #expect(!schema.validate(replace(first.names[0], with: first.names[0], reps: first.reps[0], rest: first.restSeconds)).isValid,
                "the exercise it replaces")
        // With day 1 at the fewest exercises a session holds (3), nothing of day 1 may be
        // removed; every day (3 or 4 exercises of at most 5) has room for one more.
        var shorter = input
        if case .object(var program)? = shorter.currentProgram, case .array(var sessions)? = program["sessions"],
           case .object(var day1) = sessions[0], case .array(let exercises)? = day1["exercises"] {
            day1["exercises"] = .array(Array(exercises.dropLast()))
            sessions[0] = .object(day1)
            program["sessions"] = .array(sessions)
            shorter.currentProgram = .object(program)
        }
        let kinds = try #require(prompts.render(.programEdit, input: shorter).schema["properties"]?["operations"]?["items"]?["anyOf"]?.arrayValue)
        let removable = kinds.first { $0["properties"]?["op"]?["const"] == "remove" }?["properties"]?["exercise"]?["enum"]?.arrayValue ?? []
        #expect(removable == [.string(layout.days[1].slots[3].choices[0].names[0])], "only what day 1 no longer holds")
        let addable = kinds.first { $0["properties"]?["op"]?["const"] == "add" }?["properties"]?["day"]?["enum"]?.arrayValue ?? []
        #expect(addable == [1, 2, 3], "every session has room: 3 or 4 of 5")

        // An added exercise the session already has is held back, and so is a removal
        // past a session's fewest exercises; the rest of the edit applies, and each
        // held-back operation is an intervention.
        let shownDay1 = (input.currentProgram?["sessions"]?[0]?["exercises"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        let shownDay2 = (input.currentProgram?["sessions"]?[1]?["exercises"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        try #require(shownDay1.count == 4 && shownDay2.count >= 3)
        var operations: [JSONValue] = [[
            "op": "add", "day": 1,
            "exercise": ["name": .string(shownDay1[0]), "sets": 2, "reps": .string(first.reps[0]), "rest_seconds": 60, "notes": ""],
        ]]
        operations += shownDay1.map { ["op": "remove", "exercise": .string($0)] }
        let edit: JSONValue = ["change": "Shorter day 1.", "operations": .array(operations)]
        let server = try LoopbackServer(answering: .json(StepCostTests.completion(edit.serialized(), input: 900, output: 60)))
        defer { server.stop() }
        let result = await StepRunner(provider: StepCostTests.openAI(server, model: "local"), prompts: prompts)
            .run(id: .programEdit, step: .programEdit, input: input)
        #expect(result.status == .valid, "\(result.failure?.message ?? "")")
        #expect(result.attempts.count == 1, "nothing sent back")
        let sessions = result.output?["program_json"]?["sessions"]?.arrayValue ?? []
        let day1 = (sessions.first?["exercises"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        #expect(day1 == Array(shownDay1.dropFirst()), "the first removal applies; the next would leave day 1 with 2")
        #expect(Set(day1).count == day1.count)
        let limited = result.interventions.filter { $0.kind == Intervention.editLimited }.map(\.detail)
        #expect(limited.first == "add \"\(shownDay1[0])\" not applied to day 1: it would have held \"\(shownDay1[0].lowercased())\" twice")
        #expect(limited.filter { $0.contains("day 1:") }.count == 4, "the add and three removals held back from day 1: \(limited)")
        #expect(limited.last?.hasSuffix("it would have held 2 exercises, fewer than 3") == true)
    }

    @Test func aBrokenSessionsBlockNamesTheFileAndLine() throws {
        let project = try Repository.temporaryCopy(named: "sessions-rules")
        defer { try? FileManager.default.removeItem(at: project) }
        let file = project.appendingPathComponent("prompts/program-plan.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        try text.replacingOccurrences(of: "slots: [knee-dominant, horizontal-push, hip-hinge", with: "slots: [squats, horizontal-push, hip-hinge")
            .write(to: file, atomically: true, encoding: .utf8)
        #expect {
            try PromptLibrary(layout: ProjectLayout(root: project))
        } throws: { error in
            let message = "\(error)"
            return message.contains("prompts/program-plan.yaml:") && message.contains("`squats` is not a pattern of catalogue.yaml")
        }
    }
}

/// A fixture's run lays out the week once per confirmed goal; its steps share the layout.
struct FixtureMemoTests {
    @Test func eachGoalIsLaidOutOnceEvenWhenThereIsNoLayout() throws {
        let memo = FixtureMemo()
        var calls: [JSONValue?] = []
        let strength: JSONValue = ["title": "Strength"]
        for goal in [strength, strength, nil, nil] as [JSONValue?] {
            _ = memo.layout(for: goal) { goal in
                calls.append(goal)
                return nil
            }
        }
        #expect(calls == [strength, nil])
    }

    @Test func eachGoalsPlanAndTheBoundsAreWorkedOutOnce() throws {
        let memo = FixtureMemo()
        var planned: [JSONValue?] = []
        var bounded = 0
        let strength: JSONValue = ["title": "Strength"]
        for goal in [strength, nil, strength, nil] as [JSONValue?] {
            _ = memo.plan(for: goal) { goal in
                planned.append(goal)
                return nil
            }
            _ = memo.limits {
                bounded += 1
                return IntakeLimits(days: 3)
            }
        }
        #expect(planned == [strength, nil])
        #expect(bounded == 1)
    }

    /// What a fixture's steps share is what each would work out alone, for every fixture and goal.
    @Test(arguments: PlannedProgramTests.names)
    func theSharedPlanLayoutAndBoundsAreEachStepsOwn(name: String) throws {
        let prompts = try PlannedProgramTests.prompts()
        let record = try PlannedProgramTests.input(name).fixture.record
        let memo = FixtureMemo()
        for goal in [nil, ["summary": "Run a half marathon in 12 weeks"], ["title": "Strength"]] as [JSONValue?] {
            for _ in 0..<2 {
                #expect(prompts.plan(for: record, confirmedGoal: goal, memo: memo) == prompts.plan(for: record, confirmedGoal: goal))
                #expect(prompts.sessionLayout(for: record, confirmedGoal: goal, memo: memo)?.lines
                    == prompts.sessionLayout(for: record, confirmedGoal: goal)?.lines)
            }
        }
        #expect(prompts.limits(for: record, memo: memo) == prompts.limits(for: record, memo: nil))
        for step in PipelineStep.allCases {
            #expect(prompts.replySchemaDocument(step, for: record, memo: memo) == prompts.replySchemaDocument(step, for: record))
        }
    }
}
