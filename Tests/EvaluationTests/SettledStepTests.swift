import Checks
import Golden
import Intake
import JSONSchema
import Pipeline
import Providers
import Testing

@testable import Evaluation

/// A settled fixture's step is written and read member by member; what is read back
/// is what was written, every optional field included, less passed checks' messages.
@Suite("A settled fixture's steps")
struct SettledStepTests {
    static let key = StepKey(fixture: "busy-parent", id: .programDraft)

    static func step(everyField: Bool) -> SettledFixtures.Step {
        var result = StepResult(id: .programDraft, status: everyField ? .invalid : .valid)
        result.attempts = [
            Attempt(
                responseText: everyField ? "{\"program_json\": \"é\\n\"" : "", finishReason: everyField ? "length" : nil,
                usage: TokenUsage(input: 1200, output: 345, reasoning: everyField ? 12 : 0), latency: 12.375,
                problems: everyField ? ["cut off", "schema: /program_json expected object"] : [], retries: everyField ? 2 : 0),
            Attempt(responseText: "", finishReason: "stop", usage: TokenUsage(input: 1500, output: 400), latency: 0.1, problems: []),
        ]
        result.checks = [
            CheckResult(name: "program.days-per-week", passed: true, message: "3 days"),
            CheckResult(name: "output.not-cut-off", passed: false, message: "ends mid-sentence: \"and th\""),
            CheckResult(name: "program.new-check", passed: false, message: "a check added since approval"),
        ]
        if everyField {
            result.note = "a note"
            result.cost = 0.000125
            result.failure = StepFailure(kind: .invalidOutput, message: "no valid output", retries: 1, detail: "line one\nline two", causes: ["the schema"])
            result.interventions = [Intervention(kind: "edit-limited", detail: "held back one removal")]
        }
        var verdict = StepVerdict(
            key: key, status: everyField ? .knownFailure : .matches, reasons: everyField ? ["known failure output.not-cut-off: ends"] : [],
            outputDiff: everyField ? "~ /title: a → b" : nil, markdownDiff: everyField ? "-a\n+b" : nil, requestDiff: everyField ? "@@" : nil,
            staleCauses: everyField ? ["the system prompt"] : [], differsFromGolden: everyField, knownFailures: ["output.not-cut-off"],
            unapprovedChecks: everyField ? ["program.new-check"] : [], staleRepeat: everyField ? 2 : nil)
        if !everyField { verdict.knownFailures = [] }
        return SettledFixtures.Step(
            result: result, verdict: verdict, passedInGolden: everyField ? [true, false, nil] : [nil, nil, nil],
            outputFingerprint: everyField ? "0123abcd" : nil)
    }

    @Test(arguments: [false, true])
    func aStepReadBackIsTheStepWritten(everyField: Bool) throws {
        let step = Self.step(everyField: everyField)
        let text = try step.json().serializedBytes(.canonical)
        let read = try #require(SettledFixtures.Step(JSONParser.parse(text), id: .programDraft, fixture: "busy-parent"))
        #expect(read == Self.withoutPassedMessages(step))
        #expect(read.result.checks.map(\.message) == ["", "ends mid-sentence: \"and th\"", "a check added since approval"])
    }

    /// What is kept of a step: no report reads a passed check's message back.
    static func withoutPassedMessages(_ step: SettledFixtures.Step) -> SettledFixtures.Step {
        var step = step
        for index in step.result.checks.indices where step.result.checks[index].passed { step.result.checks[index].message = "" }
        return step
    }

    @Test func aStepWithoutVerdictStaysWithout() throws {
        var step = Self.step(everyField: false)
        step.verdict = nil
        let read = try #require(SettledFixtures.Step(step.json(), id: .programDraft, fixture: "busy-parent"))
        #expect(read == Self.withoutPassedMessages(step))
    }

    @Test func aDamagedStepIsNotReadBack() throws {
        guard case .object(var object) = try Self.step(everyField: true).json() else { Issue.record("not an object"); return }
        object["a"] = .array([.array([.string("not a latency")])])
        #expect(SettledFixtures.Step(.object(object), id: .programDraft, fixture: "busy-parent") == nil)
    }
}
