import JSONSchema

/// The outcome of one deterministic check on one step's output.
public struct CheckResult: Codable, Hashable, Sendable {
    /// A stable name such as `program.days-per-week` or `assertion.not-contains`.
    public var name: String
    public var passed: Bool
    /// What was checked and, on failure, the offending text.
    public var message: String

    public init(name: String, passed: Bool, message: String) {
        self.name = name
        self.passed = passed
        self.message = message
    }

    static func pass(_ name: String, _ message: String) -> CheckResult {
        CheckResult(name: name, passed: true, message: message)
    }

    static func fail(_ name: String, _ message: String) -> CheckResult {
        CheckResult(name: name, passed: false, message: message)
    }
}

extension CheckResult: JSONValueReadable {
    /// The members `Decodable` reads; a large run reads hundreds of thousands of these back.
    public init?(json: JSONValue) {
        guard let name = json["name"]?.stringValue, let passed = json["passed"]?.boolValue, let message = json["message"]?.stringValue
        else { return nil }
        self.init(name: name, passed: passed, message: message)
    }
}
