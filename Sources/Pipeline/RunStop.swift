import Foundation

/// Stops a run before its end from inside it (for example when the provider cannot
/// be reached at all): the pipeline's task is cancelled, and the steps that did not
/// run say why instead of "interrupted".
public final class RunStop: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelWork: (@Sendable () -> Void)?
    private var stopNote: String?
    private var stopFailure: StepFailure?

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

    /// Runs `body` in a task that `stop` cancels, as cancelling the caller does.
    public func cancellable<T: Sendable>(_ body: @escaping @Sendable () async -> T) async -> T {
        let work = Task { await body() }
        lock.withLock {
            cancelWork = { work.cancel() }
            if stopNote != nil { work.cancel() }
        }
        return await withTaskCancellationHandler { await work.value } onCancel: { work.cancel() }
    }
}
