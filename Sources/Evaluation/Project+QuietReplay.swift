import Foundation
import History
import Intake
import Pipeline
import Reports
import Storage

extension Project {
    /// The CI gate's replay of `fixtures` on the prompts' track, for a command that
    /// reads what it found rather than reporting a run (`variants`, `agreement`): it
    /// writes nothing to the project but the step cache, neither a report folder nor
    /// the run history.
    func replayQuietly(_ prompts: PromptLibrary, fixtures: [Fixture], findsOrphans: Bool, until: StepSelector? = nil) async throws -> Evaluation.Outcome {
        let track = prompts.variants.track
        let digests = fileDigests()
        var options = Evaluation.Options()
        options.ci = true
        options.cachesSteps = true
        options.jobs = max(1, ProcessInfo.processInfo.activeProcessorCount)
        options.keptReports = nil
        options.findsOrphans = findsOrphans
        options.lastStep = until
        let reports = FileManager.default.temporaryDirectory.appendingPathComponent("trainer-eval-replay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: reports) }
        let prices = try prices()
        let evaluation = Evaluation(
            layout: layout, prompts: prompts, prices: prices,
            provider: try provider(ProviderSettings(), track: track, prices: prices, digests: digests), options: options,
            stores: Evaluation.Stores(
                golden: GoldenStore.forRun(golden: layout.golden, track: track, digests: digests), history: MemoryRunHistory(),
                reports: ReportWriter(root: reports)),
            fileDigests: digests)
        return try await evaluation.run(fixtures)
    }
}
