import Foundation

/// How a run on a dedicated thread ended.
public enum BoundedOutcome<Success: Sendable>: Sendable {
    /// The operation returned or threw within the time limit.
    case finished(Result<Success, any Error>)
    /// The operation was still running at the time limit and was abandoned on its thread.
    case timedOut
}

/// Runs `operation` on a thread of its own and waits at most `timeLimit` seconds for it.
///
/// Meant for calls that might never return. Child tasks inherit the dedicated thread, so
/// a hang strands that one thread instead of one of the cooperative pool's few threads
/// (two on a two-core machine), and the rest of the test run goes on.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
public func runOnDedicatedThread<Success: Sendable>(
    timeLimit: Double, _ operation: @escaping @Sendable () async throws -> Success
) async -> BoundedOutcome<Success> {
    let executor = ThreadTaskExecutor()
    let box = OutcomeBox<Success>()
    Task(executorPreference: executor) {
        do {
            box.set(.success(try await operation()))
        } catch {
            box.set(.failure(error))
        }
    }
    let deadline = Date().addingTimeInterval(timeLimit)
    while Date() < deadline {
        if let result = box.result {
            executor.shutdown()
            return .finished(result)
        }
        try? await Task.sleep(nanoseconds: 5_000_000)
    }
    if let result = box.result {
        executor.shutdown()
        return .finished(result)
    }
    return .timedOut
}

/// A task executor that runs every job on one thread it owns.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopping = false

    init() {
        let thread = Thread { [self] in run() }
        thread.name = "TestSupport dedicated executor"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread exit once the jobs already queued have run.
    func shutdown() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Where the dedicated thread leaves its result for the waiting task.
private final class OutcomeBox<Success: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Result<Success, any Error>?

    var result: Result<Success, any Error>? { lock.withLock { stored } }

    func set(_ result: Result<Success, any Error>) {
        lock.withLock { stored = result }
    }
}
