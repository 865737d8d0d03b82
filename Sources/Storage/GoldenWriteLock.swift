import Foundation
import Intake

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps the writers of one golden folder apart across processes: `serve` checks that
/// an output is still the one its page showed and writes, while no `run`, `accept`,
/// `reject` or `label` of another process writes there; each of their writes waits
/// for it, and it for them.
///
/// An advisory `flock` on a file named by the folder's path in the system's temporary
/// folder (so the project holds no lock file), reentrant within a process: a write
/// the holder makes itself does not wait for its own lock.
public enum GoldenWriteLock {
    /// Runs `body` holding the lock of `folder`. Where no lock file can be made (a
    /// read-only temporary folder), `body` runs unlocked, as before there was a lock.
    public static func withLock<T, E: Error>(folder: URL, _ body: () throws(E) -> T) throws(E) -> T {
        let holder = Holder.of(folder)
        holder.acquire()
        defer { holder.release() }
        return try body()
    }

    /// The file whose `flock` is the lock of `folder`: a script that must not write
    /// beside `serve` can hold it too (`flock FILE command`).
    public static func lockFile(for folder: URL) -> String {
        let path = folder.standardizedFileURL.resolvingSymlinksInPath().path
        let locks = FileManager.default.temporaryDirectory.appendingPathComponent("trainer-eval-locks", isDirectory: true)
        try? FileManager.default.createDirectory(at: locks, withIntermediateDirectories: true)
        return locks.appendingPathComponent(SHA256Digest.hex(of: path) + ".lock").path
    }

    private final class Holder: @unchecked Sendable {
        private static let registry = NSLock()
        nonisolated(unsafe) private static var holders: [String: Holder] = [:]

        static func of(_ folder: URL) -> Holder {
            let path = folder.standardizedFileURL.resolvingSymlinksInPath().path
            return registry.withLock {
                if let holder = holders[path] { return holder }
                let holder = Holder(lockFile: GoldenWriteLock.lockFile(for: folder))
                holders[path] = holder
                return holder
            }
        }

        private let lockFile: String
        /// Threads of this process take turns; the first in takes the file's lock.
        private let turns = NSRecursiveLock()
        private var depth = 0
        private var descriptor: Int32 = -1

        private init(lockFile: String) {
            self.lockFile = lockFile
        }

        func acquire() {
            turns.lock()
            depth += 1
            guard depth == 1 else { return }
            if descriptor < 0 { descriptor = open(lockFile, O_RDWR | O_CREAT | O_CLOEXEC, 0o666) }
            guard descriptor >= 0 else { return }
            while flock(descriptor, LOCK_EX) != 0, errno == EINTR {}
        }

        func release() {
            depth -= 1
            if depth == 0, descriptor >= 0 { flock(descriptor, LOCK_UN) }
            turns.unlock()
        }
    }
}
