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

    public init(
        runner: StepRunner, lastStep: StepSelector? = nil, runsChecks: Bool = true, offloadsWork: Bool = true, stop: RunStop = RunStop()
    ) {
        self.runner = runner
        self.lastStep = lastStep
        self.runsChecks = runsChecks
        self.offloadsWork = offloadsWork
        self.stop = stop
    }

    public static let interrupted = "not run: the run was interrupted"

    /// A fixture the run stopped before starting: every step skipped.
    static func notRun(_ fixture: Fixture) -> FixtureResult {
        var ids = stepIDs(for: fixture.scenario)
        ids.insert("confirm", at: ids.count - 2)
        return FixtureResult(fixture: fixture.name, steps: ids.map { id in
            StepResult.skipped(id, id == "confirm" ? nil : PipelineStep(rawValue: id) ?? .goalOptionsEdit, because: interrupted)
        })
    }

    /// The ids of the model steps a fixture's scenario produces, in order:
    /// `goal-options`, `goal-options-edit-1`..., `program-draft`, `program-edit`.
    public static func stepIDs(for scenario: Scenario) -> [String] {
        ["goal-options"] + scenario.optionEdits.indices.map { "goal-options-edit-\($0 + 1)" } + ["program-draft", "program-edit"]
    }

    /// Something that happened during a run, for live progress output.
    public enum Event: Sendable {
        case stepStarted(fixture: String, step: String)
        case stepFinished(fixture: String, result: StepResult)
    }

    /// Runs every fixture, at most `jobs` at a time, and returns results in fixture order.
    public func run(
        _ fixtures: [Fixture], jobs: Int = 1, onEvent: @escaping @Sendable (Event) -> Void = { _ in }
    ) async -> [FixtureResult] {
        var results = [FixtureResult?](repeating: nil, count: fixtures.count)
        await withTaskGroup(of: (Int, FixtureResult).self) { group in
            var next = 0
            func startNext() {
                guard next < fixtures.count, !Task.isCancelled else { return }
                let index = next
                next += 1
                group.addTask { (index, await self.run(fixtures[index], onEvent: onEvent)) }
            }
            for _ in 0..<max(1, jobs) { startNext() }
            while let (index, result) = await group.next() {
                results[index] = result
                startNext()
            }
        }
        return results.enumerated().map { index, result in
            result ?? Self.notRun(fixtures[index])
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

    /// Runs one fixture through every step, skipping steps whose input is missing.
    public func run(_ fixture: Fixture, onEvent: @escaping @Sendable (Event) -> Void = { _ in }) async -> FixtureResult {
        var steps: [StepResult] = []
        let scenario = fixture.scenario
        func include(_ id: String) -> Bool {
            lastStep?.reaches(id) ?? true
        }
        let notSelected = "not selected (--until \(lastStep.map(String.init(describing:)) ?? ""))"
        func record(_ result: StepResult) async {
            var result = result
            // After Ctrl-C, a step skipped because its input is missing was really cut short.
            if result.status == .skipped, Task.isCancelled, !(result.note ?? "").hasPrefix("not selected") {
                result.note = stop.note ?? Self.interrupted
            }
            steps.append(result)
            let finished = result
            await offThePool { onEvent(.stepFinished(fixture: fixture.name, result: finished)) }
        }
        func call(_ id: String, _ step: PipelineStep, _ input: StepInput, editRound: Int? = nil, before: JSONValue? = nil) async -> StepResult {
            if Task.isCancelled {
                let result = StepResult.skipped(id, step, because: stop.note ?? Self.interrupted)
                await record(result)
                return result
            }
            onEvent(.stepStarted(fixture: fixture.name, step: id))
            var result = await runner.run(id: id, step: step, input: input)
            // A call already under way when the run was stopped did not fail on its own.
            if let note = stop.note, result.status == .error { result = .skipped(id, step, because: note) }
            if runsChecks, let output = result.output {
                let context = DomainChecks.Context(fixture: fixture, editRound: editRound, before: before)
                result.checks = await offThePool { DomainChecks.check(step, output: output, context: context) }
            }
            await record(result)
            return result
        }

        // 1. Goal options, then each round of option feedback.
        let base = StepInput(fixture: fixture)
        var options = await call("goal-options", .goalOptions, base).output
        var earlier: [String] = []
        for (index, edit) in scenario.optionEdits.enumerated() {
            let id = "goal-options-edit-\(index + 1)"
            guard include(id) else {
                await record(.skipped(id, .goalOptionsEdit, because: notSelected))
                continue
            }
            guard let current = options else {
                await record(.skipped(id, .goalOptionsEdit, because: "no valid goal options to edit (\(steps.last!.id) did not produce them)"))
                continue
            }
            var input = base
            (input.currentOptions, input.earlierFeedback, input.feedback) = (current, earlier, edit.feedback)
            options = await call(id, .goalOptionsEdit, input, editRound: index + 1, before: current).output
            earlier.append(edit.feedback)
        }

        // 2. Confirm: deterministic choice of one option.
        var goal: JSONValue?
        if !include("confirm") {
            await record(.skipped("confirm", nil, because: notSelected))
        } else if let options, let choice = ConfirmStep.choose(from: options, by: scenario.confirm) {
            goal = choice.option
            await record(StepResult(id: "confirm", step: nil, status: .valid, output: choice.option, note: choice.note))
        } else {
            await record(.skipped("confirm", nil, because: "no valid goal options to choose from"))
        }

        // 3. Program draft, then the program edit.
        var program: JSONValue?
        if !include("program-draft") {
            await record(.skipped("program-draft", .programDraft, because: notSelected))
        } else if let goal {
            var input = base
            input.confirmedGoal = goal
            program = await call("program-draft", .programDraft, input).output
        } else {
            await record(.skipped("program-draft", .programDraft, because: "no confirmed goal"))
        }
        if !include("program-edit") {
            await record(.skipped("program-edit", .programEdit, because: notSelected))
        } else if let program {
            var input = base
            (input.feedback, input.confirmedGoal, input.currentProgram) = (scenario.programEdit.feedback, goal, program["program_json"])
            _ = await call("program-edit", .programEdit, input, before: program)
        } else {
            await record(.skipped("program-edit", .programEdit, because: "no valid program draft to edit"))
        }
        return FixtureResult(fixture: fixture.name, steps: steps)
    }
}
