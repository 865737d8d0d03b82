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
        // The four renderings are independent; a large run's take seconds each, so they run
        // side by side. `results.json`, the largest, spreads its own batches over every core:
        // started inside another parallel loop it would get one thread.
        let writers: [(name: String, write: @Sendable (URL) throws -> Void)] = [
            ("index.html", { try Self.writeAtomically(HTMLReport.render(report, history: history), to: $0) }),
            ("report.md", { try Self.writeAtomically(MarkdownReport.render(report), to: $0) }),
            ("junit.xml", { try Self.writeAtomically(JUnitReport.render(report), to: $0) }),
        ]
        let failure = FirstFailure()
        let others = DispatchGroup()
        for writer in writers {
            DispatchQueue.global(qos: .userInitiated).async(group: others) {
                do {
                    try writer.write(folder.appendingPathComponent(writer.name))
                } catch {
                    failure.keep(error)
                }
            }
        }
        do {
            try ResultsFile.write(report, to: folder.appendingPathComponent("results.json"))
        } catch {
            failure.keep(error)
        }
        others.wait()
        if let error = failure.error { throw error }
        let latest = root.appendingPathComponent("latest")
        try? FileManager.default.removeItem(at: latest)
        try? FileManager.default.createSymbolicLink(atPath: latest.path, withDestinationPath: folder.lastPathComponent)
        return folder
    }

    /// `results.json`'s text, as `write` streams it to the file.
    public static func encode(_ report: RunReport) throws -> Data {
        var data = Data()
        try ResultsFile.stream(report) { data.append(contentsOf: $0) }
        return data
    }

    /// Writes the text's own UTF-8 without copying it first: a large run's HTML
    /// report is tens of megabytes.
    private static func writeAtomically(_ text: String, to url: URL) throws {
        var text = text
        try text.withUTF8 { buffer in
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
