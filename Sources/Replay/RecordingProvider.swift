import Foundation
import Providers
import Storage

/// Wraps a live provider and records every call it answers into the cassettes,
/// writing each step's file as soon as its call returns, so an interrupted run
/// keeps everything it finished. Under `run --repeat N` each repeat's calls are
/// recorded with their repeat number, all in the step's one cassette.
public final class RecordingProvider: ModelProvider, @unchecked Sendable {
    public let base: any ModelProvider
    public let store: any CassetteStorage
    /// Answer from a matching recording of the same repeat when there is one, and call
    /// the live provider only for what is missing or stale (VCR's "new episodes").
    public let onlyMissing: Bool
    public var kind: String { base.kind }
    public var model: String { base.model }

    private let lock = NSLock()
    /// Calls recorded in this run, per fixture step: a repair or a later repeat appends to its step's cassette.
    private var recorded: [StepCassetteKey: Cassette] = [:]

    private struct StepCassetteKey: Hashable {
        var fixture: String
        var step: String
    }

    public init(recording base: any ModelProvider, into store: any CassetteStorage, onlyMissing: Bool = false) {
        self.base = base
        self.store = store
        self.onlyMissing = onlyMissing
    }

    public func complete(_ request: CompletionRequest) async throws -> CompletionResponse {
        let recordedRequest = RecordedRequest(request, provider: base.kind, model: base.model)
        let existing = onlyMissing ? request.context.flatMap { try? store.cassette($0.key) } : nil
        if let context = request.context, let existing, existing.provider == base.kind, existing.model == base.model,
           let hit = existing.interactions.first(where: { $0.key == recordedRequest.key && $0.repeatNumber == context.repeatNumber })
        {
            remember(hit, context: context, existing: existing)
            return hit.response.completionResponse
        }
        let response = try await base.complete(request)
        guard let context = request.context else { return response }
        let interaction = Cassette.Interaction(
            key: recordedRequest.key, request: recordedRequest, response: RecordedResponse(response), repeatNumber: context.repeatNumber)
        try store.write(remember(interaction, context: context, existing: existing))
        return response
    }

    /// Adds a call to its step's cassette for this run and returns the cassette.
    ///
    /// With `onlyMissing`, a step's cassette starts from the recordings of the other
    /// repeats that answered this same request, so re-recording one repeat keeps the
    /// others that are still current; recordings of a request that changed are dropped.
    @discardableResult
    private func remember(_ interaction: Cassette.Interaction, context: CallContext, existing: Cassette?) -> Cassette {
        lock.withLock {
            let stepKey = StepCassetteKey(fixture: context.fixture, step: context.step)
            var cassette = recorded[stepKey] ?? Cassette(
                fixture: context.fixture, step: context.step, provider: base.kind, model: base.model,
                recordedAt: Date(), provenance: context.provenance,
                interactions: Self.currentRepeats(of: existing, answering: interaction, provider: base.kind, model: base.model))
            if !cassette.interactions.contains(where: { $0.key == interaction.key && $0.repeatNumber == interaction.repeatNumber }) {
                cassette.interactions.append(interaction)
            }
            recorded[stepKey] = cassette
            return cassette
        }
    }

    /// The calls of the other repeats in `existing` whose repeat answered the same
    /// request as `interaction`, repairs included, in their recorded order.
    private static func currentRepeats(
        of existing: Cassette?, answering interaction: Cassette.Interaction, provider: String, model: String
    ) -> [Cassette.Interaction] {
        guard let existing, existing.provider == provider, existing.model == model else { return [] }
        let current = Set(existing.interactions.filter { $0.key == interaction.key && $0.repeatNumber != interaction.repeatNumber }.map(\.repeatNumber))
        return existing.interactions.filter { current.contains($0.repeatNumber) }
    }
}
