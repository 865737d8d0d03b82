import Diff
import JSONSchema
import Storage

/// How a request differs from the one a recording holds: the parts that changed
/// (each naming its file) and a readable diff of the messages.
struct RequestChange {
    /// `prompt template (prompts/goal-options/user.mustache)`, `upstream step output`, `max_tokens (1800 → 2000)`...
    var causes: [String]
    /// Unified diffs of the system prompt and the messages, with JSON spread over lines
    /// so that only the changed members show; nil when the text is the same.
    var diff: String?

    init(current: RecordedRequest, currentProvenance: [String: String], recorded: RecordedRequest, recordedProvenance: [String: String]) {
        // Parts are matched by kind, not by file: a promoted variant's recording names
        // the variant's files, and the same text in the base's files is no change.
        let currentParts = Self.byKind(currentProvenance)
        let recordedParts = Self.byKind(recordedProvenance)
        var parts = Set(currentParts.keys).union(recordedParts.keys)
            .filter { currentParts[$0]?.fingerprint != recordedParts[$0]?.fingerprint }
            .compactMap { currentParts[$0]?.label ?? recordedParts[$0]?.label }
            .sorted()
        if current.schemaSHA256 != recorded.schemaSHA256, !parts.contains(where: { $0.hasPrefix("schema") }) { parts.append("schema") }
        if current.model != recorded.model { parts.append("model (\(recorded.model) → \(current.model))") }
        if current.temperature != recorded.temperature {
            parts.append("temperature (\(recorded.temperature) → \(current.temperature))")
        }
        if current.maxTokens != recorded.maxTokens { parts.append("max_tokens (\(recorded.maxTokens) → \(current.maxTokens))") }
        if current.seed != recorded.seed {
            parts.append("seed (\(recorded.seed.map(String.init) ?? "none") → \(current.seed.map(String.init) ?? "none"))")
        }
        if current.compactJSON != recorded.compactJSON {
            parts.append("compact_json (\(recorded.compactJSON == true) → \(current.compactJSON == true))")
        }
        var diffs: [String] = []
        if current.system != recorded.system {
            if !parts.contains(where: { $0.hasPrefix("system prompt") }) { parts.append("system prompt") }
            diffs.append(Self.diff(recorded.system, current.system, oldName: "recorded system", newName: "current system"))
        }
        let recordedUser = recorded.messages.map(\.content).joined(separator: "\n\n")
        let currentUser = current.messages.map(\.content).joined(separator: "\n\n")
        if currentUser != recordedUser {
            if parts.isEmpty { parts.append("user message") }
            diffs.append(Self.diff(recordedUser, currentUser, oldName: "recorded messages", newName: "current messages"))
        }
        if parts.isEmpty { parts.append("request encoding") }
        causes = parts
        diff = diffs.isEmpty ? nil : diffs.joined(separator: "\n")
    }

    /// Provenance entries by the kind of part they name (`system prompt` for
    /// `system prompt (prompts/goal-options/system.md)`), each with its label.
    private static func byKind(_ provenance: [String: String]) -> [String: (label: String, fingerprint: String)] {
        var parts: [String: (label: String, fingerprint: String)] = [:]
        for (label, fingerprint) in provenance {
            let kind = label.range(of: " (").map { String(label[..<$0.lowerBound]) } ?? label
            parts[kind] = (label, fingerprint)
        }
        return parts
    }

    private static func diff(_ old: String, _ new: String, oldName: String, newName: String) -> String {
        LineDiff(old: spreadingJSON(old), new: spreadingJSON(new)).unified(context: 2, oldName: oldName, newName: newName)
    }

    /// The text with each long line that holds a JSON object or array pretty-printed
    /// over several lines: an upstream program is one line of a thousand characters
    /// in the prompt, and a change to one of its members should show as that member.
    static func spreadingJSON(_ text: String) -> String {
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.utf8.count > 120, let spread = spread(line) else {
                lines.append(line)
                continue
            }
            lines.append(contentsOf: spread.split(separator: "\n", omittingEmptySubsequences: false))
        }
        return lines.joined(separator: "\n")
    }

    /// `prefix{...}suffix` with the JSON pretty-printed, when the braces hold valid JSON.
    private static func spread(_ line: Substring) -> String? {
        guard let start = line.firstIndex(where: { $0 == "{" || $0 == "[" }),
              let end = line.lastIndex(where: { $0 == "}" || $0 == "]" }), start < end,
              let value = try? JSONParser.parse(Array(line[start...end].utf8))
        else { return nil }
        return String(line[..<start]) + value.serialized(JSONWriteOptions(pretty: true)) + String(line[line.index(after: end)...])
    }
}
