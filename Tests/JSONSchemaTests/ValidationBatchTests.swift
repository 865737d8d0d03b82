import Foundation
import JSONSchema
import Testing

/// The batch engine on real files in a temporary folder, with lines of the test's own making.
@Suite struct ValidationBatchTests {
    /// A temporary folder holding `files` (name to text).
    static func folder(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return folder
    }

    /// `PATH verdict`, the path relative to the temporary folder.
    static func line(_ result: InstanceResult) -> String {
        "\(URL(fileURLWithPath: result.path).lastPathComponent) \(result.verdict)"
    }

    @Test func linesComeInInputOrderAChunkAtATimeAndAreCounted() throws {
        let folder = try Self.folder(["a.json": "1", "b.json": "\"x\"", "c.json": "[", "d.json": "2"])
        defer { try? FileManager.default.removeItem(at: folder) }
        var batch = ValidationBatch(schema: try Schema(jsonText: #"{"type": "integer"}"#))
        batch.chunkSize = 2
        let paths = ["d.json", "c.json", "missing.json", "b.json", "a.json"].map { folder.appendingPathComponent($0).path }
        var writes: [String] = []
        let summary = batch.run(paths, line: Self.line) { writes.append($0) }
        #expect(writes == [
            "d.json valid\nc.json badInput\n",
            "missing.json badInput\nb.json invalid\n",
            "a.json valid\n",
        ])
        #expect(summary.valid == 2)
        #expect(summary.invalid == 1)
        #expect(summary.badInput == 2)
        #expect(summary.total == 5)
    }

    @Test func aResultSaysWhyADocumentWasNotValidated() throws {
        let schema = try Schema(jsonText: #"{"type": "integer"}"#)
        let missing = InstanceResult(path: "/nonexistent/missing.json", schema: schema)
        #expect(missing.outcome == .unreadable("no such file"))
        #expect(missing.isBadInput && !missing.isValid)
        let broken = InstanceResult(path: "b", bytes: Array("[".utf8), schema: schema)
        guard case .unparseable = broken.outcome else {
            Issue.record("expected a parse error, got \(broken.outcome)")
            return
        }
        let invalid = InstanceResult(path: "c", bytes: Array("\"x\"".utf8), schema: schema)
        #expect(invalid.verdict == .invalid && !invalid.isBadInput)
    }

    @Test func anUnusableSchemaFileIsNamed() throws {
        let folder = try Self.folder(["bad.json": #"{"type": "strin"}"#, "broken.json": "{"])
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["bad.json", "broken.json", "missing.json"] {
            let path = folder.appendingPathComponent(name).path
            #expect(throws: SchemaFileError.self) { try ValidationBatch(schemaFile: path) }
        }
    }
}
