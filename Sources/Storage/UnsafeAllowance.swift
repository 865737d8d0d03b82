import Foundation
import JSONSchema

/// A reviewer's reason to approve an output that fails safety checks, kept beside
/// its golden files as `<step>.allowed-unsafe.json`, tied to the output by its SHA-256:
/// once the output changes, the allowance no longer covers it.
public struct UnsafeAllowance: Sendable, Hashable {
    /// The safety checks it allows the output to fail.
    public var checks: [String]
    public var reason: String
    /// Who allowed it, and on which day (`YYYY-MM-DD`).
    public var reviewer: String
    public var date: String
    public var outputDigest: String

    public init(checks: [String], reason: String, reviewer: String, date: String, outputDigest: String) {
        (self.checks, self.reason, self.reviewer, self.date, self.outputDigest) = (checks, reason, reviewer, date, outputDigest)
    }

    public static let fileSuffix = ".allowed-unsafe.json"

    /// Whether it covers `entry` failing `failures`: the same output, and every one of them allowed.
    public func covers(_ entry: GoldenEntry, failing failures: [String]) -> Bool {
        entry.outputDigest == outputDigest && Set(failures).isSubset(of: checks)
    }

    public var fileText: String {
        JSONValue.object(JSONObject([
            .init(key: "checks", value: .array(checks.map(JSONValue.string))),
            .init(key: "reason", value: .string(reason)),
            .init(key: "reviewer", value: .string(reviewer)),
            .init(key: "date", value: .string(date)),
            .init(key: "output_sha256", value: .string(outputDigest)),
        ])).serialized(.prettySorted) + "\n"
    }

    /// Reads an allowance file's text; `path` names the file in the error.
    public init(fileText data: Data, path: String) throws(GoldenError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(data)
        } catch {
            throw GoldenError.unreadable(path: path, reason: "\(error)")
        }
        func field(_ key: String) throws(GoldenError) -> String {
            guard let text = value[key]?.stringValue, !text.isEmpty else {
                throw GoldenError.unreadable(path: path, reason: "/\(key): expected a non-empty string, got \(value[key]?.typeName ?? "nothing")")
            }
            return text
        }
        guard let checks = value["checks"]?.arrayValue?.compactMap(\.stringValue), !checks.isEmpty else {
            throw GoldenError.unreadable(path: path, reason: "/checks: expected the names of the safety checks allowed to fail")
        }
        self.init(
            checks: checks, reason: try field("reason"), reviewer: try field("reviewer"), date: try field("date"),
            outputDigest: try field("output_sha256"))
    }
}
