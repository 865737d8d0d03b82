import Foundation
import Intake
import Testing

/// Hints spell the command the way it was invoked, so a hint pasted into the same shell runs.
struct InvocationTests {
    @Test(arguments: [
        ("/home/someone/app/.build/x86_64-unknown-linux-gnu/debug/trainer-eval", "swift run trainer-eval"),
        ("/home/someone/app/.build/debug/trainer-eval", "swift run trainer-eval"),
        ("/home/someone/app/.build/release/trainer-eval", "swift run -c release trainer-eval"),
        (".build/x86_64-unknown-linux-gnu/debug/trainer-eval", "swift run trainer-eval"),
        (".build/aarch64-unknown-linux-gnu/release/trainer-eval", "swift run -c release trainer-eval"),
        (".build/release/trainer-eval", ".build/release/trainer-eval"),
        ("./.build/debug/trainer-eval", "./.build/debug/trainer-eval"),
        ("/opt/tools/trainer-eval", "/opt/tools/trainer-eval"),
        ("trainer-eval", "trainer-eval"),
        ("/usr/lib/swift/xctest", "trainer-eval"),
        ("/home/someone/app/.build/debug/trainer-evalPackageTests.xctest", "trainer-eval"),
    ])
    func spellsTheCommandAsInvoked(executable: String, spelled: String) {
        #expect(Invocation.spelling(executable: executable, searchPath: "/usr/bin:/bin") == spelled)
    }

    @Test func anExecutableFoundOnThePathIsCalledByItsName() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("invocation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let binary = folder.appendingPathComponent("trainer-eval")
        try Data("#!/bin/sh\n".utf8).write(to: binary)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: binary.path)

        #expect(Invocation.spelling(executable: binary.path, searchPath: "/usr/bin:\(folder.path)") == "trainer-eval")
        #expect(Invocation.spelling(executable: binary.path, searchPath: "/usr/bin") == binary.path)
    }
}
