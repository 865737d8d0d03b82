import ArgumentParser
import Console
import Evaluation
import Intake
import Reports

extension RepeatStatistics.GateBasis: ExpressibleByArgument {}

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
            input (a broken fixture, prompt or recording file), 130 when interrupted. With --ci \
            nothing is written to golden/, and any difference from golden, new output or \
            orphaned golden file also exits 1. Ctrl-C stops new calls and \
            writes what finished; a second Ctrl-C quits at once.

            A budget (--max-calls, --max-tokens, --max-minutes, --max-cost) stops starting \
            model calls once it is spent: calls under way finish, the steps not started are \
            skipped with a note naming the budget, the report and history are written, and \
            the command that resumes the run is printed. Exit status then follows what \
            finished (with --ci, 1).
            """
    )

    @OptionGroup var projectOptions: ProjectOptions
    @OptionGroup var providerOptions: ProviderOptions
    @OptionGroup var variantOptions: VariantOptions

    @Option(help: ArgumentHelp("Run only this fixture (repeatable). Default: all.", valueName: "name"))
    var fixture: [String] = []

    @Option(help: ArgumentHelp(
        "Run only the fixtures whose scenario has this tag (repeatable: any of the tags selects a fixture).",
        discussion: "With --fixture, the fixtures named and the fixtures tagged both run. `trainer-eval fixtures list` shows the tags.",
        valueName: "tag"))
    var tag: [String] = []

    @Option(
        help: ArgumentHelp(
            "Stop after this step (\(StepSelector.spellings)); later steps are reported as skipped.", valueName: "step"),
        transform: StepSelector.argument)
    var until: StepSelector?

    /// Other commands' `--step` selects one step; a run cannot, since each step needs the ones before it.
    @Option(help: .hidden)
    var step: String?

    @Option(
        help: ArgumentHelp(
            "Run only shard K of N: every Nth fixture in name order, from the Kth. `trainer-eval merge` joins the shards' reports.",
            valueName: "K/N"),
        transform: { text in
            do { return try Shard(parsing: text) } catch { throw ValidationError("--shard: \(error)") }
        })
    var shard: Shard?

    @Option(help: ArgumentHelp("Model calls in flight at once (fixtures overlap so no slot idles). Default: 1 live, the number of cores for replay.", valueName: "n"))
    var jobs: Int?

    @Option(help: ArgumentHelp("Repair attempts after an invalid output (0 turns repair off).", valueName: "n"))
    var repairs: Int = 1

    @Flag(help: "The CI gate: never record or write pending files; fail on any difference from golden.")
    var ci = false

    @Flag(name: .customLong("skip-checks"), help: "Do not run the domain checks and scenario assertions (judge only schema validity).")
    var skipChecks = false

    @Option(help: ArgumentHelp(
        "Run every step this many times and report stability: pass rates with their spread and Wilson 95% interval, pass@k and pass^k, flaky checks.",
        discussion: "Each repeat is its own call. With --record or --record-missing each repeat's answer is recorded; replay answers each repeat from its own recording.",
        valueName: "n"))
    var `repeat`: Int = 1

    @Option(
        name: .customLong("min-pass-rate"),
        help: ArgumentHelp(
            "With --repeat: the pass rate a step needs (a valid output with every check passing), as STEP=RATE or RATE for every step; repeatable.",
            valueName: "[step=]rate"))
    var minPassRates: [String] = []

    @Option(
        name: .customLong("gate-on"),
        help: ArgumentHelp(
            "What --min-pass-rate judges: mean (the mean pass rate over repeats) or lower-bound (the lower end of its Wilson 95% interval, so few repeats cannot pass by luck).",
            valueName: "mean|lower-bound"))
    var gateOn: RepeatStatistics.GateBasis?

    @Option(
        name: .customLong("keep-reports"),
        help: ArgumentHelp(
            "Report folders to keep under Reports/, this run's included; older ones are deleted (the run history keeps their figures). 0 keeps them all.",
            valueName: "n"))
    var keepReports: Int = 50

    @Flag(
        name: .customLong("no-cache"),
        help: "Work every replayed step out afresh and parse every scenario, instead of reusing results (whole fixtures, in a large suite) and parses from .step-cache/ (reused only when the build, the step's prompt files, the fixture, the earlier steps and the recording are all unchanged).")
    var noCache = false

    @Flag(help: "Print a line for every finished step. Replay prints only the steps that fail; the comparison with golden covers the rest.")
    var verbose = false

    func validate() throws {
        if let step {
            throw ValidationError(
                "run has no --step: each step needs the outputs of the steps before it. Use --until \(step) to stop after it; pending, diff and render take --step.")
        }
        if ci, providerOptions.records { throw ValidationError("--ci never records; drop --record.") }
        guard (jobs ?? 1) >= 1 else { throw ValidationError("--jobs must be at least 1.") }
        guard keepReports >= 0 else { throw ValidationError("--keep-reports must be 0 (keep all) or more.") }
        guard (0...3).contains(repairs) else { throw ValidationError("--repairs must be 0 to 3.") }
        guard (1...100).contains(`repeat`) else { throw ValidationError("--repeat must be 1 to 100.") }
        if !minPassRates.isEmpty, `repeat` < 2 { throw ValidationError("--min-pass-rate needs --repeat 2 or more.") }
        _ = try passRateGate()
    }

    /// `--min-pass-rate` and `--gate-on` as the gate they ask for, or a usage error.
    func passRateGate() throws -> RepeatStatistics.PassRateGate {
        do { return try RepeatStatistics.PassRateGate(parsing: minPassRates, basis: gateOn) } catch { throw ValidationError(error.description) }
    }

    func run() async throws {
        var request = RunRequest()
        (request.fixtureNames, request.tags, request.shard, request.variants) = (fixture, tag, shard, variantOptions.variant)
        (request.provider, request.settings) = (providerOptions.provider, try providerOptions.settings())
        (request.jobs, request.verbose, request.arguments) = (jobs, verbose, Array(CommandLine.arguments.dropFirst()))
        (request.options.lastStep, request.options.repairs, request.options.runsChecks) = (until, repairs, !skipChecks)
        (request.options.ci, request.options.repeats) = (ci, `repeat`)
        let gate = try passRateGate()
        (request.options.requiredPassRates, request.options.gateOn) = (gate.requiredRates, gate.basis)
        request.options.keptReports = keepReports == 0 ? nil : keepReports
        request.options.cachesSteps = !noCache
        await RunSession.start(request, in: try projectOptions.openProject())
    }
}
