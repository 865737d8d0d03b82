import Foundation
import Golden
import History
import Intake
import Pipeline
import Providers
import Replay
import Storage

/// A project assembled in one place from its folder: the fixtures, the prompts with
/// their variants, the prices, the stores and the provider stack. Commands parse
/// their options and ask a `Project` for what they need. (A run's own stores are
/// `Evaluation.Stores.onDisk`, which `Evaluation` builds from the same layout.)
public struct Project: Sendable {
    public let layout: ProjectLayout

    public init(layout: ProjectLayout) {
        self.layout = layout
    }

    /// The fixtures. With `readsParsesBack`, scenarios parsed on an earlier run by this
    /// build are read back from `.step-cache/scenarios.json` instead of parsed again.
    public func corpus(readsParsesBack: Bool = false) throws -> FixtureCorpus {
        var corpus = try FixtureCorpus(layout: layout)
        if readsParsesBack {
            corpus.parsedScenarios = ParsedScenarios(file: layout.parsedScenarios, identity: CodeIdentity.current)
        }
        return corpus
    }

    /// `--variant` values resolved against the project's prompt folders.
    public func variants(_ arguments: [String]) throws -> VariantSelection {
        try VariantSelection(resolving: arguments, layout: layout)
    }

    /// The prompts with the selected variants.
    public func prompts(variants arguments: [String] = []) throws -> PromptLibrary {
        try PromptLibrary(layout: layout, variants: variants(arguments))
    }

    public func prices() throws -> PriceTable {
        try PriceTable.load(layout: layout)
    }

    /// Approved and pending outputs, all tracks.
    public var golden: GoldenStore { GoldenStore(folder: layout.golden) }

    /// Who reviews: `named` when given, else git's `user.name` for the project; nil when neither says.
    public func reviewer(_ named: String?) -> String? {
        named ?? GitCommit.userName(at: layout.root)
    }

    /// Reviewers' labels of the outputs on the variants' track, given with the
    /// project's reason vocabulary.
    public func reviewLabels(variants arguments: [String] = []) throws -> ReviewLabels {
        let track = try variants(arguments).track
        return ReviewLabels(
            golden: GoldenStore.forRun(golden: layout.golden, track: track), reasons: try ReviewReasons.load(layout: layout),
            fixtures: try corpus().fixtureNames())
    }

    public func history() throws -> RunHistory {
        try RunHistory(file: layout.history)
    }

    /// The recordings a run on `track` reads and writes; with `digests`, their digests
    /// are remembered across runs.
    public func cassettes(track: VariantTrack?, digests: FileDigests? = nil) -> any CassetteStorage {
        CassetteStore.forRun(golden: layout.golden, track: track, digests: digests)
    }

    /// The digests of recordings and golden files remembered in `.step-cache/`, for a
    /// run with the step cache: its `provider` and `Evaluation` share them.
    public func fileDigests() -> FileDigests {
        FileDigests(file: layout.fileDigests)
    }

    /// Where `render` finds the earlier outputs a step's input needs, on the prompts' track:
    /// the recorded replies, else the approved outputs (else `render` shows placeholders).
    public func upstreamOutputs(for prompts: PromptLibrary) -> any UpstreamOutputs {
        let track = prompts.variants.track
        return ApprovedOutputs(
            store: GoldenStore.forRun(golden: layout.golden, track: track), preferring: RecordedOutputs(store: cassettes(track: track)),
            builtFromReply: prompts.stepsBuildingOutputFromReply)
    }

    /// The provider stack `settings` describe: replay from the track's recordings, or
    /// the live provider with retries, a budget when one is set, and recording when asked.
    /// Throws for a missing API key or a cost cap on a model `prices` has no price for.
    /// A wall-time budget counts from here.
    public func provider(
        _ settings: ProviderSettings, track: VariantTrack?, prices: PriceTable, digests: FileDigests? = nil
    ) throws -> any ModelProvider {
        try provider(settings, recordingInto: cassettes(track: track, digests: digests), prices: prices)
    }

    /// The provider stack `settings` describe, replaying from and recording into `store`.
    func provider(_ settings: ProviderSettings, recordingInto store: any CassetteStorage, prices: PriceTable) throws -> any ModelProvider {
        guard let configuration = settings.configuration else { return ReplayProvider(store: store) }
        let budget = RunBudget(
            maxCalls: settings.maxCalls, maxTokens: settings.maxTokens, maxMinutes: settings.maxMinutes,
            maxCost: try settings.maxCost.map { dollars in
                try prices.costCap(dollars: dollars, model: configuration.model, file: layout.displayPath(of: PriceTable.file(in: layout)))
            })
        var live: any ModelProvider = RetryingProvider(
            try configuration.makeProvider(transport: CurlTransport(deadline: settings.timeout)), policy: RetryPolicy(maxRetries: settings.retries))
        if !budget.isUnlimited { live = BudgetedProvider(live, budget: budget) }
        switch settings.recording {
        case .off: return live
        case .all: return RecordingProvider(recording: live, into: store, onlyMissing: false)
        case .missing: return RecordingProvider(recording: live, into: store, onlyMissing: true)
        }
    }
}
