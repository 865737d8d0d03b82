import Foundation

/// Runs the built `trainer-eval` binary as a user would, capturing its output.
struct CommandRunner {
    struct Outcome {
        let status: Int32
        let standardOutput: String
        let standardError: String
        /// Killed after running longer than the timeout it was given.
        var timedOut = false
    }

    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// How the binary's hints spell it: the tests run it by its path in the build
    /// folder, as `swift run` does.
    static let spelled = "swift run trainer-eval"

    /// The executable sits beside the test bundle in the build folder.
    static var executable: URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !folder.path.isEmpty, folder.path != "/" {
            let candidate = folder.appendingPathComponent("trainer-eval")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return candidate
            }
            folder.deleteLastPathComponent()
        }
        return repositoryRoot.appendingPathComponent(".build/debug/trainer-eval")
    }

    /// Runs the executable with `input` on standard input: a pipe, or with
    /// `inputIsTerminal` a pseudo-terminal, as a user at a keyboard has. `unsetting`
    /// removes variables inherited from the test's environment (`NO_COLOR` is set
    /// unless removed). A process still running after `timeout` seconds is killed and
    /// its outcome says so. A `launcher` (a program and its arguments) runs the executable.
    static func run(
        _ arguments: [String], in directory: URL = repositoryRoot, input: Data? = nil, inputIsTerminal: Bool = false,
        environment: [String: String] = [:], unsetting: [String] = [], timeout: TimeInterval? = nil, launcher: [String] = []
    ) throws -> Outcome {
        let process = Process()
        // A launcher such as `unshare -n` runs the executable inside it.
        process.executableURL = launcher.first.map { URL(fileURLWithPath: $0) } ?? executable
        process.arguments = launcher.isEmpty ? arguments : Array(launcher.dropFirst()) + [executable.path] + arguments
        process.currentDirectoryURL = directory
        var merged = ProcessInfo.processInfo.environment
        merged["NO_COLOR"] = "1"
        merged.merge(environment) { $1 }
        for name in unsetting { merged[name] = nil }
        process.environment = merged
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        let inputPipe = Pipe()
        let terminal = inputIsTerminal ? try PseudoTerminal() : nil
        process.standardInput = terminal.map { FileHandle(fileDescriptor: $0.follower, closeOnDealloc: false) } ?? inputPipe
        try process.run()
        nonisolated(unsafe) var timedOut = false
        let killer = DispatchWorkItem {
            guard process.isRunning else { return }
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
        }
        if let timeout { DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer) }
        // Read both pipes concurrently so a chatty process never blocks on a full pipe.
        nonisolated(unsafe) var errorData = Data()
        let errorReader = Thread { errorData = error.fileHandleForReading.readDataToEndOfFile() }
        errorReader.start()
        if let terminal {
            terminal.closeFollower()
            if let input { terminal.type(input) }
        } else {
            if let input { inputPipe.fileHandleForWriting.write(input) }
            try inputPipe.fileHandleForWriting.close()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        terminal?.hangUp()
        while errorReader.isExecuting || !errorReader.isFinished { Thread.sleep(forTimeInterval: 0.005) }
        return Outcome(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self),
            timedOut: timedOut)
    }
}

/// A pseudo-terminal pair: the child reads from the follower side, which `isatty`
/// reports as a terminal, and the test types on the leader side.
final class PseudoTerminal {
    /// The end-of-file key (Ctrl-D) at the start of a line.
    static let endOfInput = Data([0x04])

    let leader: Int32
    private(set) var follower: Int32

    struct Unavailable: Error, CustomStringConvertible {
        let call: String
        let reason = String(cString: strerror(errno))
        var description: String { "\(call) failed (\(reason)): no pseudo-terminal for the test" }
    }

    init() throws {
        let calls = try Calls()
        let leader = calls.openLeader(O_RDWR | O_NOCTTY)
        guard leader >= 0 else { throw Unavailable(call: "posix_openpt") }
        do {
            guard calls.grant(leader) == 0 else { throw Unavailable(call: "grantpt") }
            guard calls.unlock(leader) == 0 else { throw Unavailable(call: "unlockpt") }
            var name = [CChar](repeating: 0, count: 128)
            guard calls.followerName(leader, &name, name.count) == 0 else { throw Unavailable(call: "ptsname_r") }
            let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            follower = open(path, O_RDWR | O_NOCTTY)
            guard follower >= 0 else { throw Unavailable(call: "open \(path)") }
        } catch {
            close(leader)
            throw error
        }
        self.leader = leader
    }

    /// The C library's pseudo-terminal calls, looked up at run time: Glibc's module
    /// hides their declarations behind feature macros Swift does not define.
    private struct Calls {
        let openLeader: @convention(c) (Int32) -> Int32
        let grant: @convention(c) (Int32) -> Int32
        let unlock: @convention(c) (Int32) -> Int32
        let followerName: @convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32

        init() throws {
            let library = dlopen(nil, RTLD_NOW)
            func symbol<T>(_ name: String, as type: T.Type) throws -> T {
                guard let address = dlsym(library, name) else { throw Unavailable(call: "dlsym(\(name))") }
                return unsafeBitCast(address, to: type)
            }
            openLeader = try symbol("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
            grant = try symbol("grantpt", as: (@convention(c) (Int32) -> Int32).self)
            unlock = try symbol("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
            followerName = try symbol("ptsname_r", as: (@convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32).self)
        }
    }

    /// The child has its own copy of the follower; the test's copy is closed so the
    /// terminal goes away when the child exits.
    func closeFollower() {
        if follower >= 0 { close(follower) }
        follower = -1
    }

    func type(_ data: Data) {
        data.withUnsafeBytes { _ = write(leader, $0.baseAddress, $0.count) }
    }

    func hangUp() {
        closeFollower()
        close(leader)
    }
}
