import Foundation

/// Lets at most `limit` calls be in flight at once, whoever makes them.
///
/// `--jobs N` bounds calls, not fixtures: a fixture that just got its answer
/// validates and checks it while its slot already serves another fixture's call,
/// so the provider sees N requests at every moment rather than in waves.
public final class ConcurrencyLimitedProvider: ModelProvider, @unchecked Sendable {
    public let base: any ModelProvider
    public let limit: Int
    public var kind: String { base.kind }
    public var model: String { base.model }

    private let lock = NSLock()
    private var inFlight = 0
    private var waiting: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextID: UInt64 = 0

    public init(_ base: any ModelProvider, limit: Int) {
        self.base = base
        self.limit = max(1, limit)
    }

    public func complete(_ request: CompletionRequest) async throws -> CompletionResponse {
        do {
            try await acquire()
        } catch {
            throw ProviderError(kind: .cancelled, provider: kind, message: "cancelled while waiting for a free slot (--jobs \(limit))")
        }
        defer { release() }
        return try await base.complete(request)
    }

    public func fixedAnswers(for context: CallContext) -> FixedAnswers? { base.fixedAnswers(for: context) }
    public func reused(_ answers: FixedAnswers) { base.reused(answers) }

    private func acquire() async throws {
        let id: UInt64 = lock.withLock {
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool = lock.withLock {
                    if Task.isCancelled { return false }
                    if inFlight < limit {
                        inFlight += 1
                        return true
                    }
                    waiting.append((id, continuation))
                    return false
                }
                if resumeNow {
                    continuation.resume()
                } else if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let cancelled: CheckedContinuation<Void, any Error>? = lock.withLock {
                guard let index = waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return waiting.remove(at: index).continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    /// Calls queued for a slot.
    var waitingCount: Int { lock.withLock { waiting.count } }

    private func release() {
        let next: CheckedContinuation<Void, any Error>? = lock.withLock {
            if waiting.isEmpty {
                inFlight -= 1
                return nil
            }
            // The slot passes straight to the next waiter.
            return waiting.removeFirst().continuation
        }
        next?.resume()
    }
}
