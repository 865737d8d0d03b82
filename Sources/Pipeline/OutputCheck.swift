import Checks
import Foundation
import Intake
import JSONSchema

/// Judges one step's output from anywhere (pasted from production, edited by hand)
/// as a run judges it: the step's schema, then every check and assertion that
/// applies to the step. What `trainer-eval check` prints.
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
    /// The output is valid against the step's schema.
    public let valid: Bool
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

        let errors = prompts[step].schema.validate(output).errors
        var items = [errors.isEmpty
            ? Item(name: "schema", passed: true, message: "valid against prompts/schemas/\(prompts[step].metadata.schema)")
            : Item(name: "schema", passed: false, message: errors.map(StepRunner.problem).joined(separator: "; "))]
        let context = DomainChecks.Context(
            fixture: fixture, editRound: step.editsOptions ? 1 : nil, before: previous, knowledge: prompts.coaching,
            systemPrompt: prompts[step].system, userTemplate: prompts[step].templateText,
            schema: prompts.replySchemaDocument(step, for: fixture.record))
        items += DomainChecks.check(step, output: output, context: context).map { Item(name: $0.name, passed: $0.passed, message: $0.message) }
        self.fixture = fixture.name
        self.step = step
        valid = errors.isEmpty
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
    /// `passed` null for a check that did not run.
    public var json: JSONValue {
        .object(JSONObject([
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
        ]))
    }
}
