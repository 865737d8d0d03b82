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
                try fixture.storedText.map { Array(try $0.results.read()) } ?? fixture.canonicalJSON()
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

extension FixtureReport {
    /// The fixture's text in `results.json`: exactly what `JSONValueEncoder` and
    /// `JSONWriteOptions.canonical` give, written directly. A large run writes ten
    /// thousand of these, and building each as a `JSONValue` first took more time than
    /// writing it. Members go in key order; a nil optional is left out, as `Codable` does.
    public func canonicalJSON() throws -> [UInt8] {
        var writer = JSONStreamWriter(options: ResultsFile.options)
        try writer.object { fixture in
            fixture.member("intake", intake)
            fixture.member("name", name)
            fixture.key("steps")
            try fixture.array(steps) { writer, step in try step.write(to: &writer) }
        }
        return writer.bytes
    }
}

extension StepReport {
    fileprivate func write(to writer: inout JSONStreamWriter) throws {
        try writer.object { step in
            step.key("attempts")
            step.array(attempts) { writer, attempt in attempt.write(to: &writer) }
            step.key("checks")
            step.array(checks) { writer, check in check.write(to: &writer) }
            step.member("cost", cost)
            try step.member("diff", encoding: diff)
            try step.member("failure", encoding: failure)
            step.member("firstPassValid", firstPassValid)
            step.member("golden", golden)
            step.member("id", id)
            step.member("inputTokens", inputTokens)
            try step.member("interventions", encoding: interventions)
            step.member("latencySeconds", latencySeconds)
            step.member("note", note)
            step.member("outcome", outcome.rawValue)
            step.member("output", output)
            step.member("outputTokens", outputTokens)
            if let prompt {
                step.key("prompt")
                step.object { object in object.member("user", prompt.user) }
            }
            step.key("reasons")
            step.array(reasons) { writer, reason in writer.string(reason) }
            step.member("repaired", repaired)
            try step.member("repeats", encoding: repeats)
            step.member("status", status.rawValue)
            step.member("step", self.step?.rawValue)
        }
    }
}

extension AttemptReport {
    fileprivate func write(to writer: inout JSONStreamWriter) {
        writer.object { attempt in
            attempt.member("finishReason", finishReason)
            attempt.member("inputTokens", inputTokens)
            attempt.member("latencySeconds", latencySeconds)
            attempt.member("outputTokens", outputTokens)
            attempt.key("problems")
            attempt.array(problems) { writer, problem in writer.string(problem) }
            attempt.member("responseText", responseText)
            attempt.member("retries", retries)
        }
    }
}

extension CheckReport {
    fileprivate func write(to writer: inout JSONStreamWriter) {
        writer.object { check in
            check.member("message", message)
            check.member("name", name)
            check.member("passed", passed)
            check.member("passedInGolden", passedInGolden)
        }
    }
}
