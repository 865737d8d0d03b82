import Foundation
import Intake
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

    /// A part of the file: bytes, or a fixture's text kept in another file.
    enum Part {
        case bytes([UInt8])
        case stored(StoredBytes)
    }

    /// Hands `write` the file's bytes, in order.
    static func stream(_ report: RunReport, batchSize: Int = batchSize, to write: ([UInt8]) throws -> Void) throws {
        try stream(report, batchSize: batchSize) { (part: Part) in
            switch part {
            case .bytes(let bytes): try write(bytes)
            case .stored(let stored): try write(Array(stored.read()))
            }
        }
    }

    /// Hands `write` the file's parts, in order: a fixture read back whole is its stored text.
    static func stream(_ report: RunReport, batchSize: Int = batchSize, to emit: (Part) throws -> Void) throws {
        func write(_ bytes: [UInt8]) throws { try emit(.bytes(bytes)) }
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
            let encoded = try batch.concurrentMap { fixture throws -> Part in
                try fixture.storedText.map { .stored($0.results) } ?? .bytes(fixture.canonicalJSON())
            }
            for (offset, part) in encoded.enumerated() {
                try write(Array((start + offset == 0 ? "\n" : ",\n").utf8))
                try emit(part)
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
            try stream(report) { (part: Part) in
                switch part {
                case .bytes(let bytes):
                    buffer.append(contentsOf: bytes)
                    if buffer.count >= 1 << 20 {
                        try handle.write(contentsOf: buffer)
                        buffer.removeAll(keepingCapacity: true)
                    }
                case .stored(let stored):
                    // Copied file to file in the kernel, after what is buffered.
                    try handle.write(contentsOf: buffer)
                    buffer.removeAll(keepingCapacity: true)
                    if !FileBytes.copy(
                        stored.file.path, offset: stored.offset, count: stored.count, ifStamped: stored.stamp, to: handle.fileDescriptor) {
                        // Says why; a copy that failed after the checks read again is a write error.
                        _ = try stored.read()
                        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
                    }
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
