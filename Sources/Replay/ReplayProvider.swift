import Foundation
import Intake
import JSONSchema
import Providers
import Storage

/// Answers from the cassettes only, never the network. A request that differs
/// from the recording fails as stale, saying which part changed and how.
public struct ReplayProvider: ModelProvider {
    public let kind = "replay"
    public let model = "recorded"
    public let store: any CassetteStorage
    private let served = ServedModels()

    public init(store: any CassetteStorage) {
        self.store = store
    }

    /// The models whose recordings answered this run's calls, as `provider model`,
    /// so a report can say which model produced the outputs it replays.
    public var recordedModels: [String] { served.all }

    public var answeringModel: String {
        let models = recordedModels
        return models.isEmpty ? model : models.joined(separator: ", ")
    }

    public var answersAtOnce: Bool { true }

    /// A repair the recorded conversation does not hold: the step ends with the reply that was recorded.
    private var noRecordedRepair: ProviderError {
        ProviderError(kind: .repairDeclined, provider: kind, message: "no recorded repair attempt to replay")
    }

    /// The step's cassette, to the byte, and the repeat: a replay answers from nothing else.
    public func fixedAnswers(for context: CallContext) -> FixedAnswers? {
        guard let recorded = store.recordedIdentity(context.key) else { return nil }
        return FixedAnswers(digest: "\(recorded.digest) repeat \(context.repeatNumber)", source: recorded.source)
    }

    public func reused(_ answers: FixedAnswers) {
        served.insert(answers.source)
    }

    public func complete(_ request: CompletionRequest) async throws -> CompletionResponse {
        guard let context = request.context else {
            throw ProviderError(kind: .missingRecording, provider: kind, message: "replay needs to know the fixture and step of a call")
        }
        let place = store.recordingPlace(context.key)
        let file = place.file
        // The hint records this fixture up to this step only, in this step's own track.
        let scope = "--fixture \(context.fixture) --until \(context.step)\(place.variantArguments)"
        let replayable: ReplayableCassette?
        do {
            replayable = try store.replayable(context.key)
        } catch {
            throw ProviderError(kind: .unreadableRecording, provider: kind, message: error.description)
        }
        guard let replayable else {
            if context.repair > 0 { throw noRecordedRepair }
            throw ProviderError(
                kind: .missingRecording, provider: kind,
                message: "no recording \(file); record it with `\(Invocation.command) run --provider local --record-missing \(scope)`")
        }
        let current = RecordedRequest(request, provider: replayable.provider, model: replayable.model)
        if let hit = replayable.response(forKey: current.key, repeatNumber: context.repeatNumber) {
            served.insert("\(replayable.provider) \(replayable.model)")
            return hit.completionResponse
        }
        if context.repair > 0 { throw noRecordedRepair }
        let answering = replayable.repeatsAnswering(key: current.key)
        if !answering.isEmpty {
            // The request is current, but this repeat was never recorded: answering with
            // another repeat's reply would pass one sample off as several.
            let missing = "no recording of repeat \(context.repeatNumber)"
            throw ProviderError(
                kind: .missingRecording, provider: kind,
                message: "\(file) has \(missing) (only of repeat\(answering.count == 1 ? "" : "s") "
                    + answering.map(String.init).joined(separator: ", ")
                    + "); record it with `\(Invocation.command) run --provider local --record-missing --repeat \(context.repeatNumber) \(scope)`",
                causes: [missing])
        }
        let cassette: Cassette
        do {
            cassette = try replayable.cassette()
        } catch {
            throw ProviderError(kind: .unreadableRecording, provider: kind, message: error.description)
        }
        // Compare with the recorded call at the same point of the step (first try or a
        // repair), of the same repeat when there is one.
        let sameRepeat = cassette.interactions.filter { $0.repeatNumber == context.repeatNumber }
        let candidates = sameRepeat.isEmpty ? cassette.interactions : sameRepeat
        let comparable = candidates.first { $0.request.messages.count == current.messages.count }
            ?? candidates.first
        let change = comparable.map {
            RequestChange(current: current, currentProvenance: context.provenance, recorded: $0.request, recordedProvenance: cassette.provenance)
        }
        let causes = change?.causes ?? ["the recording has no calls"]
        throw ProviderError(
            kind: .staleRecording, provider: kind,
            message: "the request differs from \(file): changed: " + causes.joined(separator: ", "),
            detail: change?.diff, causes: causes)
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

extension CallContext {
    /// The fixture step a call belongs to, as the stores key it.
    var key: StepKey { StepKey(fixture: fixture, step: step) }
}
