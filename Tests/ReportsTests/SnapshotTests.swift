import Foundation
import Testing

/// The snapshot helper fails when it should, says how to update, and writes only when asked.
@Suite("Snapshot files and their diffs")
struct SnapshotTests {
    /// A snapshot in a fresh temporary folder, never in the committed one.
    private func temporarySnapshot(holding text: String?) throws -> Snapshot {
        let folder = ReportFilesTests.temporaryFolder()
        let snapshot = Snapshot(name: "sample/report.md", folder: folder)
        if let text {
            try FileManager.default.createDirectory(at: snapshot.file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: snapshot.file)
        }
        return snapshot
    }

    private func contents(of snapshot: Snapshot) -> String? {
        FileManager.default.contents(atPath: snapshot.file.path).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func theSameTextPasses() throws {
        let snapshot = try temporarySnapshot(holding: "a\nb\n")
        defer { try? FileManager.default.removeItem(at: snapshot.folder) }
        #expect(snapshot.check("a\nb\n", updating: false) == nil)
        #expect(snapshot.check("a\nb\n", updating: true) == nil)
    }

    @Test func aDifferenceFailsWithTheDiffAndHowToUpdate() throws {
        let snapshot = try temporarySnapshot(holding: "a\nb\nc\n")
        defer { try? FileManager.default.removeItem(at: snapshot.folder) }
        let problem = try #require(snapshot.check("a\nB\nc\n", updating: false))
        #expect(problem == """
            The output differs from \(snapshot.file.path) (- expected, + actual):
            first difference at line 2, column 1
            @@ -1,3 +1,3 @@
             a
            -b
            +B
             c
            If the change is intended, rerun with UPDATE_SNAPSHOTS=1 to rewrite the file, then review `git diff` and commit it.
            """)
        #expect(contents(of: snapshot) == "a\nb\nc\n", "a check never writes")
    }

    @Test func bytesAreComparedNotCanonicalText() throws {
        let snapshot = try temporarySnapshot(holding: "cafe\u{301}\n")
        defer { try? FileManager.default.removeItem(at: snapshot.folder) }
        let problem = try #require(snapshot.check("caf\u{E9}\n", updating: false), "the same text in another Unicode form passed")
        #expect(problem.contains("(no line differs as text: compare the files' bytes)"))
    }

    @Test func aMissingFileFailsAndIsNotWritten() throws {
        let snapshot = try temporarySnapshot(holding: nil)
        let problem = try #require(snapshot.check("a\n", updating: false))
        #expect(problem.hasPrefix("No snapshot \(snapshot.file.path) to compare with.") && problem.contains("UPDATE_SNAPSHOTS=1"))
        #expect(!FileManager.default.fileExists(atPath: snapshot.folder.path))
    }

    @Test func updatingRewritesTheFileAndStillFails() throws {
        let snapshot = try temporarySnapshot(holding: nil)
        defer { try? FileManager.default.removeItem(at: snapshot.folder) }
        let recorded = try #require(snapshot.check("a\n", updating: true))
        #expect(recorded.hasPrefix("Recorded the new snapshot \(snapshot.file.path)."))
        #expect(contents(of: snapshot) == "a\n")

        let updated = try #require(snapshot.check("b\n", updating: true))
        #expect(updated.hasPrefix("Updated \(snapshot.file.path) (- old, + new):\nfirst difference at line 1, column 1\n@@ -1,1 +1,1 @@\n-a\n+b\n"))
        #expect(contents(of: snapshot) == "b\n")
        #expect(snapshot.check("b\n", updating: false) == nil)
    }

    @Test func aMismatchIsReportedWhereTheAssertionStands() throws {
        let snapshot = try temporarySnapshot(holding: "a\n")
        defer { try? FileManager.default.removeItem(at: snapshot.folder) }
        var reported: [(String, SourceLocation)] = []
        let here = #_sourceLocation
        snapshot.assertMatches("b\n", updating: false, sourceLocation: here) { reported.append(($0, $1)) }
        #expect(reported.count == 1)
        #expect(reported.first?.0.contains("-a\n+b") == true)
        #expect(reported.first?.1 == here)
        snapshot.assertMatches("a\n", updating: false) { reported.append(($0, $1)) }
        #expect(reported.count == 1, "a match reports nothing")
    }

    @Test func committedSnapshotsAreNamedFromTheRepository() {
        #expect(Snapshot(name: "failing/report.md").label == "Tests/ReportsTests/Snapshots/failing/report.md")
        #expect(Snapshot.committedFolder.path.hasSuffix("/Tests/ReportsTests/Snapshots"))
    }

    @Test func distantChangesAreSeparateHunksWithThreeLinesOfContext() {
        let expected = (1...20).map { "l\($0)" }.joined(separator: "\n") + "\n"
        let actual = expected.replacingOccurrences(of: "l2\n", with: "L2\n").replacingOccurrences(of: "l18\n", with: "L18\n")
        #expect(SnapshotDiff(expected: expected, actual: actual).unified == """
            @@ -1,5 +1,5 @@
             l1
            -l2
            +L2
             l3
             l4
             l5
            @@ -15,6 +15,6 @@
             l15
             l16
             l17
            -l18
            +L18
             l19
             l20
            """)
    }

    @Test func nearbyChangesShareAHunk() {
        let expected = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
        let actual = "a\nB\nc\nd\ne\nf\ng\nh\nj\n"
        #expect(SnapshotDiff(expected: expected, actual: actual).unified == """
            @@ -1,10 +1,9 @@
             a
            -b
            +B
             c
             d
             e
             f
             g
             h
            -i
             j
            """)
    }

    @Test func aLongLineIsCutAroundItsFirstChange() {
        let before = String(repeating: "x", count: 300)
        let after = String(repeating: "y", count: 100)
        let diff = SnapshotDiff(expected: "head\n" + before + "A" + after + "\n", actual: "head\n" + before + "B" + after + "\n")
        let kept = String(repeating: "x", count: 60)
        let tail = String(repeating: "y", count: 99)
        #expect(diff.unified == "@@ -1,2 +1,2 @@\n head\n-…\(kept)A\(tail)…\n+…\(kept)B\(tail)…")
        #expect(diff.firstDifference?.line == 2 && diff.firstDifference?.column == 301)
    }

    @Test func aLongDiffIsCapped() {
        let expected = (0..<100).map { "e\($0)" }.joined(separator: "\n")
        let actual = (0..<100).map { "a\($0)" }.joined(separator: "\n")
        let lines = SnapshotDiff(expected: expected, actual: actual).unified.split(separator: "\n")
        #expect(lines.count == SnapshotDiff.lineLimit + 1)
        #expect(lines.last == "… 141 more lines of diff")
    }

    @Test func aDifferenceOnlyInTheFinalLineBreakIsNamed() {
        #expect(Snapshot.describe(expected: "a\n", actual: "a") == "(every line is the same: one text ends with a line break and the other does not)")
    }
}
