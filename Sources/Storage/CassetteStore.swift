import Foundation
import Intake
import JSONSchema

/// The cassettes under `golden/`: one file per fixture step, read and written whole.
public struct CassetteStore: CassetteStorage, Sendable {
    public let folder: URL
    /// Files' digests remembered across runs, for `recordedIdentity(_:)`; nil reads every file.
    public let digests: FileDigests?

    public init(folder: URL, digests: FileDigests? = nil) {
        self.folder = folder
        self.digests = digests
    }

    public func url(_ key: StepKey) -> URL {
        URL(fileURLWithPath: path(key))
    }

    /// How a cassette's file name ends: `<step>.cassette.json`.
    public static let fileSuffix = ".cassette.json"

    /// The cassette's path as a string, which replay reads without building a URL.
    func path(_ key: StepKey) -> String {
        "\(folder.path)/\(key.fixture)/\(key.step)\(Self.fileSuffix)"
    }

    /// The cassette for one step, nil when none was recorded.
    public func cassette(_ key: StepKey) throws(CassetteError) -> Cassette? {
        try replayable(key)?.cassette()
    }

    /// The cassette for one step read for replay, nil when none was recorded.
    public func replayable(_ key: StepKey) throws(CassetteError) -> ReplayableCassette? {
        guard let data = recordedData(key) else { return nil }
        return try Self.replayable(data, for: key)
    }

    public func recordedData(_ key: StepKey) -> Data? {
        FileBytes.read(path(key))
    }

    public func recordedIdentity(_ key: StepKey) -> RecordedIdentity? {
        guard let digests else { return recordedData(key).flatMap(RecordedIdentity.init(ofCassette:)) }
        // Remembered as `digest source`: a digest is 64 hexadecimal digits.
        let value = digests.value(ofFile: path(key), kind: "cassette") { data in
            RecordedIdentity(ofCassette: data).map { "\($0.digest) \($0.source)" }
        }
        guard let value, value.utf8.count > 65 else { return nil }
        return RecordedIdentity(digest: String(value.prefix(64)), source: String(value.dropFirst(65)))
    }

    /// `provider model` of a cassette file. A cassette as written has its top-level
    /// members on lines of their own, two spaces in, after the long list of calls:
    /// they are read from its last few kilobytes, and any other layout is parsed whole.
    public static func source(ofCassette data: Data) -> String? {
        func member(_ name: String) -> String? {
            let prefix = Array("\n  \"\(name)\" : \"".utf8)
            return data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> String? in
                // The last occurrence in the last 4 KB, then the value up to its closing quote.
                var start = bytes.count - prefix.count
                let floor = max(0, bytes.count - 4096)
                while start >= floor, !prefix.withUnsafeBytes({ memcmp(bytes.baseAddress! + start, $0.baseAddress!, prefix.count) == 0 }) {
                    start -= 1
                }
                guard start >= floor else { return nil }
                let value = bytes[(start + prefix.count)...].prefix { $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "\n") }
                guard value.endIndex < bytes.count, bytes[value.endIndex] == UInt8(ascii: "\"") else { return nil }
                return String(decoding: value, as: UTF8.self)
            }
        }
        if let provider = member("provider"), let model = member("model") { return "\(provider) \(model)" }
        guard let json = try? JSONParser.parse(data), let provider = json["provider"]?.stringValue, let model = json["model"]?.stringValue else { return nil }
        return "\(provider) \(model)"
    }

    /// A cassette file's contents read for replay.
    static func replayable(_ data: Data, for key: StepKey) throws(CassetteError) -> ReplayableCassette {
        let file = "\(key.fixture)/\(key.step)\(fileSuffix)"
        do {
            return try ReplayableCassette(json: JSONParser.parse(data), file: file)
        } catch let error as CassetteError {
            throw error
        } catch {
            throw CassetteError.unreadable(path: file, reason: "\(error)")
        }
    }

    /// Every fixture step that has a cassette, sorted.
    public func entries() -> [StepKey] {
        let suffix = Self.fileSuffix
        let fixtures = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return fixtures.flatMap { fixture in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(fixture).path)) ?? [])
                .filter { $0.hasSuffix(suffix) }
                .map { StepKey(fixture: fixture, step: String($0.dropLast(suffix.count))) }
        }.sorted()
    }

    /// Writes a cassette atomically: a reader sees the old file or the new one, never half of one.
    public func write(_ cassette: Cassette) throws {
        let url = url(cassette.key)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Self.contents(of: cassette).write(to: url, options: .atomic)
    }

    /// A cassette's file as written: pretty-printed JSON with sorted keys and a final newline.
    static func contents(of cassette: Cassette) throws -> Data {
        var data = try encoder.encode(cassette)
        data.append(0x0A)
        return data
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

}

/// A cassette as replay reads it: the recorded answers by request key. The recorded
/// requests, most of the file, are decoded only when no answer matches, to explain why.
public struct ReplayableCassette: Sendable {
    public let provider: String
    public let model: String
    private let answers: [Answer]
    private let json: JSONValue
    private let file: String

    private struct Answers: Decodable {
        var provider: String
        var model: String
        var interactions: [Answer]
    }

    private struct Answer: Decodable, Sendable {
        var key: String
        var response: RecordedResponse
        /// Absent for repeat 1, as every recording made before repeats were recorded.
        var `repeat`: Int?

        var repeatNumber: Int { self.repeat ?? 1 }
    }

    init(json: JSONValue, file: String) throws(CassetteError) {
        let answers: Answers = try Self.decode(json, file: file)
        provider = answers.provider
        model = answers.model
        self.answers = answers.interactions
        self.json = json
        self.file = file
    }

    /// The recorded response of repeat `repeatNumber` to the request with this
    /// `RecordedRequest.key`, if any. Another repeat's answer never stands in for it.
    public func response(forKey key: String, repeatNumber: Int = 1) -> RecordedResponse? {
        answers.first { $0.key == key && $0.repeatNumber == repeatNumber }?.response
    }

    /// The repeats that recorded an answer to the request with this key, in order.
    public func repeatsAnswering(key: String) -> [Int] {
        Set(answers.filter { $0.key == key }.map(\.repeatNumber)).sorted()
    }

    /// The whole cassette, recorded requests included.
    public func cassette() throws(CassetteError) -> Cassette {
        try Self.decode(json, file: file)
    }

    private static func decode<T: Decodable>(_ json: JSONValue, file: String) throws(CassetteError) -> T {
        do {
            return try JSONValueDecoder().decode(T.self, from: json)
        } catch let error as DecodingError {
            throw CassetteError.unreadable(path: file, reason: error.location)
        } catch {
            throw CassetteError.unreadable(path: file, reason: "\(error)")
        }
    }
}

/// A cassette file that cannot be used.
public enum CassetteError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            let fixture = path.split(separator: "/").first.map(String.init) ?? "NAME"
            return "The cassette golden/\(path) cannot be read (\(reason)). Restore it with `git checkout -- golden/\(path)`, "
                + "or record it again with `\(Invocation.command) run --record --provider local --fixture \(fixture)`."
        }
    }
}
