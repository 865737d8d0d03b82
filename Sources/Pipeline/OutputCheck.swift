import Checks
import Foundation
import Intake
import JSONSchema

/// Judges one step's output from anywhere (pasted from production, edited by hand)
/// as a run judges it: the app's contract for the step (else, in a project without
/// one, the prompt set's schema), then every check and assertion that applies to the
/// step. Where the prompt set's own schema asks for more than the app, what it
/// refuses is reported apart and fails nothing. What `trainer-eval check` prints.
public struct OutputCheck: Sendable {
    /// One check's result; `passed` is nil for a check that could not run.
    public struct Item: Sendable, Hashable, Codable {
        public var name: String
        public var passed: Bool?
        public var message: String

        public init(name: String, passed: Bool?, message: String) {
            self.name = name
            self.passed = passed
            self.message = message
        }
    }

    public let fixture: String
    public let step: PipelineStep
    /// The output is valid against the app's contract (in a project without one, the prompt set's schema).
    public let valid: Bool
    /// Where the output meets the contract but not the prompt set's schema: that schema's
    /// file and what it refuses. Nil when the schema accepts it too, or the contract judged nothing.
    public let replySchema: (file: String, problems: [String])?
    /// The schema's verdict first (`schema`), then each check in the order the run makes them.
    public let items: [Item]

    /// Every check that ran passed.
    public var passes: Bool { !items.contains { $0.passed == false } }

    /// Judges `output` as `step`'s output for `fixture`. For an edit, `previous` is the
    /// output before it; without it, the checks that compare with it are reported as
    /// not run. `feedback` replaces the scenario's (for an option edit, its first round);
    /// a scenario expectation written for the scenario's own feedback then does not run.
    public init(
        _ output: JSONValue, step: PipelineStep, fixture: Fixture, prompts: PromptLibrary, previous: JSONValue? = nil,
        feedback: String? = nil
    ) throws(OutputCheckError) {
        var fixture = fixture
        var notRun: [Item] = []
        if step.editsOptions {
            guard let round = fixture.scenario.optionEdits.first ?? feedback.map({ OptionEdit(feedback: $0) }) else {
                throw .noFeedback(fixture: fixture.name)
            }
            if let feedback, feedback != round.feedback {
                if round.expect?.mentionAny != nil {
                    notRun.append(Item(
                        name: "edit.reflects-feedback", passed: nil,
                        message: "the scenario's expected words belong to its own feedback, not to --feedback"))
                }
                fixture = fixture.replacingOptionEdit(OptionEdit(feedback: feedback))
            } else if fixture.scenario.optionEdits.isEmpty {
                fixture = fixture.replacingOptionEdit(round)
            }
        }
        if step.editsProgram, let feedback, feedback != fixture.scenario.programEdit.feedback {
            fixture = fixture.replacingProgramEdit(ProgramEdit(feedback: feedback))
        }
        if previous == nil, step.edits {
            let name = step.editsOptions ? "edit.changed" : "edit.keeps-the-rest"
            notRun.append(Item(name: name, passed: nil, message: "needs --previous, the output before the edit"))
        }

        let prompt = prompts[step]
        let setProblems = prompt.schema.validate(output).errors.map(StepRunner.problem)
        let judge = prompts.contracts[step].map { (file: $0.file, problems: $0.problems(in: output), what: "the app's contract") }
            ?? (file: prompt.schemaFile, problems: setProblems, what: "the prompt set's schema")
        var items = [judge.problems.isEmpty
            ? Item(name: "schema", passed: true, message: "meets \(judge.what) (\(judge.file))")
            : Item(name: "schema", passed: false, message: "breaks \(judge.what) (\(judge.file)): " + judge.problems.joined(separator: "; "))]
        replySchema = judge.problems.isEmpty && !setProblems.isEmpty && judge.file != prompt.schemaFile ? (prompt.schemaFile, setProblems) : nil
        let context = DomainChecks.Context(
            fixture: fixture, editRound: step.editsOptions ? 1 : nil, before: previous, knowledge: prompts.coaching,
            systemPrompt: prompts[step].system, userTemplate: prompts[step].templateText,
            schema: prompts.replySchemaDocument(step, for: fixture.record))
        items += DomainChecks.check(step, output: output, context: context).map { Item(name: $0.name, passed: $0.passed, message: $0.message) }
        self.fixture = fixture.name
        self.step = step
        valid = judge.problems.isEmpty
        self.items = items + notRun
    }

    /// Reads an output file: JSON, named with line and column when it is not.
    public static func read(_ path: String) throws(OutputCheckError) -> JSONValue {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path, reason: FileManager.default.fileExists(atPath: path) ? "it cannot be read" : "no such file")
        }
        do {
            return try JSONParser.parse(data)
        } catch let error as JSONParseError {
            throw .notJSON(path: path, line: error.location.line, column: error.location.column, reason: error.reason)
        } catch {
            throw .notJSON(path: path, line: 1, column: 1, reason: "\(error)")
        }
    }
}

/// Input `check` cannot judge.
public enum OutputCheckError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case notJSON(path: String, line: Int, column: Int, reason: String)
    case noFeedback(fixture: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "\(path): \(reason)."
        case .notJSON(let path, let line, let column, let reason):
            return "\(path):\(line):\(column): not JSON: \(reason)."
        case .noFeedback(let fixture):
            return "Fixture `\(fixture)` has no option edits in its scenario; give the feedback the options answer with --feedback."
        }
    }
}

extension Fixture {
    /// This fixture with its scenario's first option edit replaced (or added).
    func replacingOptionEdit(_ edit: OptionEdit) -> Fixture {
        var scenario = scenario
        if scenario.optionEdits.isEmpty { scenario.optionEdits = [edit] } else { scenario.optionEdits[0] = edit }
        return Fixture(name: name, record: record, recordJSON: recordJSON, scenario: scenario, recordURL: recordURL, scenarioURL: scenarioURL)
    }

    /// This fixture with its scenario's program edit replaced, without the expectations written for the old feedback.
    func replacingProgramEdit(_ edit: ProgramEdit) -> Fixture {
        var scenario = scenario
        scenario.programEdit = edit
        return Fixture(name: name, record: record, recordJSON: recordJSON, scenario: scenario, recordURL: recordURL, scenarioURL: scenarioURL)
    }
}

extension OutputCheck {
    /// `check --format json`: `{"fixture", "step", "valid", "checks": [{"name", "passed", "message"}]}`,
    /// `passed` null for a check that did not run, and `reply_schema: {"file", "problems"}`
    /// when the output meets the contract but not the prompt set's schema.
    public var json: JSONValue {
        var members: [JSONObject.Member] = [
            .init(key: "fixture", value: .string(fixture)),
            .init(key: "step", value: .string(step.rawValue)),
            .init(key: "valid", value: .bool(valid)),
            .init(key: "checks", value: .array(items.map { item in
                .object(JSONObject([
                    .init(key: "name", value: .string(item.name)),
                    .init(key: "passed", value: item.passed.map(JSONValue.bool) ?? .null),
                    .init(key: "message", value: .string(item.message)),
                ]))
            })),
        ]
        if let replySchema {
            members.append(.init(key: "reply_schema", value: .object(JSONObject([
                .init(key: "file", value: .string(replySchema.file)),
                .init(key: "problems", value: .array(replySchema.problems.map(JSONValue.string))),
            ]))))
        }
        return .object(JSONObject(members))
    }
}
