import Foundation
import Providers

/// Wraps a live provider and records every call it answers into the cassettes,
/// writing each step's file as soon as its call returns, so an interrupted run
/// keeps everything it finished.
public final class RecordingProvider: ModelProvider, @unchecked Sendable {
    public let base: any ModelProvider
    public let store: any CassetteStorage
    /// Answer from a matching recording when there is one, and call the live
    /// provider only for what is missing or stale (VCR's "new episodes").
    public let onlyMissing: Bool
    public var kind: String { base.kind }
    public var model: String { base.model }

    private let lock = NSLock()
    /// Calls recorded in this run, per fixture step: a repair appends to its step's cassette.
    private var recorded: [CallContext: Cassette] = [:]

    public init(recording base: any ModelProvider, into store: any CassetteStorage, onlyMissing: Bool = false) {
        self.base = base
        self.store = store
        self.onlyMissing = onlyMissing
    }

    public func complete(_ request: CompletionRequest) async throws -> CompletionResponse {
        let recordedRequest = RecordedRequest(request, provider: base.kind, model: base.model)
        if onlyMissing, let context = request.context,
           let cassette = try? store.cassette(fixture: context.fixture, step: context.step),
           cassette.provider == base.kind, cassette.model == base.model,
           let hit = cassette.interactions.first(where: { $0.key == recordedRequest.key })
        {
            remember(hit, context: context)
            return hit.response.completionResponse
        }
        let response = try await base.complete(request)
        guard let context = request.context else { return response }
        let interaction = Cassette.Interaction(key: recordedRequest.key, request: recordedRequest, response: RecordedResponse(response))
        try store.write(remember(interaction, context: context))
        return response
    }

    /// Adds a call to its step's cassette for this run and returns the cassette.
    @discardableResult
    private func remember(_ interaction: Cassette.Interaction, context: CallContext) -> Cassette {
        lock.withLock {
            let stepKey = CallContext(fixture: context.fixture, step: context.step)
            var cassette = recorded[stepKey] ?? Cassette(
                fixture: context.fixture, step: context.step, provider: base.kind, model: base.model,
                recordedAt: Date(), provenance: context.provenance, interactions: [])
            cassette.interactions.append(interaction)
            recorded[stepKey] = cassette
            return cassette
        }
    }
}
