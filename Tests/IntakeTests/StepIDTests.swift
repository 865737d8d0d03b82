import Foundation
import Intake
import JSONSchema
import Testing

/// Step ids: one spelling, parsed and printed in one place, ordered as a fixture runs them.
struct StepIDTests {
    @Test(arguments: [
        ("goal-options", StepID.goalOptions),
        ("goal-options-edit-1", .optionEdit(round: 1)),
        ("goal-options-edit-12", .optionEdit(round: 12)),
        ("confirm", .confirm),
        ("program-draft", .programDraft),
        ("program-edit", .programEdit),
    ])
    func parsesAndPrintsTheSameSpelling(text: String, id: StepID) {
        #expect(StepID(text) == id)
        #expect(id.description == text)
    }

    @Test(arguments: ["goal-options-edit", "goal-options-edit-0", "goal-options-edit--1", "goal-options-edit-02", "goal-options-edit-x", "Confirm", "", "program"])
    func refusesWhatIsNotAStep(text: String) {
        #expect(StepID(text) == nil)
    }

    @Test func ordersStepsAsAFixtureRunsThem() {
        let shuffled: [StepID] = [.programEdit, .confirm, .optionEdit(round: 2), .goalOptions, .programDraft, .optionEdit(round: 1)]
        #expect(shuffled.sorted() == [.goalOptions, .optionEdit(round: 1), .optionEdit(round: 2), .confirm, .programDraft, .programEdit])
    }

    @Test func namesItsModelStepAndRound() {
        #expect(StepID.optionEdit(round: 3).step == .goalOptionsEdit)
        #expect(StepID.optionEdit(round: 3).editRound == 3)
        #expect(StepID.confirm.step == nil)
        #expect(StepID.programEdit.editRound == nil)
    }

    @Test func isCodedAsItsSpelling() throws {
        let data = try JSONEncoder().encode([StepID.optionEdit(round: 2), .confirm])
        #expect(String(decoding: data, as: UTF8.self) == #"["goal-options-edit-2","confirm"]"#)
        #expect(try JSONDecoder().decode([StepID].self, from: data) == [.optionEdit(round: 2), .confirm])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([StepID].self, from: Data(#"["goal-options-edit"]"#.utf8)) }
    }
}
