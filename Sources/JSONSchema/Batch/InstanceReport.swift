/// The outcome of validating one instance document, as `trainer-eval validate`
/// reports it.
public struct InstanceReport: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        /// The document parsed and was validated.
        case validated(ValidationResult)
        /// The document is not valid JSON.
        case unparseable(JSONParseError)
        /// The file could not be read.
        case unreadable(String)
    }

    /// The path exactly as given (`-` for standard input).
    public let path: String
    public let outcome: Outcome

    public init(path: String, outcome: Outcome) {
        self.path = path
        self.outcome = outcome
    }

    /// Validates the document in `bytes` (strict JSON) against `schema`.
    public init(path: String, bytes: [UInt8], schema: Schema) {
        self.path = path
        do {
            let instance = try JSONParser.parse(bytes)
            // The fast check first: most documents are valid and need no messages.
            outcome = .validated(schema.isValid(instance) ? ValidationResult(errors: []) : schema.validate(instance))
        } catch let error as JSONParseError {
            outcome = .unparseable(error)
        } catch {
            outcome = .unreadable("\(error)")
        }
    }

    /// Reads the file at `path` and validates it against `schema`; a file that
    /// cannot be read is reported as such.
    public init(path: String, schema: Schema) {
        do {
            self.init(path: path, bytes: try FileContents.bytes(of: path), schema: schema)
        } catch {
            self.init(path: path, outcome: .unreadable(error.reason))
        }
    }

    /// Valid, invalid, or not readable or parsable: what the exit status is made of.
    public enum Verdict: Sendable, Hashable {
        case valid, invalid, badInput
    }

    public var verdict: Verdict {
        switch outcome {
        case .validated(let result): return result.isValid ? .valid : .invalid
        case .unparseable, .unreadable: return .badInput
        }
    }

    public var isValid: Bool {
        if case .validated(let result) = outcome { return result.isValid }
        return false
    }

    /// True when the document could not be read or parsed (exit status 2).
    public var isBadInput: Bool {
        if case .validated = outcome { return false }
        return true
    }

    /// `PATH: valid`, or `PATH: 2 errors` followed by indented `location: message` lines.
    public var text: String {
        switch outcome {
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
            .init(key: "instance", value: .string(path)),
            .init(key: "valid", value: .bool(isValid)),
        ]
        switch outcome {
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
        for report in reports { summary.add(report.verdict) }
        return summary.exitStatus
    }
}
