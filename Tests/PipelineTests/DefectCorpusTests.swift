import Foundation
import Intake
import JSONSchema
import Pipeline
import Testing

/// How well the output checks tell good outputs from bad: every case's good output
/// passes every check, and every single-defect copy of it fails the check it is
/// labelled with, judged by `OutputCheck`, the code `trainer-eval check` runs.
/// `scripts/check-precision` prints the same counts through the binary.
@Suite("Defect corpus")
struct DefectCorpusTests {
    /// The checks `trainer-eval check` reports on `output` for `defectCase`.
    static func check(_ output: JSONValue, of defectCase: DefectCase, prompts: PromptLibrary) throws -> [OutputCheck.Item] {
        try OutputCheck(
            output, step: defectCase.step, fixture: Repository.fixture(defectCase.fixture), prompts: prompts,
            previous: defectCase.previous, feedback: defectCase.feedback
        ).items
    }

    static func summary(_ items: [OutputCheck.Item]) -> String {
        items.map { "\($0.name) (\($0.passed.map { $0 ? "pass" : "FAIL" } ?? "not run"))" }.joined(separator: ", ")
    }

    /// Whether `item` is the good output's result for the check named `trips`: the same
    /// name, or for one item of a list (`program.equipment[barbell]`), the check's single
    /// pass when no item is at fault (`program.equipment`).
    static func covers(_ item: OutputCheck.Item, _ trips: String) -> Bool {
        guard item.name != trips else { return true }
        guard trips.hasSuffix("]"), let bracket = trips.firstIndex(of: "[") else { return false }
        return item.name == trips[..<bracket]
    }

    @Test func theCorpusHasAtLeastFiveGoodOutputsAndFortyDefectsOverEveryStep() throws {
        let cases = try DefectCase.names().map(DefectCase.init(named:))
        #expect(cases.count >= 5, "good outputs: \(cases.map(\.name))")
        #expect(cases.map(\.defects.count).reduce(0, +) >= 40)
        let steps = Set(cases.map(\.step))
        #expect(steps == Set(PipelineStep.allCases), "steps without a case: \(Set(PipelineStep.allCases).subtracting(steps))")
    }

    @Test(arguments: DefectCase.names())
    func theGoodOutputPassesEveryCheck(name: String) throws {
        let defectCase = try DefectCase(named: name)
        let isEdit = defectCase.step == .goalOptionsEdit || defectCase.step == .programEdit
        #expect((defectCase.previous != nil) == isEdit, "\(name): an edit case, and only an edit case, has previous.json")
        for item in try Self.check(defectCase.good, of: defectCase, prompts: Repository.prompts()) {
            switch item.passed {
            case false:
                Issue.record("\(name): the good output fails \(item.name): \(item.message)")
            case nil where defectCase.feedback == nil:
                // Given previous and the scenario's own feedback, every check can run.
                Issue.record("\(name): \(item.name) did not run on the good output: \(item.message)")
            default:
                break
            }
        }
    }

    @Test(arguments: DefectCase.names())
    func everyDefectFailsTheCheckItIsLabelledWith(name: String) throws {
        let defectCase = try DefectCase(named: name)
        let prompts = try Repository.prompts()
        let good = try Self.check(defectCase.good, of: defectCase, prompts: prompts)
        #expect(Set(defectCase.defects.map(\.name)).count == defectCase.defects.count, "\(name): defect names repeat")
        for defect in defectCase.defects {
            let label = "\(name), defect \(defect.name)"
            #expect(defect.name.wholeMatch(of: /[a-z0-9]+(-[a-z0-9]+)*/) != nil, "\(label): name it in kebab-case")
            // A label must name a check the good output passes, so a misspelt one cannot pass unnoticed.
            guard good.contains(where: { Self.covers($0, defect.trips) && $0.passed == true }) else {
                Issue.record("\(label): `\(defect.trips)` is not a check the good output passes; it reports \(Self.summary(good))")
                continue
            }
            let output: JSONValue
            do {
                output = try defectCase.output(with: defect)
            } catch {
                Issue.record("\(error)")
                continue
            }
            guard output != defectCase.good else {
                Issue.record("\(label): its changes leave the good output as it was")
                continue
            }
            let items = try Self.check(output, of: defectCase, prompts: prompts)
            guard let item = items.first(where: { $0.name == defect.trips }) else {
                Issue.record("\(label): \(defect.trips) did not run; the defect reports \(Self.summary(items))")
                continue
            }
            #expect(item.passed == false, "\(label) (\(defect.why)): \(defect.trips) did not catch it: \(item.message)")
        }
    }
}
