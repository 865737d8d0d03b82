import Intake
import Testing

/// The step catalogue: each step's traits in one place, and what is derived from them.
struct StepCatalogueTests {
    @Test func eachStepSaysWhatItWritesWhetherItEditsAndWhereItStarts() {
        #expect(PipelineStep.allCases.filter(\.writesProgram) == [.programDraft, .programEdit])
        #expect(PipelineStep.allCases.filter(\.edits) == [.goalOptionsEdit, .programEdit])
        #expect(PipelineStep.allCases.map(\.traits.firstID) == [.goalOptions, .optionEdit(round: 1), .programDraft, .programEdit])
        #expect(PipelineStep.allCases.allSatisfy { $0.traits.firstID.step == $0 }, "a step's first id runs that step")
    }

    @Test func theSchemaNameAndTheRunOrderFollowFromTheSteps() {
        #expect(PipelineStep.allCases.map(\.schemaName) == ["goal_options", "goal_options_edit", "program_draft", "program_edit"])
        #expect(PipelineStep.runOrder == ["goal-options", "goal-options-edit", "confirm", "program-draft", "program-edit"])
    }
}
