import Foundation
import Testing
import Intake
import JSONSchema
import Storage

/// Writers of one golden folder take turns across processes, and a process never waits for itself.
struct GoldenWriteLockTests {
    /// `flock -n FILE true`: 0 when the lock is free, 1 while another process holds it.
    static func tryLockFromAnotherProcess(_ file: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        process.arguments = ["-n", file, "true"]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func anotherProcessCannotWriteWhileTheLockIsHeldAndTheHolderNeverWaitsForItself() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = GoldenWriteLock.lockFile(for: folder)
        #expect(!file.hasPrefix(folder.path), "the project holds no lock file")
        #expect(try Self.tryLockFromAnotherProcess(file) == 0)
        let store = GoldenStore(folder: folder)
        let key = StepKey(fixture: "someone", step: "goal-options")
        try GoldenWriteLock.withLock(folder: folder) {
            // The store's own writes take the same lock: they do not wait for this one.
            try store.writePending(GoldenEntry(output: ["options": []], checks: ["options.count": true]), for: key)
            #expect(try store.accept(key))
            #expect(try Self.tryLockFromAnotherProcess(file) == 1)
        }
        #expect(try Self.tryLockFromAnotherProcess(file) == 0)
        // The same folder by another spelling is the same lock.
        let respelled = folder.appendingPathComponent("x/..", isDirectory: true)
        #expect(GoldenWriteLock.lockFile(for: respelled) == file)
    }
}
