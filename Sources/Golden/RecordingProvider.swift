import Foundation
import Providers

/// Wraps a live provider and records every call it answers into the cassettes,
/// writing each step's file as soon as its call returns, so an interrupted run
/// keeps everything it finished.
public final class RecordingProvider: ModelProvider, @unchecked Sendable {
    public let base: any ModelProvider
    public let store: CassetteStore
    public var kind: String { base.kind }
    public var model: String { base.model }

    private let lock = NSLock()
    /// Calls recorded in this run, per fixture step: a repair appends to its step's cassette.
    private var recorded: [CallContext: Cassette] = [:]

    public init(recording base: any ModelProvider, into store: CassetteStore) {
        self.base = base
        self.store = store
    }

    public func complete(_ request: CompletionRequest) async throws -> CompletionResponse {
        let response = try await base.complete(request)
        guard let context = request.context else { return response }
        let recordedRequest = RecordedRequest(request, provider: base.kind, model: base.model)
        let interaction = Cassette.Interaction(key: recordedRequest.key, request: recordedRequest, response: RecordedResponse(response))
        let cassette: Cassette = lock.withLock {
            let stepKey = CallContext(fixture: context.fixture, step: context.step)
            var cassette = recorded[stepKey] ?? Cassette(
                fixture: context.fixture, step: context.step, provider: base.kind, model: base.model,
                recordedAt: Date(), provenance: context.provenance, interactions: [])
            cassette.interactions.append(interaction)
            recorded[stepKey] = cassette
            return cassette
        }
        try store.write(cassette)
        return response
    }
}
