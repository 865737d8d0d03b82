import Intake
import Pipeline
import Testing

/// What each step's template may use, as the step catalogue's traits give it.
struct StepVariablesTests {
    @Test func eachStepSeesTheIntakeAndWhatItsKindNeeds() {
        let intake: Set<String> = ["intake_json", "skipped_fields"]
        let program = intake.union(IntakeLimits.variableNames).union([
            "confirmed_goal_json", "health_cautions", "exercise_menu", ProgramPlan.variableName, SessionLayout.variableName,
        ])
        let options = intake.union([OptionLayout.variableName, "goal_answers_json"])
        #expect(StepPrompt.variables[.goalOptions] == options)
        #expect(StepPrompt.variables[.goalOptionsEdit] == options.union(["current_options_json", "current_options_text", "earlier_feedback_json", "feedback_json"]))
        #expect(StepPrompt.variables[.programDraft] == program)
        #expect(StepPrompt.variables[.programEdit] == program.union(["current_program_json", "current_program_text", "feedback_json"]))
        #expect(StepPrompt.variables.count == PipelineStep.allCases.count)
    }
}
