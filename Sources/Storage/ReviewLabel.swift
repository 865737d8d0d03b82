import Foundation
import Intake
import JSONSchema

/// A reviewer's verdict on one output: signed (fit to show the person as it is) or
/// rejected, with the reasons, tied to the exact output judged by its SHA-256.
///
/// Kept beside the step's golden files as `<step>.review.json`. A label whose output
/// has changed since is stale: shown as such and never counted.
public struct ReviewLabel: Sendable, Hashable {
    public enum Verdict: String, Sendable, Hashable, CaseIterable {
        case sign, reject
    }

    public var verdict: Verdict
    /// Ids from the reason vocabulary (`prompts/coaching/review-reasons.yaml`); empty for a sign.
    public var reasons: [String]
    public var note: String?
    public var reviewer: String
    /// The day it was given, `YYYY-MM-DD`.
    public var date: String
    /// The SHA-256 of the output judged, as `GoldenEntry.outputDigest` gives it.
    public var outputDigest: String

    public init(verdict: Verdict, reasons: [String], note: String?, reviewer: String, date: String, outputDigest: String) {
        self.verdict = verdict
        self.reasons = reasons
        self.note = note
        self.reviewer = reviewer
        self.date = date
        self.outputDigest = outputDigest
    }

    /// The file's name suffix beside the step's golden files.
    public static let fileSuffix = ".review.json"

    /// The label as its file holds it: pretty, sorted keys, a newline at the end.
    public var fileText: String {
        var members: [JSONObject.Member] = [
            .init(key: "verdict", value: .string(verdict.rawValue)),
            .init(key: "reasons", value: .array(reasons.map(JSONValue.string))),
            .init(key: "reviewer", value: .string(reviewer)),
            .init(key: "date", value: .string(date)),
            .init(key: "output_sha256", value: .string(outputDigest)),
        ]
        if let note, !note.isEmpty { members.append(.init(key: "note", value: .string(note))) }
        return JSONValue.object(JSONObject(members)).serialized(.prettySorted) + "\n"
    }

    /// Reads a label file's text; `path` names the file in the error.
    public init(fileText data: Data, path: String) throws(GoldenError) {
        func broken(_ field: String, expected: String, got: String) -> GoldenError {
            .unreadable(path: path, reason: "\(field): expected \(expected), got \(got)")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(data)
        } catch {
            throw GoldenError.unreadable(path: path, reason: "\(error)")
        }
        guard case .object(let object) = value else {
            throw broken("the file", expected: "an object", got: value.typeName)
        }
        func string(_ key: String, optional: Bool = false) throws(GoldenError) -> String? {
            guard let member = object[key] else {
                if optional { return nil }
                throw broken("/\(key)", expected: "a string", got: "nothing (the member is missing)")
            }
            guard let text = member.stringValue else { throw broken("/\(key)", expected: "a string", got: member.typeName) }
            return text
        }
        let verdictText = try string("verdict") ?? ""
        guard let verdict = Verdict(rawValue: verdictText) else {
            throw broken("/verdict", expected: "\"sign\" or \"reject\"", got: "\"\(verdictText)\"")
        }
        var reasons: [String] = []
        if let member = object["reasons"] {
            guard let items = member.arrayValue else { throw broken("/reasons", expected: "an array of reason ids", got: member.typeName) }
            for (index, item) in items.enumerated() {
                guard let reason = item.stringValue else { throw broken("/reasons/\(index)", expected: "a reason id", got: item.typeName) }
                reasons.append(reason)
            }
        }
        let digest = try string("output_sha256") ?? ""
        guard digest.count == 64, digest.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
            throw broken("/output_sha256", expected: "64 lower-case hex digits", got: "\"\(digest)\"")
        }
        self.init(
            verdict: verdict, reasons: reasons, note: try string("note", optional: true), reviewer: try string("reviewer") ?? "",
            date: try string("date") ?? "", outputDigest: digest)
    }
}

extension GoldenEntry {
    /// The SHA-256 of the output's canonical JSON (sorted keys, the program's markdown
    /// included): what a review label is tied to.
    public var outputDigest: String {
        SHA256Digest.hex(of: output.serializedBytes(.canonical))
    }
}
