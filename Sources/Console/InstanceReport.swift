import JSONSchema

/// The outcome of validating one instance document, as `trainer-eval validate`
/// reports it.
public struct InstanceReport: Sendable, Hashable {
    public let result: InstanceResult

    public init(_ result: InstanceResult) {
        self.result = result
    }

    /// `PATH: valid`, or `PATH: 2 errors` followed by indented `location: message` lines.
    public var text: String {
        let path = result.path
        switch result.outcome {
        case .validated(let result):
            guard !result.isValid else { return "\(path): valid" }
            let count = result.errors.count
            var lines = ["\(path): \(count) error\(count == 1 ? "" : "s")"]
            for error in result.errors { lines.append("  \(error)") }
            return lines.joined(separator: "\n")
        case .unparseable(let error):
            return "\(path): not valid JSON: \(error)"
        case .unreadable(let reason):
            return "\(path): cannot read: \(reason)"
        }
    }

    /// One line of JSON: `{"instance", "valid", "errors": [{"instanceLocation", "keywordLocation", "message"}]}`,
    /// plus `"error"` when the document could not be read or parsed.
    public var jsonLine: String {
        var members: [JSONObject.Member] = [
            .init(key: "instance", value: .string(result.path)),
            .init(key: "valid", value: .bool(result.isValid)),
        ]
        switch result.outcome {
        case .validated(let result):
            members.append(.init(key: "errors", value: .array(result.errors.map { error in
                .object(JSONObject([
                    .init(key: "instanceLocation", value: .string(error.instanceLocation.description)),
                    .init(key: "keywordLocation", value: .string(error.keywordLocation)),
                    .init(key: "message", value: .string(error.message)),
                ]))
            })))
        case .unparseable(let error):
            members.append(.init(key: "errors", value: .array([])))
            members.append(.init(key: "error", value: .string("not valid JSON: \(error)")))
        case .unreadable(let reason):
            members.append(.init(key: "errors", value: .array([])))
            members.append(.init(key: "error", value: .string("cannot read: \(reason)")))
        }
        return JSONValue.object(JSONObject(members)).serialized()
    }
}

/// How `trainer-eval validate` prints its reports.
public enum ValidationReportFormat: String, CaseIterable, Sendable {
    /// Readable lines: `PATH: valid` or `PATH: N errors` and one indented line per error.
    case text
    /// JSON Lines: one object per instance.
    case json
}

extension InstanceReport {
    /// The report in `format`, without a trailing newline.
    public func rendered(_ format: ValidationReportFormat) -> String {
        format == .text ? text : jsonLine
    }

    /// The exit status for a run: 0 when every instance is valid, 2 when any
    /// could not be read or parsed, otherwise 1.
    public static func exitStatus(_ reports: [InstanceReport]) -> Int32 {
        var summary = BatchSummary()
        for report in reports { summary.add(report.result.verdict) }
        return summary.exitStatus.rawValue
    }
}
