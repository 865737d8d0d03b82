import Foundation
import JSONSchema

/// Everything a run produced, as written to `results.json`.
public struct RunRecord: Codable, Sendable {
    public var runID: String
    public var startedAt: Date
    public var durationSeconds: Double
    public var provider: String
    public var model: String
    /// Each step's prompt version, e.g. `goal-options: 1`.
    public var promptVersions: [String: Int]
    public var warnings: [String]
    public var fixtures: [FixtureResult]

    public init(
        runID: String, startedAt: Date, durationSeconds: Double, provider: String, model: String,
        promptVersions: [String: Int], warnings: [String], fixtures: [FixtureResult]
    ) {
        self.runID = runID
        self.startedAt = startedAt
        self.durationSeconds = durationSeconds
        self.provider = provider
        self.model = model
        self.promptVersions = promptVersions
        self.warnings = warnings
        self.fixtures = fixtures
    }

    /// A sortable, filesystem-safe identifier such as `20261121-204501-local`.
    public static func makeID(startedAt: Date, provider: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return "\(formatter.string(from: startedAt))-\(provider)"
    }

    /// Writes `results.json` into `folder` (created if needed) atomically, and points
    /// `latest` beside it at the folder.
    public func write(to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(self).write(to: folder.appendingPathComponent("results.json"), options: .atomic)
        let latest = folder.deletingLastPathComponent().appendingPathComponent("latest")
        try? FileManager.default.removeItem(at: latest)
        try? FileManager.default.createSymbolicLink(atPath: latest.path, withDestinationPath: folder.lastPathComponent)
    }
}
