import Foundation
import JSONSchema

/// One fixture: an intake record and the scenario that drives it through the pipeline.
public struct Fixture: Sendable, Hashable {
    /// The record's file name without `.json`; what every `--fixture` option takes.
    public let name: String
    public let record: LocalIntakeData
    /// The record exactly as parsed, for rendering and hashing.
    public let recordJSON: JSONValue
    public let scenario: Scenario
    public let recordURL: URL
    public let scenarioURL: URL
    /// The SHA-256 of the two files' bytes as they were loaded; nil for a fixture that
    /// was not loaded from its files (those are then read when a digest is needed).
    public let sourceDigests: SourceDigests?

    public struct SourceDigests: Sendable, Hashable {
        public var record: String
        public var scenario: String
    }

    public init(
        name: String, record: LocalIntakeData, recordJSON: JSONValue, scenario: Scenario, recordURL: URL, scenarioURL: URL,
        sourceDigests: SourceDigests? = nil
    ) {
        self.name = name
        self.record = record
        self.recordJSON = recordJSON
        self.scenario = scenario
        self.recordURL = recordURL
        self.scenarioURL = scenarioURL
        self.sourceDigests = sourceDigests
    }
}

/// A fixture that cannot be used.
public enum FixtureError: Error, Equatable, CustomStringConvertible {
    case notFound(name: String, suggestion: String?, folder: String)
    case invalid(name: String, problems: [FixtureProblem])
    /// No fixture's scenario carries `tag`; `known` is every tag some fixture has.
    case unknownTag(String, suggestion: String?, known: [String])

    public var description: String {
        switch self {
        case .notFound(let name, let suggestion, let folder):
            let hint = suggestion.map { " Did you mean `\($0)`?" } ?? " Run `\(Invocation.command) fixtures list` to see them."
            return "No fixture named `\(name)` in \(folder)/.\(hint)"
        case .invalid(let name, let problems):
            let lines = problems.map { "  \($0)" }.joined(separator: "\n")
            return "Fixture `\(name)` is invalid (\(problems.count) problem\(problems.count == 1 ? "" : "s")); run `\(Invocation.command) fixtures check` for details:\n\(lines)"
        case .unknownTag(let tag, let suggestion, let known):
            let hint = suggestion.map { " Did you mean `\($0)`?" } ?? ""
            return "No fixture has the tag `\(tag)`.\(hint) Tags: \(known.joined(separator: ", "))."
        }
    }
}
