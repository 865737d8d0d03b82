import Foundation
import Providers

/// A model provider that answers from a script instead of a model, for tests about
/// what is done with the answers rather than about HTTP.
///
/// The replies given first are used in order; after them, `otherwise` answers each
/// request (by default a server error saying the script ran out). The provider
/// records every request, counts the calls in flight and can take its time over each.
public final class ScriptedProvider: ModelProvider, @unchecked Sendable {
    /// A reply's text, or the error the call throws.
    public typealias Reply = Result<String, ProviderError>

    /// How long each call waits before it answers. Cancelling the caller ends the wait
    /// with a `cancelled` provider error, as a real provider's call is cut short.
    public struct Delay: Sendable {
        let duration: @Sendable (_ call: Int) -> Duration

        /// Every call answers at once.
        public static let none = Delay { _ in .zero }

        /// Every call waits `duration`.
        public static func always(_ duration: Duration) -> Delay {
            Delay { _ in duration }
        }

        /// The first `calls` calls answer at once; every later one waits `duration`.
        public static func after(calls: Int, _ duration: Duration) -> Delay {
            Delay { call in call > calls ? duration : .zero }
        }

        /// The first `calls` calls wait `duration`; every later one answers at once.
        public static func first(calls: Int, _ duration: Duration) -> Delay {
            Delay { call in call > calls ? .zero : duration }
        }
    }

    public let kind: String
    public let model: String
    /// The usage and latency every answer reports.
    public let usage: TokenUsage
    public let latency: Double
    public let delay: Delay
    private let otherwise: (@Sendable (CompletionRequest) -> Reply)?

    private let lock = NSLock()
    private var script: [Reply]
    private var received: [CompletionRequest] = []
    private var finished = 0
    private var current = 0
    private var peak = 0

    /// - Parameters:
    ///   - script: The first replies, in the order calls arrive.
    ///   - otherwise: The reply to a request once the script is used up.
    public init(
        _ script: [Reply] = [], kind: String = "scripted", model: String = "scripted-model",
        usage: TokenUsage = TokenUsage(input: 100, output: 50), latency: Double = 0.01, delay: Delay = .none,
        otherwise: (@Sendable (CompletionRequest) -> Reply)? = nil
    ) {
        self.script = script
        self.kind = kind
        self.model = model
        self.usage = usage
        self.latency = latency
        self.delay = delay
        self.otherwise = otherwise
    }

    /// A provider that answers every call with `text`.
    public convenience init(
        answering text: String, kind: String = "scripted", model: String = "scripted-model",
        usage: TokenUsage = TokenUsage(input: 100, output: 50), latency: Double = 0.01, delay: Delay = .none
    ) {
        self.init([], kind: kind, model: model, usage: usage, latency: latency, delay: delay) { _ in .success(text) }
    }

    /// Every request received, in the order the calls arrived.
    public var requests: [CompletionRequest] { lock.withLock { received } }

    /// Calls received, answered or not.
    public var calls: Int { lock.withLock { received.count } }

    /// Calls that have returned or thrown, cancelled ones included.
    public var finishedCalls: Int { lock.withLock { finished } }

    /// Calls under way now.
    public var inFlight: Int { lock.withLock { current } }

    /// The most calls that were under way at once.
    public var peakInFlight: Int { lock.withLock { peak } }

    public func complete(_ request: CompletionRequest) async throws -> CompletionResponse {
        let (reply, call): (Reply?, Int) = lock.withLock {
            received.append(request)
            current += 1
            peak = max(peak, current)
            return (script.isEmpty ? nil : script.removeFirst(), received.count)
        }
        defer {
            lock.withLock {
                current -= 1
                finished += 1
            }
        }
        let wait = delay.duration(call)
        if wait > .zero {
            do {
                try await Task.sleep(for: wait)
            } catch {
                // As a real provider reports a call cut short.
                throw ProviderError(kind: .cancelled, provider: kind, message: "The request was cancelled.")
            }
        }
        let next = reply ?? otherwise?(request)
            ?? .failure(ProviderError(kind: .serverError, provider: kind, message: "script exhausted"))
        switch next {
        case .success(let text):
            return CompletionResponse(text: text, finishReason: "stop", usage: usage, latency: latency, model: model)
        case .failure(let error):
            throw error
        }
    }
}
