import Foundation
import JSONSchema

/// Scenario files as parsed on an earlier run, by the SHA-256 of their text: YAML is
/// the slowest part of loading a large corpus, and the same files load on every run.
/// Kept in one file (`.step-cache/scenarios.json`) with the `identity` of what parsed
/// them (the build): a different build starts afresh, since its parser may read a
/// file differently.
///
/// Only a parse is kept. A scenario read back is still checked against its schema
/// and decoded; one with a problem is parsed again, so its errors carry lines.
public final class ParsedScenarios: @unchecked Sendable {
    static let format = "parsed scenarios 1"

    let file: URL
    let identity: String
    private let lock = NSLock()
    private var stored: [String: JSONValue]
    private var used: [String: JSONValue] = [:]
    private var added = false

    /// Reads `file` when it holds parses by this `identity`; otherwise starts empty.
    public init(file: URL, identity: String) {
        self.file = file
        self.identity = identity
        stored = [:]
        guard let data = FileManager.default.contents(atPath: file.path), let value = try? JSONParser.parse(data),
              value["format"]?.stringValue == Self.format, value["identity"]?.stringValue == identity,
              let documents = value["documents"]?.objectValue
        else { return }
        for member in documents.members { stored[member.key] = member.value }
    }

    /// The digest a text is kept under.
    static func digest(of text: String) -> String {
        SHA256Digest.hex(of: text)
    }

    func value(forDigest digest: String) -> JSONValue? {
        lock.withLock {
            guard let value = stored[digest] else { return nil }
            used[digest] = value
            return value
        }
    }

    func keep(_ value: JSONValue, forDigest digest: String) {
        lock.withLock {
            used[digest] = value
            added = true
        }
    }

    /// Writes the file atomically when this run parsed something new or left parses
    /// unused: after a load of the whole corpus it holds that corpus's files alone; after
    /// a load of some, those added to what it held. Nothing is lost when it cannot be
    /// written: the next run parses again.
    func save(wholeCorpus: Bool) {
        let documents: [String: JSONValue] = lock.withLock {
            guard added || (wholeCorpus && used.count != stored.count) else { return [:] }
            return wholeCorpus ? used : stored.merging(used) { _, new in new }
        }
        guard !documents.isEmpty else { return }
        let members = documents.sorted { $0.key < $1.key }.map { JSONObject.Member(key: $0.key, value: $0.value) }
        let value = JSONValue.object(JSONObject([
            .init(key: "format", value: .string(Self.format)),
            .init(key: "identity", value: .string(identity)),
            .init(key: "documents", value: .object(JSONObject(members))),
        ]))
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(value.serializedBytes()).write(to: file, options: .atomic)
    }
}
