import Checks
import Foundation
import Intake
import JSONSchema
import Providers

/// Runs fixtures through the onboarding steps: goal options, each option edit,
/// confirm, program draft, program edit.
public struct Pipeline: Sendable {
    public let runner: StepRunner
    /// Steps after this one are not run (reported as skipped); nil runs them all.
    public let lastStep: StepSelector?
    /// Run the domain checks and scenario assertions on every valid output.
    public let runsChecks: Bool
    /// Move checks and event handling off the cooperative pool (see `offThePool`).
    /// Worth it only when calls wait on a model: a replay answers at once, and
    /// the hop between threads would cost more than the work it moves.
    public let offloadsWork: Bool
    /// Set when the run is stopped from inside (see `RunStop`).
    public let stop: RunStop
    /// Where replayed steps' results are kept and reused; nil works every step out.
    public let cache: StepCache?

    public init(
        runner: StepRunner, lastStep: StepSelector? = nil, runsChecks: Bool = true, offloadsWork: Bool = true, stop: RunStop = RunStop(),
        cache: StepCache? = nil
    ) {
        self.runner = runner
        self.lastStep = lastStep
        self.runsChecks = runsChecks
        self.offloadsWork = offloadsWork
        self.stop = stop
        self.cache = cache
    }

    public static let interrupted = "not run: the run was interrupted"

    /// The same pipeline for repeat `number` of `run --repeat N`: its calls carry the
    /// number, so each repeat is recorded and replayed on its own.
    public func repeating(_ number: Int) -> Pipeline {
        Pipeline(runner: runner.forRepeat(number), lastStep: lastStep, runsChecks: runsChecks, offloadsWork: offloadsWork, stop: stop, cache: cache)
    }

    /// A fixture the run stopped before starting: every selected step skipped, saying why the run stopped.
    func notRun(_ fixture: Fixture) -> FixtureResult {
        FixtureResult(fixture: fixture.name, steps: FixturePlan(fixture).steps.map {
            .skipped($0.id, because: lastStep?.reaches($0.id) ?? true ? stop.note ?? Self.interrupted : notSelected)
        })
    }

    /// The note on steps after `lastStep`.
    var notSelected: String { Self.notSelectedPrefix + " (--until \(lastStep.map(String.init(describing:)) ?? ""))" }

    static let notSelectedPrefix = "not selected"

    /// A step that ended so was past `--until`: not run on purpose.
    public static func wasNotSelected(_ status: StepStatus, note: String?) -> Bool {
        status == .skipped && (note ?? "").hasPrefix(notSelectedPrefix)
    }

    /// Something that happened during a run, for live progress output.
    public enum Event: Sendable {
        case stepStarted(fixture: String, step: StepID)
        case stepFinished(fixture: String, result: StepResult)
    }

    /// Runs every fixture, at most `jobs` at a time, and returns results in fixture order.
    /// `finished` sees each fixture's result (by its index in `fixtures`) as soon as the
    /// fixture is done, and gives the result to return for it.
    public func run(
        _ fixtures: [Fixture], jobs: Int = 1, finished: (@Sendable (Int, FixtureResult) -> FixtureResult)? = nil,
        onEvent: @escaping @Sendable (Event) -> Void = { _ in }
    ) async -> [FixtureResult] {
        var results = [FixtureResult?](repeating: nil, count: fixtures.count)
        await withTaskGroup(of: (Int, FixtureResult).self) { group in
            var next = 0
            func startNext() {
                guard next < fixtures.count, !Task.isCancelled, stop.note == nil else { return }
                let index = next
                next += 1
                group.addTask {
                    let result = await self.run(fixtures[index], onEvent: onEvent)
                    return (index, finished?(index, result) ?? result)
                }
            }
            for _ in 0..<max(1, jobs) { startNext() }
            while let (index, result) = await group.next() {
                results[index] = result
                startNext()
            }
        }
        return results.enumerated().map { index, result in
            result ?? notRun(fixtures[index])
        }
    }

    /// Runs CPU-heavy work (checks, golden comparison) on a Dispatch queue instead of
    /// the cooperative pool: the pool has one thread per core, and work queued on it
    /// would delay the fixtures waiting to send their next call the moment a slot opens.
    func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        guard offloadsWork else { return work() }
        return await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: work()) }
        }
    }

    /// Runs one fixture through the steps of its plan, skipping a step whose input is missing.
    public func run(_ fixture: Fixture, onEvent: @escaping @Sendable (Event) -> Void = { _ in }) async -> FixtureResult {
        let plan = FixturePlan(fixture)
        let memo = FixtureMemo()
        let cache = self.cache?.fixture(fixture, track: cacheTrack, settings: cacheSettings)
        var steps: [StepResult] = []
        var outputs: [StepID: JSONValue] = [:]
        // Set once a step of this fixture did not run because the run stopped.
        var cutShort = false
        func record(_ result: StepResult) async {
            var result = result
            // After Ctrl-C or a stop, a step skipped because its input is missing was really cut short.
            if result.status == .skipped, Task.isCancelled || cutShort, !result.wasNotSelected {
                result.note = stop.note ?? Self.interrupted
            }
            if result.status == .skipped, let note = stop.note, result.note == note { cutShort = true }
            steps.append(result)
            outputs[result.id] = result.output
            let finished = result
            await offThePool { onEvent(.stepFinished(fixture: fixture.name, result: finished)) }
        }

        for planned in plan.steps {
            guard lastStep?.reaches(planned.id) ?? true else {
                await record(.skipped(planned.id, because: notSelected))
                continue
            }
            switch planned.runner {
            case .confirm:
                _ = cache?.key(for: planned.id, answers: nil)
                if let choice = plan.confirm(planned, outputs: outputs) {
                    await record(StepResult(id: planned.id, status: .valid, output: choice.option, note: choice.note))
                } else {
                    await record(.skipped(planned.id, because: planned.missingInput))
                }
            case .model(let step):
                guard var input = plan.input(for: planned, outputs: outputs) else {
                    cache?.pass(planned.id, note: planned.missingInput)
                    await record(.skipped(planned.id, because: planned.missingInput))
                    continue
                }
                input.memo = memo
                let context = CallContext(fixture: fixture.name, step: planned.id.description, repeatNumber: runner.repeatNumber)
                guard let cache, let answers = runner.provider.fixedAnswers(for: context) else {
                    cache?.pass(planned.id, note: "no fixed answers")
                    await record(await call(planned, step, input, fixture: fixture, before: planned.before(outputs), onEvent: onEvent))
                    continue
                }
                let key = cache.key(for: planned.id, answers: answers)
                if !Task.isCancelled, stop.note == nil, var reused = cache.result(for: planned.id, key: key, prompt: runner.prompts[step]) {
                    runner.provider.reused(answers)
                    reused.cost = runner.prices.cost(model: runner.provider.model, usage: reused.usage)
                    onEvent(.stepStarted(fixture: fixture.name, step: planned.id))
                    await record(reused)
                    continue
                }
                let result = await call(planned, step, input, fixture: fixture, before: planned.before(outputs), onEvent: onEvent)
                cache.keep(result, key: key, prompt: runner.prompts[step])
                await record(result)
            }
        }
        cache?.save()
        return FixtureResult(fixture: fixture.name, steps: steps)
    }

    /// What a step's kept result depends on beyond its inputs: the run's own choices.
    var cacheSettings: [String] { ["repairs \(runner.repairAttempts)", runsChecks ? "checks" : "no checks"] }

    /// What a whole fixture's run follows from, keyed as the step cache keys its steps:
    /// each selected step's key in turn, chained as `run` chains them when every
    /// step's input is there. Nil without a step cache, or when a model step has no
    /// fixed answers (it would call a model). Reads the recordings, not the cache.
    public func fixtureKey(for fixture: Fixture) -> FixtureKey? {
        guard let cache else { return nil }
        let chain = cache.fixture(fixture, track: cacheTrack, settings: cacheSettings, readsEntries: false)
        var modelSteps: [StepID] = []
        var answers: [FixedAnswers] = []
        for planned in FixturePlan(fixture).steps where lastStep?.reaches(planned.id) ?? true {
            switch planned.runner {
            case .confirm:
                _ = chain.key(for: planned.id, answers: nil)
            case .model:
                let context = CallContext(fixture: fixture.name, step: planned.id.description, repeatNumber: runner.repeatNumber)
                guard let fixed = runner.provider.fixedAnswers(for: context) else { return nil }
                _ = chain.key(for: planned.id, answers: fixed)
                modelSteps.append(planned.id)
                answers.append(fixed)
            }
        }
        return FixtureKey(chain: chain.chainHex, modelSteps: modelSteps, answers: answers, track: cacheTrack)
    }

    /// The cache's folder for this pipeline's runs: the variant selection's track and the repeat.
    var cacheTrack: String {
        (runner.prompts.variants.track?.label ?? "base") + (runner.repeatNumber > 1 ? ".repeat-\(runner.repeatNumber)" : "")
    }

    /// Sends one model step and checks its output.
    private func call(
        _ planned: FixturePlan.PlannedStep, _ step: PipelineStep, _ input: StepInput, fixture: Fixture, before: JSONValue?,
        onEvent: @escaping @Sendable (Event) -> Void
    ) async -> StepResult {
        if Task.isCancelled || stop.note != nil { return .skipped(planned.id, because: stop.note ?? Self.interrupted) }
        onEvent(.stepStarted(fixture: fixture.name, step: planned.id))
        let ran = await runner.runKeepingAdvice(id: planned.id, step: step, input: input)
        var result = ran.result
        let refusedByBudget = result.failure?.kind == .provider(.budgetExhausted)
        if refusedByBudget, let failure = result.failure { stop.stopStarting(note: "not run: \(failure.message)") }
        // A call cancelled by the stop, or refused by a spent budget, did not fail on its own.
        if let note = stop.note, result.status == .error, refusedByBudget || !stop.letCallsFinish {
            result = .skipped(planned.id, because: note)
        }
        if runsChecks, let output = result.output {
            var context = DomainChecks.Context(
                fixture: fixture, editRound: planned.id.editRound, before: before, knowledge: runner.prompts.coaching,
                systemPrompt: runner.prompts[step].system, userTemplate: runner.prompts[step].templateText,
                schema: result.prompt?.schema ?? runner.prompts[step].replySchemaDocument, confirmedGoal: input.confirmedGoal)
            context.advice = ran.advice
            let judging = context
            result.checks = await offThePool { DomainChecks.check(step, output: output, context: judging) }
        }
        // The request's schema was sent and judged by; what a run keeps of its prompt is
        // what reports show. A pinned step's schema is fitted to each fixture, and a
        // large run would otherwise hold thousands of them.
        result.prompt?.schema = .null
        return result
    }
}

/// A fixture's key for reading its whole result back (see `Pipeline.fixtureKey(for:)`).
public struct FixtureKey: Sendable, Hashable {
    /// Every selected step's cache key, chained.
    public var chain: String
    /// The model steps the key covers, in plan order.
    public var modelSteps: [StepID]
    /// What each of them would be answered with.
    public var answers: [FixedAnswers]
    /// The step cache's folder the fixture's steps are kept in.
    public var track: String
}
