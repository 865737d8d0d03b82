import Foundation
import Providers

/// Answers from the cassettes only, never the network. A request that differs
/// from the recording fails as stale, saying which part changed and how.
public struct ReplayProvider: ModelProvider {
    public let kind = "replay"
    public let model = "recorded"
    public let store: CassetteStore
    private let served = ServedModels()

    public init(store: CassetteStore) {
        self.store = store
    }

    /// The models whose recordings answered this run's calls, as `provider model`,
    /// so a report can say which model produced the outputs it replays.
    public var recordedModels: [String] { served.all }

    public func complete(_ request: CompletionRequest) async throws -> CompletionResponse {
        guard let context = request.context else {
            throw ProviderError(kind: .missingRecording, provider: kind, message: "replay needs to know the fixture and step of a call")
        }
        let file = "golden/\(context.fixture)/\(context.step).cassette.json"
        let replayable: ReplayableCassette?
        do {
            replayable = try store.replayable(fixture: context.fixture, step: context.step)
        } catch {
            throw ProviderError(kind: .unreadableRecording, provider: kind, message: error.description)
        }
        guard let replayable else {
            throw ProviderError(
                kind: .missingRecording, provider: kind,
                message: "no recording \(file); record it with `trainer-eval run --record --provider local --fixture \(context.fixture)`")
        }
        let current = RecordedRequest(request, provider: replayable.provider, model: replayable.model)
        if let hit = replayable.response(forKey: current.key) {
            served.insert("\(replayable.provider) \(replayable.model)")
            return hit.completionResponse
        }
        let cassette: Cassette
        do {
            cassette = try replayable.cassette()
        } catch {
            throw ProviderError(kind: .unreadableRecording, provider: kind, message: error.description)
        }
        // Compare with the recorded call at the same point of the step (first try or a repair).
        let comparable = cassette.interactions.first { $0.request.messages.count == current.messages.count }
            ?? cassette.interactions.first
        let explanation = comparable.map {
            Self.explain(current: current, currentProvenance: context.provenance, recorded: $0.request, recordedProvenance: cassette.provenance)
        } ?? "the recording has no calls"
        throw ProviderError(
            kind: .staleRecording, provider: kind,
            message: "the request differs from \(file): \(explanation)")
    }

    /// Which parts of the request changed since it was recorded, with the prompt diff.
    static func explain(
        current: RecordedRequest, currentProvenance: [String: String],
        recorded: RecordedRequest, recordedProvenance: [String: String]
    ) -> String {
        var parts = Set(currentProvenance.keys).union(recordedProvenance.keys)
            .filter { currentProvenance[$0] != recordedProvenance[$0] }
            .sorted()
        if current.schemaSHA256 != recorded.schemaSHA256, !parts.contains("schema") { parts.append("schema") }
        if current.model != recorded.model { parts.append("model (\(recorded.model) → \(current.model))") }
        if current.temperature != recorded.temperature {
            parts.append("temperature (\(recorded.temperature) → \(current.temperature))")
        }
        if current.maxTokens != recorded.maxTokens { parts.append("max_tokens (\(recorded.maxTokens) → \(current.maxTokens))") }
        if current.seed != recorded.seed {
            parts.append("seed (\(recorded.seed.map(String.init) ?? "none") → \(current.seed.map(String.init) ?? "none"))")
        }
        var diffs: [String] = []
        if current.system != recorded.system {
            if !parts.contains("system prompt") && !parts.contains("system") { parts.append("system prompt") }
            diffs.append(LineDiff(old: recorded.system, new: current.system).unified(oldName: "recorded system", newName: "current system"))
        }
        let recordedUser = recorded.messages.map(\.content).joined(separator: "\n\n")
        let currentUser = current.messages.map(\.content).joined(separator: "\n\n")
        if currentUser != recordedUser {
            if parts.isEmpty { parts.append("user message") }
            diffs.append(LineDiff(old: recordedUser, new: currentUser).unified(oldName: "recorded messages", newName: "current messages"))
        }
        if parts.isEmpty { parts.append("request encoding") }
        return "changed: " + parts.joined(separator: ", ") + (diffs.isEmpty ? "" : "\n" + diffs.joined(separator: "\n"))
    }
}

/// A set shared by the copies of a replay provider across concurrent fixtures.
private final class ServedModels: @unchecked Sendable {
    private let lock = NSLock()
    private var models = Set<String>()

    func insert(_ model: String) {
        lock.withLock { _ = models.insert(model) }
    }

    var all: [String] { lock.withLock { models.sorted() } }
}
