import Foundation
import JSONSchema

/// The cassettes under `golden/`: one file per fixture step, read and written whole.
public struct CassetteStore: Sendable {
    public let folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    public func url(fixture: String, step: String) -> URL {
        URL(fileURLWithPath: path(fixture: fixture, step: step))
    }

    /// The cassette's path as a string, which replay reads without building a URL.
    func path(fixture: String, step: String) -> String {
        "\(folder.path)/\(fixture)/\(step).cassette.json"
    }

    /// The cassette for one step, nil when none was recorded.
    public func cassette(fixture: String, step: String) throws(CassetteError) -> Cassette? {
        guard let data = FileManager.default.contents(atPath: path(fixture: fixture, step: step)) else { return nil }
        do {
            return try JSONValueDecoder().decode(Cassette.self, from: data)
        } catch let error as DecodingError {
            throw CassetteError.unreadable(path: "\(fixture)/\(step).cassette.json", reason: error.location)
        } catch {
            throw CassetteError.unreadable(path: "\(fixture)/\(step).cassette.json", reason: "\(error)")
        }
    }

    /// Deletes one step's cassette, if any.
    public func remove(fixture: String, step: String) {
        try? FileManager.default.removeItem(at: url(fixture: fixture, step: step))
    }

    /// Every fixture step that has a cassette, sorted.
    public func entries() -> [StepKey] {
        let suffix = ".cassette.json"
        let fixtures = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return fixtures.flatMap { fixture in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(fixture).path)) ?? [])
                .filter { $0.hasSuffix(suffix) }
                .map { StepKey(fixture: fixture, step: String($0.dropLast(suffix.count))) }
        }.sorted()
    }

    /// Writes a cassette atomically: a reader sees the old file or the new one, never half of one.
    public func write(_ cassette: Cassette) throws {
        let url = url(fixture: cassette.fixture, step: cassette.step)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var data = try Self.encoder.encode(cassette)
        data.append(0x0A)
        try data.write(to: url, options: .atomic)
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

}

/// A cassette file that cannot be used.
public enum CassetteError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "The cassette golden/\(path) cannot be read (\(reason)). Re-record it with `trainer-eval run --record --fixture ...`."
        }
    }
}
