import Evaluation
import Foundation
import Golden
import Intake
import Pipeline

/// What `run` was asked for, as values: which fixtures, which provider, the evaluation's
/// options, and the arguments as typed (a suggested command keeps their scope).
public struct RunRequest: Sendable {
    public var fixtureNames: [String] = []
    public var tags: [String] = []
    public var shard: Shard?
    public var variants: [String] = []
    public var provider: ProviderName = .replay
    public var settings = ProviderSettings()
    /// The evaluation's options; `jobs` nil takes every core for replay and one call at a time live.
    public var options = Evaluation.Options()
    public var jobs: Int?
    /// Prints every finished step, not only the ones that fail.
    public var verbose = false
    /// The command's own arguments, without the program name.
    public var arguments: [String] = []

    public init() {}

    var replaying: Bool { settings.configuration == nil }

    /// The provider as the opening line names it: as typed, and what serves it when that
    /// is another name (`local (served by openai-compatible at http://127.0.0.1:8080/v1) qwen`).
    func providerBanner(kind: String, model: String) -> String {
        guard provider.rawValue != kind else { return "\(kind) \(model)" }
        let at = settings.configuration.map { " at \($0.baseURL.absoluteString)" } ?? ""
        return "\(provider.rawValue) (served by \(kind)\(at)) \(model)"
    }

    var effectiveJobs: Int {
        jobs ?? (replaying ? max(1, ProcessInfo.processInfo.activeProcessorCount) : 1)
    }
}

extension RunSession {
    /// Assembles the run `request` asks for in `project`, runs it at the terminal and exits
    /// with the gate's status; a fixture, prompt, price or provider that cannot be used
    /// exits 2 with its message first.
    public static func start(_ request: RunRequest, in project: Project) async -> Never {
        let err = Terminal.standardError
        do {
            // With the step cache, recordings' and golden files' digests are remembered
            // too: read while the fixtures load.
            let cachesSteps = request.options.cachesSteps
            async let remembered = cachesSteps ? project.fileDigests() : nil
            let every = try project.corpus(readsParsesBack: cachesSteps).load(names: request.fixtureNames, tags: request.tags)
            let fixtures = request.shard.map { shard in
                let names = Set(shard.select(every.map(\.name)))
                return every.filter { names.contains($0.name) }
            } ?? every
            let prompts = try project.prompts(variants: request.variants)
            let prices = try project.prices()
            let digests = await remembered
            let provider = try project.provider(request.settings, track: prompts.variants.track, prices: prices, digests: digests)
            var options = request.options
            options.jobs = request.effectiveJobs
            options.shard = request.shard.map { ($0, every.map(\.name)) }
            options.findsOrphans = request.fixtureNames.isEmpty && request.tags.isEmpty && options.lastStep == nil
            options.providerName = request.provider.rawValue
            options.warnings = request.settings.configuration.map {
                SchemaWarnings.forRun(prompts: prompts, configuration: $0, through: options.lastStep)
            } ?? []

            let printer = RunOutcomePrinter(
                out: .standardOutput, err: err, layout: project.layout, replaying: request.replaying, ci: options.ci,
                unreachableHint: request.provider == .local ? "Start the local model with `scripts/local-model serve qwen`, then run again." : nil,
                resumeLine: ResumeLine(arguments: request.arguments).line, scopeArguments: ResumeLine.scope(of: request.arguments))
            printer.printWarnings(options.warnings)
            let evaluation = Evaluation(
                layout: project.layout, prompts: prompts, prices: prices, provider: provider, options: options, fileDigests: digests)
            let progress = ProgressPrinter(terminal: err, printsValidSteps: request.verbose || !request.replaying, replaying: request.replaying)
            let opening = openingLine(
                fixtures: fixtures.count, shard: request.shard.map { "shard \($0) of \(every.count)" }, provider: request.providerBanner(kind: provider.kind, model: provider.model),
                jobs: options.jobs, repeats: options.repeats, records: request.settings.recording != .off)
            await RunSession(printer: printer, progress: progress, err: err, ci: options.ci).run(evaluation, fixtures: fixtures, opening: opening)
        } catch {
            err.writeLine("error: \(error)")
            exit(Gate.ExitStatus.badInput.rawValue)
        }
    }
}
