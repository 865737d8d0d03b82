import Foundation
import TestSupport
import Testing

/// Runs calls that end by timing out or being cancelled on a thread of their own, so a
/// transport that failed to return would fail one test instead of hanging the whole run
/// (the cooperative pool has two threads here).
enum Bounded {
    /// Runs `body` on a thread of its own for at most `timeLimit` seconds; nil if it had
    /// not returned by then, recording a failure.
    static func run<T: Sendable>(
        _ transport: TransportKind, timeLimit: Double = Patience.seconds, _ body: @escaping @Sendable () async throws -> T
    ) async -> Result<T, any Error>? {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else {
            do { return .success(try await body()) } catch { return .failure(error) }
        }
        switch await runOnDedicatedThread(timeLimit: timeLimit, body) {
        case .finished(let result):
            return result
        case .timedOut:
            Issue.record("The call had not returned after \(timeLimit) s.")
            return nil
        }
    }

}
