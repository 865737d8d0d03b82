import Dispatch
import Foundation

/// Ctrl-C and SIGTERM during a run: the first stops new calls and cancels the ones
/// in flight, so the run can still write what it finished; a second exits at once.
/// Files are only ever replaced by atomic renames, so exiting never leaves half of one.
public final class Interruption: @unchecked Sendable {
    private let lock = NSLock()
    /// Kept for the life of the command; each handler holds its source.
    private var sources: [DispatchSourceSignal] = []
    private var count = 0
    private var onFirst: (@Sendable () -> Void)?

    /// Starts listening; `onFirst` runs once, on the first signal.
    public init(onFirst: @escaping @Sendable () -> Void) {
        self.onFirst = onFirst
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            // Signals that arrive close together are coalesced: `data` says how many there were.
            source.setEventHandler { [weak self, source] in
                self?.received(signalNumber, times: max(1, Int(source.data)))
            }
            source.resume()
            sources.append(source)
        }
    }

    public var wasInterrupted: Bool { lock.withLock { count > 0 } }

    private func received(_ signalNumber: Int32, times: Int) {
        let (before, action): (Int, (@Sendable () -> Void)?) = lock.withLock {
            defer {
                count += times
                onFirst = nil
            }
            return (count, onFirst)
        }
        if before == 0 {
            Terminal.standardError.writeLine(
                "\nStopping: no new calls; writing what finished. Press Ctrl-C again to quit now.")
            action?()
        }
        if before + times >= 2 {
            Terminal.standardError.writeLine("\nQuit.")
            _exit(128 + signalNumber)
        }
    }
}
