import ArgumentParser
import Foundation
import Golden
import History
import Intake
import JSONSchema
import Pipeline
import Providers
import Reports

/// `trainer-eval run`: the evaluation run.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run fixtures through the onboarding steps against a model provider.",
        discussion: """
            For each fixture: goal options, each option edit in its scenario, confirm, \
            program draft, program edit. Every output is validated against its schema; an \
            invalid output gets one repair attempt by default, then the domain checks run. Every \
            output is compared with its approved golden output; one that differs is written beside it \
            as pending (.new) for `trainer-eval accept`. Results go to Reports/<run>/results.json.

            Exits 0 when nothing regressed, 1 on a regression, stale recording or error, 2 for bad \
            input, 130 when interrupted. With --ci nothing is written to golden/, and any difference \
            from golden, new output or orphaned golden file also exits 1. Ctrl-C stops new calls and \
            writes what finished; a second Ctrl-C quits at once.
            """
    )

    @OptionGroup var projectOptions: ProjectOptions
    @OptionGroup var providerOptions: ProviderOptions

    @Option(help: ArgumentHelp("Run only this fixture (repeatable). Default: all.", valueName: "name"))
    var fixture: [String] = []

    @Option(help: ArgumentHelp("Stop after this step; later steps are reported as skipped.", valueName: "step"))
    var step: PipelineStep?

    @Option(help: ArgumentHelp("Fixtures run at the same time.", valueName: "n"))
    var jobs: Int = 1

    @Option(help: ArgumentHelp("Repair attempts after an invalid output (0 turns repair off).", valueName: "n"))
    var repairs: Int = 1

    @Flag(help: "The CI gate: never record or write pending files; fail on any difference from golden.")
    var ci = false

    @Flag(name: .customLong("skip-checks"), help: "Do not run the domain checks and scenario assertions (judge only schema validity).")
    var skipChecks = false

    func validate() throws {
        if ci, providerOptions.records { throw ValidationError("--ci never records; drop --record.") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1.") }
        guard (0...3).contains(repairs) else { throw ValidationError("--repairs must be 0 to 3.") }
    }

    func run() async throws {
        let layout = try projectOptions.layout()
        let corpus = try projectOptions.corpus()
        let fixtures = try Failure.exitingOnError { try corpus.load(names: fixture) }
        let prompts = try Failure.exitingOnError { try PromptLibrary(layout: layout) }
        let prices = try Failure.exitingOnError { try PriceTable.load(layout: layout) }
        let provider = try providerOptions.makeProvider(layout: layout)
        let err = Terminal.standardError
        let warnings = providerOptions.configuration.map { SchemaWarnings.forRun(prompts: prompts, configuration: $0) } ?? []
        for warning in warnings { err.writeLine(err.styled("warning", .yellow) + ": \(warning)") }

        let pipeline = Pipeline(
            runner: StepRunner(provider: provider, prompts: prompts, repairAttempts: repairs, prices: prices), lastStep: step,
            runsChecks: !skipChecks)
        let progress = ProgressPrinter(terminal: err)
        let startedAt = Date()
        let clock = ContinuousClock.now
        let recording = providerOptions.records ? ", recording to golden/" : ""
        err.writeLine("Running \(fixtures.count) fixture\(fixtures.count == 1 ? "" : "s") on \(provider.kind) \(provider.model) (jobs \(jobs)\(recording)).")
        let work = Task { await pipeline.run(fixtures, jobs: jobs) { event in Task { await progress.handle(event) } } }
        let interruption = Interruption { work.cancel() }
        // The handlers stay installed until the command exits: a late second Ctrl-C
        // still quits through them, never half-way through the default action.
        let results = await work.value
        await progress.finish()
        let elapsed = clock.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18

        let summary = RunSummary(results)
        let out = Terminal.standardOutput
        out.writeLine(summary.table())
        let gate = GoldenGate(store: GoldenStore(folder: layout.golden))
        let golden: GoldenReport
        do {
            golden = try gate.evaluate(results, writesPending: !ci, findsOrphans: fixture.isEmpty && step == nil)
        } catch {
            err.writeLine("error: \(error)")
            throw ExitCode(2)
        }
        GoldenReportPrinter(terminal: out, ci: ci).print(golden)

        let run = RunReport.RunInfo(
            id: ReportWriter(root: layout.reports).availableRunID(startedAt: startedAt, provider: providerOptions.provider.rawValue),
            startedAt: startedAt, durationSeconds: seconds, provider: provider.kind,
            model: (provider as? ReplayProvider).map { $0.recordedModels.isEmpty ? $0.model : $0.recordedModels.joined(separator: ", ") } ?? provider.model,
            commit: GitCommit.describe(at: layout.root),
            prompts: Dictionary(uniqueKeysWithValues: prompts.prompts.map {
                ($0.key.rawValue, RunReport.PromptInfo(version: $0.value.metadata.version, fingerprint: $0.value.fingerprint))
            }),
            ci: ci, interrupted: interruption.wasInterrupted, warnings: warnings)
        let report = RunReport(run: run, fixtures: fixtures, results: results, golden: golden)
        let folder = layout.reports.appendingPathComponent(run.id, isDirectory: true)
        // The history comes first so the report's pass-rate chart includes this run;
        // a history that cannot be written costs the chart, never the report.
        var passRates: [PassRatePoint] = []
        do {
            let history = try RunHistory(file: layout.history)
            try history.record(report, reportFolder: layout.displayPath(of: folder))
            passRates = try history.passRates()
        } catch {
            err.writeLine(err.styled("warning", .yellow) + ": \(error)")
        }
        do {
            try ReportWriter(root: layout.reports).write(report, history: passRates)
            out.writeLine("Wall time \(String(format: "%.1f", seconds)) s. Report: \(layout.displayPath(of: folder))/index.html")
        } catch {
            err.writeLine("error: could not write the report to \(layout.displayPath(of: folder)): \(error.localizedDescription)")
        }
        if interruption.wasInterrupted {
            err.writeLine("Interrupted: steps that had not finished are marked not run.")
            throw ExitCode(130)
        }
        if ci ? !golden.passesGate : golden.hasFailures { throw ExitCode(1) }
    }
}

/// Live progress on standard error: a line per finished step, and on a terminal a
/// status line of the steps still running.
actor ProgressPrinter {
    let terminal: Terminal
    private var running: [String: ContinuousClock.Instant] = [:]

    init(terminal: Terminal) {
        self.terminal = terminal
    }

    func handle(_ event: Pipeline.Event) {
        clearStatus()
        switch event {
        case .stepStarted(let fixture, let step):
            running["\(fixture)/\(step)"] = .now
        case .stepFinished(let fixture, let result):
            running["\(fixture)/\(result.id)"] = nil
            terminal.writeLine(line(fixture: fixture, result: result))
        }
        drawStatus()
    }

    func finish() {
        clearStatus()
    }

    private func line(fixture: String, result: StepResult) -> String {
        let mark: String
        switch result.status {
        case .valid: mark = terminal.styled(result.repaired ? "✓ repaired" : "✓", .green)
        case .invalid: mark = terminal.styled("✗ invalid", .red)
        case .error: mark = terminal.styled("✗ error", .red)
        case .skipped: mark = terminal.styled("- skipped", .dim)
        }
        var text = "\(mark) \(fixture) \(result.id)"
        if !result.attempts.isEmpty {
            text += String(format: " %.1fs", result.latency) + " \(result.usage.input)→\(result.usage.output) tok"
        }
        let retries = result.attempts.reduce(0) { $0 + $1.retries } + (result.failure?.retries ?? 0)
        if retries > 0 { text += " (\(retries) \(retries == 1 ? "retry" : "retries"))" }
        if let failure = result.failure, result.status != .valid { text += ": \(failure.kind): \(failure.message)" }
        if result.status == .skipped, let note = result.note { text += ": \(note)" }
        for check in result.failedChecks { text += "\n    " + terminal.styled("check failed", .yellow) + " \(check.name): \(check.message)" }
        return text
    }

    private func clearStatus() {
        if terminal.isInteractive { terminal.write("\r\u{1B}[K") }
    }

    private func drawStatus() {
        guard terminal.isInteractive, !running.isEmpty else { return }
        let now = ContinuousClock.now
        let parts = running.sorted { $0.key < $1.key }.map { key, start in
            "\(key) \(Int((now - start).components.seconds))s"
        }
        terminal.write(terminal.styled("… " + parts.joined(separator: ", "), .dim))
    }
}
