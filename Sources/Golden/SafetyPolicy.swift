import Foundation
import Intake
import JSONSchema
import Storage

/// Which checks guard the person's safety (`prompts/coaching/check-severity.yaml`):
/// an output that fails one is never approved without a reason a reviewer gives.
public struct SafetyPolicy: Sendable, Hashable {
    public struct Rule: Sendable, Hashable {
        /// A check's name; it covers the check and each of its items (`name[item]`).
        public var check: String
        /// What failing it means for the person, in a few words.
        public var why: String

        public init(check: String, why: String) {
            self.check = check
            self.why = why
        }

        public func covers(_ name: String) -> Bool {
            name == check || (name.hasPrefix(check + "[") && name.hasSuffix("]"))
        }
    }

    public var rules: [Rule]

    public init(rules: [Rule]) {
        self.rules = rules
    }

    /// No check is about safety.
    public static let none = SafetyPolicy(rules: [])

    public static func file(in layout: ProjectLayout) -> URL {
        layout.prompts.appendingPathComponent("coaching/check-severity.yaml")
    }

    /// The project's policy; without the file, no check is about safety. A broken file
    /// is an error naming the file, the line and the field.
    public static func load(layout: ProjectLayout) throws(SafetyPolicyError) -> SafetyPolicy {
        let file = file(in: layout)
        let display = layout.displayPath(of: file)
        guard let data = FileManager.default.contents(atPath: file.path) else { return .none }
        let document: YAMLDocument
        do {
            document = try YAMLDocument(text: String(decoding: data, as: UTF8.self))
        } catch {
            throw SafetyPolicyError(path: display, problem: error.description)
        }
        func problem(_ pointer: String, _ text: String) -> SafetyPolicyError {
            SafetyPolicyError(path: display, problem: document.problem(at: pointer, text))
        }
        guard let entries = document.value["safety"]?.arrayValue else {
            throw problem("/safety", "expected a list of checks, got \(document.value["safety"]?.typeName ?? "nothing")")
        }
        var rules: [Rule] = []
        for (index, entry) in entries.enumerated() {
            guard let check = entry["check"]?.stringValue, !check.isEmpty else { throw problem("/safety/\(index)/check", "expected a check's name") }
            guard let why = entry["why"]?.stringValue, !why.isEmpty else { throw problem("/safety/\(index)/why", "expected what failing it means") }
            rules.append(Rule(check: check, why: why))
        }
        return SafetyPolicy(rules: rules)
    }

    /// The rule that makes `check` a safety check; nil for a quality check.
    public func rule(for check: String) -> Rule? {
        rules.first { $0.covers(check) }
    }

    /// The safety checks `entry` fails, sorted.
    public func failures(of entry: GoldenEntry) -> [String] {
        entry.checks.filter { !$0.value && rule(for: $0.key) != nil }.map(\.key).sorted()
    }
}

/// The safety policy file cannot be used.
public struct SafetyPolicyError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var problem: String

    public var description: String { "The safety policy \(path) cannot be used: \(problem)." }
}
