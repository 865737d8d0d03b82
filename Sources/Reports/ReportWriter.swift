import Foundation
import JSONSchema

/// Writes a run's report folder: `results.json`, `report.md`, `junit.xml` and
/// `index.html`, each atomically, then points `latest` beside it at the folder.
public struct ReportWriter: Sendable {
    /// The parent folder, normally `Reports/`.
    public let root: URL

    public init(root: URL) {
        self.root = root
    }

    public static let fileNames = ["results.json", "report.md", "junit.xml", "index.html"]

    /// Writes every file and returns the run's folder.
    @discardableResult
    public func write(_ report: RunReport, history: [PassRatePoint] = []) throws -> URL {
        let folder = root.appendingPathComponent(report.run.id, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // The four renderings are independent; a large run's take seconds each, so they run side by side.
        let renderers: [(name: String, render: @Sendable () throws -> [UInt8])] = [
            ("results.json", { try Self.encodedBytes(report) }),
            ("index.html", { Array(HTMLReport.render(report, history: history).utf8) }),
            ("report.md", { Array(MarkdownReport.render(report).utf8) }),
            ("junit.xml", { Array(JUnitReport.render(report).utf8) }),
        ]
        let failure = FirstFailure()
        DispatchQueue.concurrentPerform(iterations: renderers.count) { index in
            do {
                try Self.writeAtomically(renderers[index].render(), to: folder.appendingPathComponent(renderers[index].name))
            } catch {
                failure.keep(error)
            }
        }
        if let error = failure.error { throw error }
        let latest = root.appendingPathComponent("latest")
        try? FileManager.default.removeItem(at: latest)
        try? FileManager.default.createSymbolicLink(atPath: latest.path, withDestinationPath: folder.lastPathComponent)
        return folder
    }

    /// `results.json`: a large run's fixtures are encoded side by side and written in
    /// chunks on every core; the text is the same as one pass would write.
    public static func encode(_ report: RunReport) throws -> Data {
        Data(try encodedBytes(report))
    }

    static func encodedBytes(_ report: RunReport) throws -> [UInt8] {
        var summary = report
        summary.fixtures = []
        guard case .object(var object) = try JSONValueEncoder().encode(summary) else {
            preconditionFailure("a run report encodes as a JSON object")
        }
        let fixtures = try report.fixtures.concurrentMap { fixture throws in try JSONValueEncoder().encode(fixture) }
        object["fixtures"] = .array(fixtures)
        var options = JSONWriteOptions.prettySorted
        options.writesLongArraysInParallel = true
        return JSONValue.object(object).serializedBytes(options)
    }

    /// Writes without copying the bytes into a `Data` first: a large run's
    /// results are a hundred megabytes.
    private static func writeAtomically(_ bytes: [UInt8], to url: URL) throws {
        try bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return try Data().write(to: url, options: .atomic) }
            try Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: buffer.count, deallocator: .none)
                .write(to: url, options: .atomic)
        }
    }

    public static func decode(_ data: Data) throws -> RunReport {
        try JSONValueDecoder().decode(RunReport.self, from: data)
    }

    /// Deletes the oldest run folders so that at most `keeping` remain, never the one
    /// named `current`, and returns the names it removed. Only folders named like a
    /// run id are touched (`README.md`, `schema/` and anything else stay); the run
    /// history keeps every run's figures after its folder is gone.
    @discardableResult
    public func pruneRuns(keeping: Int, current: String) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path)
        let runs = names.filter { name in
            var isDirectory: ObjCBool = false
            return Self.isRunID(name)
                && FileManager.default.fileExists(atPath: root.appendingPathComponent(name).path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
        // Run ids sort by start time; the newest come first.
        let removed = runs.sorted(by: >).dropFirst(max(0, keeping)).filter { $0 != current }
        for name in removed {
            try FileManager.default.removeItem(at: root.appendingPathComponent(name, isDirectory: true))
        }
        return Array(removed)
    }

    /// `20261121-204501-replay` or `20261121-204501-local-2`.
    static func isRunID(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count > 16, bytes[8] == UInt8(ascii: "-"), bytes[15] == UInt8(ascii: "-") else { return false }
        let digits = bytes[0..<8] + bytes[9..<15]
        return digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            && bytes[16...].allSatisfy { $0 == UInt8(ascii: "-") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// A run id whose folder does not exist yet: `runID(startedAt:provider:)`, with
    /// `-2`, `-3`... appended when runs start within the same second.
    public func availableRunID(startedAt: Date, provider: String) -> String {
        let base = Self.runID(startedAt: startedAt, provider: provider)
        var candidate = base
        var counter = 1
        while FileManager.default.fileExists(atPath: root.appendingPathComponent(candidate).path) {
            counter += 1
            candidate = "\(base)-\(counter)"
        }
        return candidate
    }

    /// A sortable, filesystem-safe identifier such as `20261121-204501-replay`.
    public static func runID(startedAt: Date, provider: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return "\(formatter.string(from: startedAt))-\(provider)"
    }
}

/// The first error of work done in parallel.
private final class FirstFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var first: Error?

    func keep(_ error: Error) {
        lock.withLock { if first == nil { first = error } }
    }

    var error: Error? { lock.withLock { first } }
}
