import Foundation
import Testing

@testable import Intake

/// A file rewritten in place holds exactly the new bytes, whatever it held before, and
/// keeps its inode: a large run rewrites thousands of these.
@Suite("Files rewritten in place")
struct FileBytesTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("file-bytes-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    @Test func aRewriteHoldsExactlyTheNewBytesWhetherTheOldWereLongerOrShorter() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("settled.json").path
        let first = try FileBytes.overwrite(path, with: [Array("{\"key\":\"one\"}\n".utf8), Array("a long text".utf8)])
        #expect(FileBytes.read(path) == Data("{\"key\":\"one\"}\na long text".utf8))
        #expect(first.size == 25)

        let shorter = try FileBytes.overwrite(path, with: [Array("{\"key\":\"two\"}\n".utf8), Array("short".utf8)])
        #expect(FileBytes.read(path) == Data("{\"key\":\"two\"}\nshort".utf8))
        #expect(shorter.size == 19)
        #expect(shorter.inode == first.inode)

        let longer = try FileBytes.overwrite(path, with: [Array("{\"key\":\"three\"}\n".utf8), Array("a longer text than any".utf8)])
        #expect(FileBytes.read(path) == Data("{\"key\":\"three\"}\na longer text than any".utf8))
        #expect(longer.size == 38)

        let empty = try FileBytes.overwrite(path, with: [])
        #expect(FileBytes.read(path) == Data())
        #expect(empty.size == 0)

        let single = try FileBytes.overwrite(path, with: [Array("x".utf8)])
        #expect(FileBytes.read(path) == Data("x".utf8))
        #expect(single.size == 1)
    }

    @Test func aFileInAFolderThatCannotBeWrittenIsAnError() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("missing-folder/settled.json").path
        #expect(throws: FileBytesError.self) { try FileBytes.overwrite(path, with: [Array("text".utf8)]) }
    }
}
