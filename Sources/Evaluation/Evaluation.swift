import Checks
import Foundation
import Golden
import History
import Intake
import JSONSchema
import Pipeline
import Providers
import Reports
import Storage

/// One evaluation run from start to finish: the pipeline over the fixtures
/// (repeated when asked), the comparison with golden, the run history and the
/// report folder. The command line only parses options and prints.
public struct Evaluation: Sendable {
    public struct Options: Sendable {
        /// Steps after this one are skipped; nil runs them all.
        public var lastStep: StepSelector?
        public var jobs = 1
        public var repairs = 1
        public var runsChecks = true
        /// The CI gate: nothing is written to golden/.
        public var ci = false
        /// How many times every step runs, each repeat its own call (and its own
        /// recording); the first repeat is compared with golden.
        public var repeats = 1
        /// Pass rate each step needs across repeats, by step name or `*`.
        public var requiredPassRates: [String: Double] = [:]
        /// What a required pass rate is compared with: the mean over repeats, or the
        /// lower end of its Wilson 95% interval.
        public var gateOn: RepeatStatistics.GateBasis = .mean
        /// Golden entries no fixture produced are orphans (only meaningful for a whole-suite run).
        public var findsOrphans = true
        /// The part of the suite this run is (`run --shard K/N`), and every fixture name
        /// the suite has: a shard reports the orphans of its own fixtures only, and
        /// leaves the history to the merged run.
        public var shard: (shard: Shard, fixtureNames: [String])?
        /// Names the run folder: `replay`, `local`, `openai`...
        public var providerName = "replay"
        /// Shown in the report (for example, schema keywords the provider cannot enforce).
        public var warnings: [String] = []
        /// Report folders kept under `Reports/`, this run's included; older ones are
        /// deleted (their figures stay in the run history). Nil keeps every folder.
        public var keptReports: Int? = 50
        /// Reuse a replayed step's result from `.step-cache/` when nothing it follows
        /// from has changed (the build, its prompt files, fixture, earlier steps and
        /// recording), and keep new ones there.
        public var cachesSteps = false
        /// Where a large run without the step cache keeps each finished fixture that
        /// passes the gate until the report is written, in a folder of its own that it
        /// deletes: it lets go of their outputs and prompts early, as a run with the
        /// cache does. Nil holds every fixture in memory to the end.
        public var spoolParent: URL? = FileManager.default.temporaryDirectory

        public init() {}
    }

    /// What a run produced, for the command line to print and turn into an exit code.
    public struct Outcome: Sendable {
        /// The first repeat's results.
        public var results: [FixtureResult]
        public var golden: GoldenReport
        public var report: RunReport
        public var reportFolder: URL
        /// Problems that did not stop the run (an unwritable history, report or pending file).
        public var warnings: [String]
        public var interrupted: Bool
        /// Why the run stopped early when the provider could not be reached at all
        /// (refused, no route, unknown host): the first call's failure, after its retries.
        public var unreachable: StepFailure?
        /// Why the run stopped starting calls when a budget (`--max-minutes`, `--max-cost`...) ran out.
        public var budgetStop: BudgetStop?
        /// With the step cache: replayed steps read back from it, and worked out afresh.
        public var cachedSteps: (readBack: Int, workedOut: Int)?

        /// Steps whose recording could not be read, as `fixture/step`.
        public var unreadableRecordings: [String] {
            results.flatMap { fixture in
                fixture.steps.filter { $0.failure?.kind == .provider(.unreadableRecording) }
                    .map { "\(fixture.fixture)/\($0.id)" }
            }
        }

        /// The exit status: 0 clean, 1 failures (under CI, anything the gate rejects),
        /// 2 when a recording is unreadable (bad input, like a broken fixture) or the
        /// provider could not be reached at all.
        /// A run a budget cut short is judged on what finished, except under CI, where
        /// the steps left undone keep the gate from passing.
        /// Interrupted, it is 130 whatever finished.
        public func exitStatus(ci: Bool, interrupted: Bool = false) -> Int32 {
            let mode = Gate.Mode(ci: ci)
            let ending: Gate.Ending = interrupted ? .interrupted : budgetStop != nil ? .budgetSpent : .finished
            return Gate.exitStatus(passes: report.passes(mode), mode: mode, ending: ending, badInput: !unreadableRecordings.isEmpty || unreachable != nil).rawValue
        }
    }

    public enum Event: Sendable {
        case pipeline(Pipeline.Event)
        /// A new repeat begins (1-based), for `repeats > 1`.
        case repeatStarted(Int, of: Int)
    }

    public let layout: ProjectLayout
    public let prompts: PromptLibrary
    public let prices: PriceTable
    public let provider: any ModelProvider
    public let options: Options
    /// The golden outputs, the run history and the report folders.
    public let stores: Stores
    /// File digests the stores remember across runs, written back when the run ends.
    public let fileDigests: FileDigests?

    public init(
        layout: ProjectLayout, prompts: PromptLibrary, prices: PriceTable, provider: any ModelProvider, options: Options, stores: Stores,
        fileDigests: FileDigests? = nil
    ) {
        self.layout = layout
        self.prompts = prompts
        self.prices = prices
        self.provider = provider
        self.options = options
        self.stores = stores
        self.fileDigests = fileDigests
    }

    /// A run on the project's own stores (`Stores.onDisk(layout:)`), remembering golden
    /// files' digests in `fileDigests` (those of the provider's recordings too, when it shares them).
    public init(
        layout: ProjectLayout, prompts: PromptLibrary, prices: PriceTable, provider: any ModelProvider, options: Options,
        fileDigests: FileDigests? = nil
    ) {
        self.init(
            layout: layout, prompts: prompts, prices: prices, provider: provider, options: options,
            stores: .onDisk(layout: layout, track: prompts.variants.track, digests: fileDigests), fileDigests: fileDigests)
    }

    /// Runs `fixtures` and writes the report. Throws only when golden/ cannot be
    /// read or written. Cancelling the task stops new calls;
    /// what finished is still compared and reported, the rest marked not run.
    public func run(_ fixtures: [Fixture], onEvent: @escaping @Sendable (Event) -> Void = { _ in }) async throws -> Outcome {
        // `jobs` bounds the calls in flight; twice as many fixtures are under way so a
        // freed slot always has a call waiting for it.
        let limited = ConcurrencyLimitedProvider(provider, limit: options.jobs)
        // A provider nobody answers for fails every call the same way, after the same
        // retries: the first such failure stops the run.
        let stop = RunStop()
        let cache = options.cachesSteps ? StepCache(folder: layout.stepCache, layout: layout, prompts: prompts) : nil
        let pipeline = Pipeline(
            runner: StepRunner(provider: limited, prompts: prompts, repairAttempts: options.repairs, prices: prices),
            lastStep: options.lastStep, runsChecks: options.runsChecks, offloadsWork: !provider.answersAtOnce, stop: stop, cache: cache)
        let fixtureConcurrency = options.jobs * 2
        let startedAt = Date()
        let clock = ContinuousClock.now
        let gate = GoldenGate(store: stores.golden, diffOptions: prompts.diffOptions)
        // The first repeat's steps are compared with golden as they finish, while
        // other fixtures still wait on the model: only the last few are left for the end.
        let judged = Judgements()
        let writesPending = !options.ci
        // A large replay reads back whole each fixture nothing has changed for. Without
        // the step cache it keeps them in a folder of its own until the report is written.
        let spool = cache == nil ? options.spoolParent?.appendingPathComponent("trainer-eval-fixtures-" + UUID().uuidString, isDirectory: true) : nil
        defer { if let spool { try? FileManager.default.removeItem(at: spool) } }
        let settling = options.repeats > 1 || (cache == nil && spool == nil) ? nil
            : settledFixtures(fixtures, writesPending: writesPending, spool: spool)
        let settled = settling.map { settling in
            fixtures.concurrentMap { fixture -> (key: FixtureKey?, digest: String?, readBack: SettledFixtures.ReadBack?) in
                guard settling.readsBack, let key = pipeline.fixtureKey(for: fixture), let digest = settling.key(for: fixture.name, key)
                else { return (nil, nil, nil) }
                return (key, digest, settling.read(fixture, key, keptUnder: digest))
            }
        } ?? []
        // The track and key fixture `position` is kept under (with the golden files as
        // they are now when `goldenChanged`); nil when it cannot be kept.
        let keeping = { @Sendable (settling: SettledFixtures, position: Int, goldenChanged: Bool) -> (track: String, digest: String)? in
            guard settling.readsBack else { return (SettledFixtures.spoolTrack, SettledFixtures.spoolKey) }
            guard let key = settled[position].key,
                  let digest = goldenChanged ? settling.key(for: fixtures[position].name, key) : settled[position].digest
            else { return nil }
            return (key.track, digest)
        }
        for (key, _, readBack) in settled {
            guard let key, let readBack else { continue }
            key.answers.forEach(provider.reused)
            cache?.tally.add(readBack: key.modelSteps.count)
            for verdict in readBack.verdicts { judged.add(verdict) }
            for result in readBack.result.steps { onEvent(.pipeline(.stepFinished(fixture: readBack.result.fixture, result: result))) }
        }
        let unsettledIndices = settled.isEmpty ? Array(fixtures.indices) : fixtures.indices.filter { settled[$0].readBack == nil }
        let unsettled = unsettledIndices.map { fixtures[$0] }
        // Under CI (no pending files written) a fixture is kept as soon as it is judged:
        // its outputs and prompts are let go of while the others still run.
        let keptEarly = KeptFixtures()
        // The drafted programs, gathered as they are written: a kept fixture lets go of its outputs.
        let drafted = DraftedPrograms()
        let keepsEarly: (@Sendable (Int, FixtureResult) -> FixtureResult)? = settling.flatMap { settling in
            guard !writesPending else { return nil }
            return { index, result in
                let position = unsettledIndices[index]
                guard let (track, digest) = keeping(settling, position, false), let judgements = judged.judgements(of: result)
                else { return result }
                let report = FixtureReport(result, intake: fixtures[position].recordJSON) { key in
                    (judgements[key]?.verdict, judgements[key]?.approved)
                }
                guard let kept = settling.keep(report, result: result, verdicts: judgements.mapValues(\.verdict), track: track, under: digest)
                else { return result }
                judged.forgetApproved(of: result)
                keptEarly.add(kept.report)
                return kept.result
            }
        }
        var repeats: [[FixtureResult]] = []
        for index in 1...max(1, options.repeats) {
            if index > 1 {
                guard !Task.isCancelled, stop.note == nil else { break }
                onEvent(.repeatStarted(index, of: options.repeats))
            }
            let repeating = pipeline.repeating(index)
            repeats.append(await stop.cancellable {
                await repeating.run(unsettled, jobs: fixtureConcurrency, finished: index == 1 ? keepsEarly : nil) { event in
                    if case .stepFinished(_, let result) = event, let failure = result.failure,
                       failure.kind == .provider(.unreachable) {
                        stop.stop(note: "not run: the provider could not be reached", because: failure)
                    }
                    if index == 1, case .stepFinished(let fixture, let result) = event, result.step != nil {
                        judged.add(fixture: fixture, result: result) { try gate.judge(result, fixture: fixture, writesPending: writesPending) }
                        drafted.add(fixture: fixture, result: result)
                    }
                    onEvent(.pipeline(event))
                }
            })
        }
        let unreachable = stop.failure
        let budgetStop = stop.letCallsFinish ? stop.note.map {
            BudgetStop(note: $0, undoneModelSteps: BudgetStop.undoneModelSteps(of: repeats, repeatsAskedFor: options.repeats, note: $0))
        } : nil
        let interrupted = Task.isCancelled || unreachable != nil || budgetStop != nil
        if !settled.isEmpty {
            var ran = repeats[0].makeIterator()
            repeats[0] = settled.map { $0.readBack?.result ?? ran.next()! }
        }
        let elapsed = clock.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var results = repeats[0]

        var golden = try gate.evaluate(
            results, writesPending: writesPending, findsOrphans: options.findsOrphans, judged: judged.all)
        judged.removeAll()
        if let (shard, names) = options.shard {
            golden.orphans = golden.orphans.filter { shard.reportsOrphans(of: $0.key.fixture, fixtureNames: names) }
        }
        golden.markStaleRepeats(Array(repeats.dropFirst()))
        let writer = stores.reports
        let run = RunReport.RunInfo(
            id: writer.availableRunID(
                startedAt: startedAt, provider: options.providerName + (options.shard.map { "-shard-\($0.shard.index)-of-\($0.shard.count)" } ?? "")),
            startedAt: startedAt, durationSeconds: seconds, provider: provider.kind, model: provider.answeringModel,
            commit: GitCommit.describe(at: layout.root),
            prompts: Dictionary(uniqueKeysWithValues: prompts.prompts.map {
                ($0.key.rawValue, RunReport.PromptInfo(
                    version: $0.value.metadata.version, fingerprint: $0.value.fingerprint, system: $0.value.system, variant: $0.value.variant))
            }),
            ci: options.ci, interrupted: interrupted, warnings: options.warnings, shard: options.shard?.shard,
            scope: scope(of: fixtures), providerOption: options.providerName)
        var report = RunReport(
            run: run, fixtures: fixtures, repeats: repeats, golden: golden,
            gate: RepeatStatistics.PassRateGate(requiredRates: options.requiredPassRates, basis: options.gateOn),
            settled: Dictionary(
                settled.compactMap { $0.readBack.map { ($0.report.name, $0.report) } } + keptEarly.all.map { ($0.name, $0) },
                uniquingKeysWith: { first, _ in first }))
        let support = LanguageSupport(knowledge: prompts.coaching)
        let gaps = fixtures.compactMap { fixture in
            support.gap(for: fixture.record).map { RunReport.LanguageGap(fixture: fixture.name, language: $0.language, consequence: $0.consequence) }
        }
        report.languageGaps = gaps.isEmpty ? nil : gaps
        // A fixture read back passed the gate in full: its draft is the approved one.
        for (_, _, readBack) in settled {
            guard let fixture = readBack?.report, let draft = fixture.draftStep,
                  let approved = try? stores.golden.approved(StepKey(fixture: fixture.name, step: draft.id)) else { continue }
            drafted.add(fixture: fixture.name, output: approved.output)
        }
        report.judgeSuite(drafted.all, rules: prompts.coaching.advice.suiteSameness)
        let reviewWarnings = stores.judgeAgainstReviewers(&report, layout: layout)
        if let settling, !interrupted {
            let verdicts = Dictionary(golden.verdicts.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
            let (built, ran) = (report.fixtures, results)
            let kept = Array(built.indices).concurrentMap { index -> SettledFixtures.ReadBack? in
                // The run may have written or cleared pending outputs since.
                guard settled[index].readBack == nil, let (track, digest) = keeping(settling, index, writesPending) else { return nil }
                if let kept = settling.keep(built[index], result: ran[index], verdicts: verdicts, track: track, under: digest) { return kept }
                if writesPending, let key = settled[index].key {
                    settling.keepOnceAccepted(fixtures[index], result: ran[index], key: key, gate: gate)
                }
                return nil
            }
            // A fixture kept holds what a read-back holds from here on: a large run lets go
            // of its outputs and prompts before the report is written.
            for (index, kept) in kept.enumerated() {
                guard let kept else { continue }
                report.fixtures[index] = kept.report
                results[index] = kept.result
                for step in kept.result.steps { golden.approved[StepKey(fixture: kept.result.fixture, id: step.id)] = nil }
            }
            repeats = [results]
        }
        let folder = writer.root.appendingPathComponent(run.id, isDirectory: true)

        // The digests worked out are written while the report is.
        let savingDigests = fileDigests.map { digests in Task.detached { digests.save() } }
        // One history row per suite run: a shard's figures arrive with `merge`.
        var (warnings, reportError) = await stores.publish(report, layout: layout, recordsHistory: options.shard == nil)
        warnings += reviewWarnings
        if let reportError {
            warnings.append("could not write the report to \(layout.displayPath(of: folder)): \(reportError.localizedDescription)")
        }
        await savingDigests?.value
        if let kept = options.keptReports {
            do {
                try writer.pruneRuns(keeping: kept, current: run.id)
            } catch {
                warnings.append("could not remove old report folders from \(layout.displayPath(of: writer.root)): \(error.localizedDescription)")
            }
        }
        return Outcome(
            results: results, golden: golden, report: report, reportFolder: folder, warnings: warnings, interrupted: interrupted,
            unreachable: unreachable, budgetStop: budgetStop, cachedSteps: cache.map(\.tally.total))
    }
}

extension Evaluation {
    /// Fixtures to read back whole, for a run large enough (see `SettledFixtures`);
    /// with `spool`, only kept there for this run's report.
    func settledFixtures(_ fixtures: [Fixture], writesPending: Bool, spool: URL?) -> SettledFixtures? {
        let steps = fixtures.reduce(0) { $0 + FixturePlan($1).steps.count }
        guard SettledFixtures.applies(toStepCount: steps) else { return nil }
        let context = { (writesPending: Bool) in
            [
                "writes pending \(writesPending)", "provider \(provider.kind) \(provider.model)",
                "until " + (options.lastStep.map { "\($0)" } ?? "the end"),
            ]
        }
        return SettledFixtures(
            folder: spool ?? layout.stepCache, readsBack: spool == nil, golden: stores.golden, context: context(writesPending),
            gateContext: context(false), recorded: provider.kind == "replay",
            variants: Dictionary(uniqueKeysWithValues: prompts.prompts.compactMap { step, prompt in prompt.variant.map { (step.rawValue, $0) } }))
    }

    /// `RunInfo.scope`: the fixture list (a shard's whole suite), the last step and
    /// whether checks ran, fingerprinted.
    func scope(of fixtures: [Fixture]) -> String {
        let names = options.shard?.fixtureNames ?? fixtures.map(\.name)
        let parts = ["fixtures " + Fingerprint.of(names.sorted().joined(separator: "\n")), "until " + (options.lastStep.map { "\($0)" } ?? "the end"),
                     options.runsChecks ? "checks" : "no checks"]
        return parts.joined(separator: " · ")
    }
}

/// Reports of fixtures kept while the run goes on.
private final class KeptFixtures: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [FixtureReport] = []

    func add(_ report: FixtureReport) {
        lock.withLock { reports.append(report) }
    }

    var all: [FixtureReport] { lock.withLock { reports } }
}

/// Each fixture's drafted program, for the checks over the run's programs side by side.
private final class DraftedPrograms: @unchecked Sendable {
    private let lock = NSLock()
    private var programs: [String: JSONValue] = [:]

    func add(fixture: String, result: StepResult) {
        guard result.step?.draftsProgram == true, let output = result.output else { return }
        add(fixture: fixture, output: output)
    }

    func add(fixture: String, output: JSONValue) {
        lock.withLock { programs[fixture] = output }
    }

    /// Every program gathered, by fixture name.
    var all: [SuiteChecks.Program] {
        lock.withLock { programs }.sorted { $0.key < $1.key }.map { SuiteChecks.Program(fixture: $0.key, output: $0.value) }
    }
}

/// Verdicts reached while the run goes on, by step.
private final class Judgements: @unchecked Sendable {
    private let lock = NSLock()
    private var judgements: [StepKey: GoldenGate.Judgement] = [:]

    /// Judges now; a failure (an unreadable golden file) is left for the final pass to report.
    func add(fixture: String, result: StepResult, judge: () throws -> GoldenGate.Judgement) {
        guard let judgement = try? judge() else { return }
        lock.withLock { judgements[StepKey(fixture: fixture, id: result.id)] = judgement }
    }

    /// A verdict reached by an earlier run, for a fixture read back whole.
    func add(_ verdict: StepVerdict) {
        lock.withLock { judgements[verdict.key] = GoldenGate.Judgement(verdict: verdict, approved: nil) }
    }

    var all: [StepKey: GoldenGate.Judgement] { lock.withLock { judgements } }

    /// The judgements of a finished fixture's model steps; nil when one is missing (its
    /// golden file could not be read: the final pass reports it).
    func judgements(of fixture: FixtureResult) -> [StepKey: GoldenGate.Judgement]? {
        lock.withLock {
            var found: [StepKey: GoldenGate.Judgement] = [:]
            for step in fixture.steps where step.step != nil {
                let key = StepKey(fixture: fixture.fixture, id: step.id)
                guard let judgement = judgements[key] else { return nil }
                found[key] = judgement
            }
            return found
        }
    }

    /// Lets go of a kept fixture's golden entries: its report no longer needs them.
    func forgetApproved(of fixture: FixtureResult) {
        lock.withLock {
            for step in fixture.steps { judgements[StepKey(fixture: fixture.fixture, id: step.id)]?.approved = nil }
        }
    }

    /// Lets go of the golden entries once the report holds what it needs of them.
    func removeAll() {
        lock.withLock { judgements = [:] }
    }
}
