import Evaluation
import Foundation
import Golden
import Intake
import JSONSchema
import Reports

/// Prints `judge`: the rubric judge's verdict on each approved output, what it could not
/// judge, and its agreement with reviewers' labels as `agreement` prints a check's.
public struct JudgementPrinter {
    let terminal: Terminal

    public init(terminal: Terminal) {
        self.terminal = terminal
    }

    public func printText(_ judgement: Project.Judgement) {
        let rubric = judgement.rubric
        terminal.writeLine("rubric \(rubric.name) (\(rubric.file)) on \(rubric.appliesTo) outputs, judged by \(judgement.answeringModel); recordings in \(judgement.recordings)/")
        for entry in judgement.judged.sorted(by: { $0.key < $1.key }) {
            let word = entry.verdict.passed ? terminal.styled("pass", .green) : terminal.styled("fail", .red)
            terminal.writeLine("\(word)  \(entry.key): \(entry.verdict.reason)")
        }
        let failed = judgement.judged.filter { !$0.verdict.passed }.count
        terminal.writeLine("\(judgement.judged.count) judged: \(judgement.judged.count - failed) pass, \(failed) fail"
            + (judgement.notJudged.isEmpty ? "." : "; \(judgement.notJudged.count) not judged (below)."))
        terminal.writeLine("")
        terminal.writeLine("The judge as a check (`rubric.\(rubric.name)`) against reviewers' labels:")
        AgreementPrinter(terminal: terminal).printText(judgement.agreement, labels: judgement.labels)
    }

    /// The verdicts and the agreement as one JSON object.
    public func printJSON(_ judgement: Project.Judgement) throws {
        let verdicts: [JSONValue] = judgement.judged.sorted(by: { $0.key < $1.key }).map { entry in
            ["output": .string(entry.key.description), "verdict": .string(entry.verdict.passed ? "pass" : "fail"), "reason": .string(entry.verdict.reason)]
        }
        let object: JSONValue = [
            "rubric": .string(judgement.rubric.name), "file": .string(judgement.rubric.file), "applies_to": .string(judgement.rubric.appliesTo),
            "model": .string(judgement.answeringModel), "verdicts": .array(verdicts),
            "not_judged": .array(judgement.notJudged.map(JSONValue.string)),
            "agreement": try judgement.agreement.map { try JSONValueEncoder().encode($0) } ?? .null,
        ]
        terminal.writeLine(object.serialized(.prettySorted))
    }

    /// The outputs the judge gave no verdict on, and how to record what is missing;
    /// `scope` is the command's own `--variant` and `--fixture` arguments.
    public func printProblems(_ judgement: Project.Judgement, scope: [String] = [], to err: Terminal) {
        guard !judgement.notJudged.isEmpty else { return }
        for line in judgement.notJudged.prefix(10) { err.writeLine("not judged: \(line)") }
        if judgement.notJudged.count > 10 { err.writeLine("not judged: and \(judgement.notJudged.count - 10) more") }
        let arguments = ([judgement.rubric.name, "--provider", "local", "--record-missing"] + scope).joined(separator: " ")
        err.writeLine("Record the missing verdicts with `\(Invocation.command) judge \(arguments)` "
            + "(start the model first: `scripts/local-model serve qwen`).")
    }
}
