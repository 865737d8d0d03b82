import Foundation
import Testing

@testable import Intake

/// Values worked out from files are remembered across runs by the files' stamps, and
/// worked out again as soon as a file changes.
@Suite("File digests remembered across runs")
struct FileDigestsTests {
    let folder: URL
    let memo: URL
    let file: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("file-digests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        memo = folder.appendingPathComponent("file-digests.tsv")
        file = folder.appendingPathComponent("golden.json")
    }

    /// Counts how often the bytes were read.
    final class Reads: @unchecked Sendable {
        var count = 0
        func digest(_ data: Data) -> String? {
            count += 1
            return SHA256Digest.hex(of: data)
        }
    }

    @Test func aValueIsRememberedUntilItsFileChangesInPlaceAtTheSameSize() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("one".utf8).write(to: file)
        let reads = Reads()
        // No settling: the test writes its files moments before reading them.
        let first = FileDigests(file: memo, settling: 0)
        #expect(first.value(ofFile: file.path, kind: "sha256", derive: reads.digest) == SHA256Digest.hex(of: "one"))
        first.save()

        let second = FileDigests(file: memo, settling: 0)
        #expect(second.value(ofFile: file.path, kind: "sha256", derive: reads.digest) == SHA256Digest.hex(of: "one"))
        #expect(reads.count == 1, "the next run takes the value remembered")
        #expect(second.value(ofFile: file.path, kind: "other", derive: { _ in "x" }) == "x", "each kind of value is its own")

        // Rewritten in place, same size: the stamp's times tell the versions apart.
        Thread.sleep(forTimeInterval: 0.02)
        let handle = try FileHandle(forWritingTo: file)
        try handle.write(contentsOf: Data("two".utf8))
        try handle.close()
        #expect(second.value(ofFile: file.path, kind: "sha256", derive: reads.digest) == SHA256Digest.hex(of: "two"))
        #expect(reads.count == 2)
    }

    @Test func aFileChangedMomentsAgoIsReadEveryTime() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("fresh".utf8).write(to: file)
        let reads = Reads()
        // A file counts as changed moments ago for an hour here, however slowly a busy
        // machine runs the test.
        let anHour: Int64 = 3_600_000_000_000
        let first = FileDigests(file: memo, settling: anHour)
        _ = first.value(ofFile: file.path, kind: "sha256", derive: reads.digest)
        first.save()
        #expect(!FileManager.default.fileExists(atPath: memo.path), "nothing settled to remember")
        _ = FileDigests(file: memo, settling: anHour).value(ofFile: file.path, kind: "sha256", derive: reads.digest)
        #expect(reads.count == 2)
    }

    @Test func aMissingFileHasNoValueAndAGoneFileIsForgotten() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let other = folder.appendingPathComponent("other.json")
        try Data("kept".utf8).write(to: file)
        try Data("gone".utf8).write(to: other)
        let first = FileDigests(file: memo, settling: 0)
        for path in [file.path, other.path] { _ = first.value(ofFile: path, kind: "sha256") { SHA256Digest.hex(of: $0) } }
        first.save()
        try FileManager.default.removeItem(at: other)

        let second = FileDigests(file: memo, settling: 0)
        #expect(second.value(ofFile: other.path, kind: "sha256") { SHA256Digest.hex(of: $0) } == nil)
        let third = folder.appendingPathComponent("third.json")
        try Data("new".utf8).write(to: third)
        _ = second.value(ofFile: third.path, kind: "sha256") { SHA256Digest.hex(of: $0) }
        second.save()
        let text = try String(contentsOf: memo, encoding: .utf8)
        #expect(text.contains(file.path) && text.contains(third.path))
        #expect(!text.contains(other.path), "a file that is gone is dropped when the memo is written again")
    }

    @Test func linesThatDoNotReadAreSkipped() {
        let text = """
            file digests 1
            sha256\t/a\t3\t7\t100\t200\tabc
            sha256\t/b\tthree\t7\t100\t200\tabc
            sha256\t/c\t3\t7\t99999999999999999999\t200\tabc
            sha256\t/d\t3\t7
            cassette\t/e\t10\t8\t1795813556539327194\t1795813556539327195\tdigest openai qwen

            """
        let entries = FileDigests.entries(in: Data(text.utf8))
        #expect(entries.keys.sorted() == ["cassette\t/e", "sha256\t/a"])
        #expect(entries["sha256\t/a"] == .init(stamp: FileStamp(size: 3, inode: 7, modified: 100, changed: 200), value: "abc"))
        #expect(entries["cassette\t/e"]?.value == "digest openai qwen")
        #expect(FileDigests.entries(in: Data("file digests 0\nsha256\t/a\t3\t7\t100\t200\tabc\n".utf8)).isEmpty, "another format starts afresh")
    }
}
