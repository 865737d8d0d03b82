import Foundation

/// Stops a run before its end from inside it: when the provider cannot be reached at
/// all the pipeline's task is cancelled; when a budget is spent no new step starts but
/// the calls under way finish. Either way the steps that did not run say why instead
/// of "interrupted".
public final class RunStop: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelWork: (@Sendable () -> Void)?
    private var stopNote: String?
    private var stopFailure: StepFailure?
    private var letsCallsFinish = false

    public init() {}

    /// Why the run stopped, as the steps that did not run are noted; nil while it goes on.
    public var note: String? { lock.withLock { stopNote } }

    /// The failure that stopped the run, when one did.
    public var failure: StepFailure? { lock.withLock { stopFailure } }

    /// Stops the work `cancellable` runs; the first reason given is kept.
    public func stop(note: String, because failure: StepFailure? = nil) {
        lock.withLock {
            if stopNote == nil { (stopNote, stopFailure) = (note, failure) }
            cancelWork?()
        }
    }

    /// Whether the run stopped only starting new steps (a spent budget) rather than
    /// cancelling the calls under way.
    public var letCallsFinish: Bool { lock.withLock { letsCallsFinish } }

    /// Stops starting new steps and lets the calls under way finish; the first reason given is kept.
    public func stopStarting(note: String) {
        lock.withLock {
            if stopNote == nil { (stopNote, letsCallsFinish) = (note, true) }
        }
    }

    /// Runs `body` in a task that `stop` cancels, as cancelling the caller does.
    public func cancellable<T: Sendable>(_ body: @escaping @Sendable () async -> T) async -> T {
        // The task starts under the lock: a `stop` from its first step waits until the
        // task can be cancelled, so no step after it runs as if the run went on.
        let work = lock.withLock {
            let work = Task { await body() }
            cancelWork = { work.cancel() }
            if stopNote != nil { work.cancel() }
            return work
        }
        return await withTaskCancellationHandler { await work.value } onCancel: { work.cancel() }
    }
}
