import Foundation
import JSONSchema

/// `results.json`, written a batch of fixtures at a time: each batch is encoded side by
/// side on every core, written, and let go before the next, so a run of ten thousand
/// steps never holds its whole report as JSON at once.
///
/// The text is compact, with sorted keys, and each fixture on a line of its own: a
/// tool reads it the same, `grep` finds a fixture's line, and a large run writes and
/// reads about a quarter fewer bytes than indented text (which `jq .` gives back).
enum ResultsFile {
    static let options = JSONWriteOptions.canonical

    /// Fixtures encoded at once: enough to keep every core busy.
    static var batchSize: Int { max(8, ProcessInfo.processInfo.activeProcessorCount * 8) }

    /// Hands `write` the file's bytes, in order.
    static func stream(_ report: RunReport, batchSize: Int = batchSize, to write: ([UInt8]) throws -> Void) throws {
        var summary = report
        summary.fixtures = []
        let head = try JSONValueEncoder().encode(summary).serializedBytes(options)
        // Keys are sorted, so `fixtures` is the document's first member: its empty array
        // is where the fixtures go, one per line.
        guard !report.fixtures.isEmpty, let empty = head.firstRange(of: Array(#""fixtures":[]"#.utf8)) else {
            return try write(head + Array("\n".utf8))
        }
        let opening = empty.upperBound - 1
        try write(Array(head[..<opening]))
        var start = 0
        while start < report.fixtures.count {
            let batch = Array(report.fixtures[start..<min(start + batchSize, report.fixtures.count)])
            let encoded = try batch.concurrentMap { fixture throws in
                try JSONValueEncoder().encode(fixture).serializedBytes(options)
            }
            for (offset, bytes) in encoded.enumerated() {
                try write(Array((start + offset == 0 ? "\n" : ",\n").utf8))
                try write(bytes)
            }
            start += batch.count
        }
        try write(Array("\n".utf8) + head[opening...] + Array("\n".utf8))
    }

    /// Streams the file into a temporary one beside `url`, then renames it over `url`: a
    /// reader sees the old file or the new one, never half of one.
    static func write(_ report: RunReport, to url: URL) throws {
        let partial = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: partial.path])
        }
        do {
            let handle = try FileHandle(forWritingTo: partial)
            defer { try? handle.close() }
            var buffer: [UInt8] = []
            buffer.reserveCapacity(1 << 20)
            try stream(report) { bytes in
                buffer.append(contentsOf: bytes)
                if buffer.count >= 1 << 20 {
                    try handle.write(contentsOf: buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            try handle.write(contentsOf: buffer)
            try handle.synchronize()
            if rename(partial.path, url.path) != 0 {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path, NSLocalizedDescriptionKey: String(cString: strerror(errno))])
            }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
    }
}
