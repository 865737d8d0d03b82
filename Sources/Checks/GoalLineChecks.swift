import Foundation
import JSONSchema

/// A program's title and goal name the target the person trains for, addressed to
/// them: never a first step ("Start with light weights and…", an instruction copied
/// from elsewhere) and never in the person's own voice ("Reduce my back pain").
enum GoalLineChecks {
    /// `program.goal-line`; nil without rules.
    static func check(_ program: JSONValue, rules: AdviceRules) -> CheckResult? {
        guard let rules = rules.goalLine else { return nil }
        let name = "program.goal-line"
        var problems: [String] = []
        for field in ["title", "goal"] {
            guard let line = program[field]?.stringValue, !line.isEmpty else { continue }
            let lowered = TextMatching.folded(line).lowercased().trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters))
            if let step = rules.firstSteps.first(where: { lowered == $0 || lowered.hasPrefix($0 + " ") }) {
                problems.append("the \(field) is a first step (\"\(step)…\"), not a target: \"\(line.prefix(80))\"")
                continue
            }
            // A word after a number is a unit, not a person: "13.1 mi" is miles.
            let tokens = Self.tokens(lowered)
            let words = Set(tokens.indices.filter { $0 == 0 || !tokens[$0 - 1].allSatisfy(\.isNumber) }.map { tokens[$0] })
            if let word = rules.firstPerson.first(where: { words.contains($0) }) {
                problems.append("the \(field) speaks as the person (\"\(word)\"), not to them: \"\(line.prefix(80))\"")
            }
        }
        return problems.isEmpty
            ? .pass(name, "the title and goal name a target, addressed to the person")
            : .fail(name, problems.joined(separator: "; "))
    }

    /// The words of a folded, lower-cased line exactly as written ("i'm" stays one word):
    /// a first-person word is matched whole, never as a part or another form of a word.
    static func tokens(_ lowered: String) -> [String] {
        lowered.replacingOccurrences(of: "\u{2019}", with: "'")
            .split { !($0.isLetter || $0.isNumber || $0 == "'") }
            .map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: "'")) }
    }
}
