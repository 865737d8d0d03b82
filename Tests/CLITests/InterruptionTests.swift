import Foundation
import JSONSchema
import TestSupport
import Testing

@Suite("Interrupting a run", .serialized)
struct InterruptionTests {
    /// Starts `trainer-eval run` against a server that never answers, waits for its first
    /// call, sends `signals` (SIGINT) spaced by `gap` seconds, and returns the exit status
    /// and the seconds from the first signal to the exit.
    func interrupt(signals: Int, gap: Double = 0.3) async throws -> (status: Int32, seconds: Double, project: URL, stderr: String) {
        let project = try RunCommandTests.makeProject()
        let server = try LoopbackServer(answering: .hang)
        defer { server.stop() }
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = ["run", "--project", project.path, "--provider", "openai-compatible",
                             "--base-url", server.url("/v1").absoluteString, "--retries", "0"]
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let errorPipe = Pipe()
        process.standardError = errorPipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        #expect(await server.waitForRequests(1, timeout: Patience.seconds), "the run never called the server")
        let start = Date()
        for index in 0..<signals {
            if index > 0 { try await Task.sleep(nanoseconds: UInt64(gap * 1e9)) }
            kill(process.processIdentifier, SIGINT)
        }
        let deadline = Date().addingTimeInterval(Patience.seconds)
        while process.isRunning, Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let stderr = String(decoding: errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, Date().timeIntervalSince(start), project, stderr)
    }

    @Test func theFirstCtrlCStopsNewCallsAndWritesWhatFinished() async throws {
        let outcome = try await interrupt(signals: 1)
        defer { try? FileManager.default.removeItem(at: outcome.project) }
        #expect(outcome.status == 130, "\(outcome.stderr)")
        #expect(outcome.seconds < Patience.seconds, "took \(outcome.seconds) s: the call that never answers was not cut short")
        #expect(outcome.stderr.contains("Stopping: no new calls"))
        let results = try #require(FileManager.default.enumerator(at: outcome.project.appendingPathComponent("Reports"), includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.first { $0.lastPathComponent == "results.json" })
        let text = try String(contentsOf: results, encoding: .utf8)
        #expect(text.contains("not run: the run was interrupted"))
        let steps = try JSONParser.parse(Data(text.utf8))["fixtures"]?.arrayValue?.flatMap { $0["steps"]?.arrayValue ?? [] } ?? []
        #expect(steps.contains { $0["failure"]?["kind"]?.stringValue == "cancelled" }, "a step stopped by the interrupt says so")
        // Nothing half-written: no temporary files left behind.
        let leftovers = FileManager.default.enumerator(atPath: outcome.project.path)?.compactMap { $0 as? String }
            .filter { $0.contains(".tmp") || $0.hasSuffix("~") } ?? []
        #expect(leftovers.isEmpty)
    }

    @Test func aSecondCtrlCQuitsAtOnce() async throws {
        let outcome = try await interrupt(signals: 2, gap: 0.05)
        defer { try? FileManager.default.removeItem(at: outcome.project) }
        #expect(outcome.status == 130, "\(outcome.stderr)")
        // Either the second signal quit at once, or the run had already written what
        // finished and left by itself before it arrived; both exit 130.
        #expect(outcome.stderr.contains("Quit.") || outcome.stderr.contains("Interrupted:"), "\(outcome.stderr)")
        #expect(outcome.seconds < Patience.seconds, "took \(outcome.seconds) s: the call that never answers was not cut short")
    }
}
