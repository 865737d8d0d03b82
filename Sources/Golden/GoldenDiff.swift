import Diff
import Intake
import JSONSchema
import Storage

/// How a pending output differs from its golden one: the JSON structurally, the
/// markdown line by line, and the check results.
public struct GoldenDiff: Sendable {
    /// False when no golden output is approved yet.
    public let hasGolden: Bool
    /// The structural diff of the JSON; nil when unchanged or there is no golden.
    public let json: JSONDiff?
    /// The program markdown's line diff; nil when unchanged or there is no golden.
    public let markdown: LineDiff?
    /// Check name → (golden, pending) for checks whose result changed.
    public let checks: [(name: String, approved: Bool?, pending: Bool)]
    /// What each check that fails now found, when the pending output kept it.
    public let failureMessages: [String: String]
    /// A new output (no golden yet) itself, so a reviewer sees what they would approve.
    public let newOutput: JSONValue?
    /// For a variant's new output: how it differs from the base's approved output of
    /// the same fixture and step; nil when the base has none.
    public let againstBase: (json: JSONDiff?, markdown: LineDiff?)?

    /// `baseApproved` is the base's approved output, for a variant's output that has no golden of its own.
    public init(approved: GoldenEntry?, pending: GoldenEntry, options: JSONDiff.Options = .init(), baseApproved: GoldenEntry? = nil) {
        hasGolden = approved != nil
        failureMessages = pending.failureMessages
        (json, markdown) = approved.map { GoldenComparison.diffs(from: $0.output, to: pending.output, options: options) } ?? (nil, nil)
        newOutput = approved == nil ? pending.output : nil
        againstBase = approved == nil ? baseApproved.map { GoldenComparison.diffs(from: $0.output, to: pending.output, options: options) } : nil
        checks = pending.checks.sorted { $0.key < $1.key }.compactMap { name, passed in
            approved?.checks[name] == passed ? nil : (name, approved?.checks[name], passed)
        }
    }

    /// Checks that passed in golden and fail in the pending output: accepting it turns
    /// them into known failures.
    public var newlyFailing: [String] {
        checks.filter { check in
            // A reply that became unusable where golden had an output is the worst regression.
            !check.pending && (check.approved == true || (hasGolden && check.approved == nil && check.name == GoldenComparison.usableOutputCheck))
        }.map(\.name)
    }

    /// `3 JSON changes, markdown +4 −2, 1 check now failing`
    public var summary: String {
        let failing = checks.filter { !$0.pending }.count, passing = checks.count - failing
        guard hasGolden else {
            return "no golden output yet" + (failing > 0 ? ", \(failing) check\(failing == 1 ? "" : "s") failing" : "")
        }
        var parts: [String] = []
        if let json { parts.append("\(json.changes.count) JSON change\(json.changes.count == 1 ? "" : "s")") }
        if let markdown { parts.append("markdown +\(markdown.addedCount) −\(markdown.removedCount)") }
        if failing > 0 { parts.append("\(failing) check\(failing == 1 ? "" : "s") now failing") }
        if passing > 0 { parts.append("\(passing) check\(passing == 1 ? "" : "s") now passing") }
        return parts.isEmpty ? "no difference" : parts.joined(separator: ", ")
    }

    /// The diffs for a terminal, every line prefixed with `indent`.
    /// Without `includingChecks`, only the output's changes (a review lists the checks itself).
    public func rendered(color: Bool, indent: String = "", includingChecks: Bool = true) -> String {
        var blocks: [String] = []
        if let newOutput { blocks += Self.rendered(newOutput) }
        if let againstBase {
            let changes = (againstBase.json?.rendered(color: color)).map { [$0] } ?? []
            let lines = (againstBase.markdown?.unified(oldName: "base markdown", newName: "pending markdown", color: color)).map { [$0] } ?? []
            blocks.append("against the base's approved output:" + (changes.isEmpty && lines.isEmpty ? " the same" : ""))
            blocks += changes + lines
        }
        if let json { blocks.append(json.rendered(color: color)) }
        if let markdown { blocks.append(markdown.unified(oldName: "golden markdown", newName: "pending markdown", color: color)) }
        for check in includingChecks ? checks : [] {
            let before = check.approved.map { $0 ? "passed" : "failed" } ?? "absent"
            let found = check.pending ? "" : failureMessages[check.name].map { ": \($0)" } ?? ""
            blocks.append("check \(check.name): \(before) → \(check.pending ? "passes" : "fails")\(found)")
        }
        return blocks.joined(separator: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map { indent + $0 }.joined(separator: "\n")
    }

    /// A new output as JSON, with a program's markdown apart as the text it is.
    private static func rendered(_ output: JSONValue) -> [String] {
        guard case .object(var object) = output else { return ["new output:", output.serialized(JSONWriteOptions(pretty: true))] }
        let markdown = object[GoldenStore.markdownKey]?.stringValue
        if markdown != nil { object[GoldenStore.markdownKey] = nil }
        return ["new output:", JSONValue.object(object).serialized(JSONWriteOptions(pretty: true))]
            + (markdown.map { ["new markdown:", $0] } ?? [])
    }
}
