import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program and reads its output, giving up at a deadline.
///
/// Built on `posix_spawnp`, `poll` and `waitpid` rather than Foundation's `Process`,
/// which can wait forever (it needs a socket pair for its run loop, and that fails
/// inside some sandboxes). A program that outlives the deadline is killed.
enum BoundedSubprocess {
    /// The program's standard output, trimmed; nil when it cannot start, fails or overruns `deadline`.
    static func output(of arguments: [String], deadline: Duration) -> String? {
        guard let program = arguments.first else { return nil }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return nil }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        defer { close(readEnd) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, readEnd)

        var processID: pid_t = 0
        let cArguments = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        let spawned = posix_spawnp(&processID, program, &actions, nil, cArguments, environ)
        close(writeEnd)
        guard spawned == 0 else { return nil }

        let end = ContinuousClock.now + deadline
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = ContinuousClock.now.duration(to: end)
            guard left > .zero else { return stop(processID) }
            var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = read(readEnd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            output.append(contentsOf: buffer[0..<count])
        }
        // The output is complete; the program exits at once or is stopped at the deadline.
        var status: Int32 = 0
        while waitpid(processID, &status, WNOHANG) == 0 {
            guard ContinuousClock.now < end else { return stop(processID) }
            usleep(2_000)
        }
        guard exitedCleanly(status) else { return nil }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func stop(_ processID: pid_t) -> String? {
        kill(processID, SIGKILL)
        var status: Int32 = 0
        waitpid(processID, &status, 0)
        return nil
    }

    /// `WIFEXITED(status) && WEXITSTATUS(status) == 0`, which Swift cannot import as macros.
    private static func exitedCleanly(_ status: Int32) -> Bool {
        status & 0x7f == 0 && (status >> 8) & 0xff == 0
    }
}
