@testable import Evaluation
import Foundation
import Testing
import TestSupport

/// The commit a run records, read from `.git` without running git for it.
@Suite(.serialized) struct GitCommitTests {
    static let gitAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/git")

    /// Runs git in `folder` and returns its trimmed output.
    @discardableResult
    static func git(_ arguments: [String], in folder: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = ["-C", folder.path, "-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "init.defaultBranch=main"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func repository() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("git-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try git(["init", "-q"], in: folder)
        try "one\n".write(to: folder.appendingPathComponent("file.txt"), atomically: true, encoding: .utf8)
        try git(["add", "file.txt"], in: folder)
        try git(["commit", "-qm", "first"], in: folder)
        return folder
    }

    @Test(.enabled(if: gitAvailable, "git is not installed"))
    func readsLooseAndPackedRefsAndLinkedWorktrees() throws {
        let folder = try Self.repository()
        defer { try? FileManager.default.removeItem(at: folder) }
        let head = try Self.git(["rev-parse", "--short=12", "HEAD"], in: folder)
        let nested = folder.appendingPathComponent("deeper/still")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        #expect(GitCommit.describe(at: nested) == head, "found from a folder inside the tree")

        try Self.git(["pack-refs", "--all"], in: folder)
        #expect(GitCommit.describe(at: folder) == head, "a branch only in packed-refs")

        let worktree = folder.appendingPathComponent("linked")
        try Self.git(["worktree", "add", "-q", "--detach", worktree.path], in: folder)
        #expect(GitCommit.describe(at: worktree) == head, "a linked worktree's .git is a file")

        try "two\n".write(to: folder.appendingPathComponent("file.txt"), atomically: true, encoding: .utf8)
        #expect(GitCommit.describe(at: folder) == head + "-dirty")
    }

    @Test func outsideARepositoryThereIsNoCommit() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(GitCommit.Repository(containing: URL(fileURLWithPath: "/")) == nil)
        #expect(GitCommit.describe(at: folder) == nil || FileManager.default.fileExists(atPath: "/tmp/.git"))
    }

    @Test func aSubprocessThatOverrunsItsDeadlineIsStopped() {
        let start = ContinuousClock.now
        #expect(BoundedSubprocess.output(of: ["sleep", "3600"], deadline: .milliseconds(200)) == nil)
        #expect(ContinuousClock.now - start < Patience.duration, "the hour-long sleep was stopped")
        #expect(BoundedSubprocess.output(of: ["echo", "hi"], deadline: Patience.duration) == "hi")
        #expect(BoundedSubprocess.output(of: ["false"], deadline: Patience.duration) == nil, "a failing program has no output")
        #expect(BoundedSubprocess.output(of: ["no-such-program-here"], deadline: Patience.duration) == nil)
    }
}
