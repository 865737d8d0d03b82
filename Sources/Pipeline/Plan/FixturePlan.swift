import Intake
import JSONSchema

/// The steps a fixture's scenario produces, in order, each with the upstream steps
/// it needs and how its input is built from their outputs.
///
/// `goal-options`, one `goal-options-edit-N` per round of option feedback,
/// `confirm` (a deterministic choice), `program-draft`, `program-edit`. The run
/// (`Pipeline`) and `render` both walk this plan, so adding or reordering a step
/// happens here and nowhere else.
public struct FixturePlan: Sendable {
    /// One step of the plan.
    public struct PlannedStep: Sendable {
        /// What produces the step's output.
        public enum Runner: Sendable {
            /// A prompt sent to the model.
            case model(PipelineStep)
            /// The goal option the scenario's user taps (`ConfirmStep`); no model involved.
            case confirm(ConfirmChoice)
        }

        public let id: StepID
        public let runner: Runner
        /// The upstream outputs the input is built from, each in the role it plays there.
        public let needs: [Need]
        /// Why the step is skipped when a step it needs left no usable output.
        public let missingInput: String
        /// The feedback this step applies (option edits and the program edit).
        public let feedback: String?
        /// Option feedback already applied by earlier rounds, oldest first.
        public let earlierFeedback: [String]

        /// The model step this sends; nil for confirm.
        public var modelStep: PipelineStep? {
            if case .model(let step) = runner { return step }
            return nil
        }

        /// The output an edit is compared with: the options or the program it was given.
        public func before(_ outputs: [StepID: JSONValue]) -> JSONValue? {
            needs.first { $0.role == .currentOptions || $0.role == .currentProgram }.flatMap { outputs[$0.step] }
        }
    }

    /// An upstream step whose output goes into a step's input.
    public struct Need: Sendable, Equatable {
        /// Where the upstream output goes.
        public enum Role: String, Sendable {
            /// The options an option edit revises (or confirm chooses from).
            case currentOptions = "current options"
            /// The goal chosen at confirm.
            case confirmedGoal = "confirmed goal"
            /// The program an edit revises: the draft's `program_json`.
            case currentProgram = "current program"
        }

        public let step: StepID
        public let role: Role
    }

    public let fixture: Fixture
    public let steps: [PlannedStep]
    /// The parts of every step's input that come from the fixture alone, built once.
    let base: StepInput

    public init(_ fixture: Fixture) {
        self.fixture = fixture
        base = StepInput(fixture: fixture)
        let scenario = fixture.scenario
        var steps = [PlannedStep(
            id: .goalOptions, runner: .model(.goalOptions), needs: [], missingInput: "", feedback: nil, earlierFeedback: [])]
        var options = StepID.goalOptions
        for (index, edit) in scenario.optionEdits.enumerated() {
            let id = StepID.optionEdit(round: index + 1)
            steps.append(PlannedStep(
                id: id, runner: .model(.goalOptionsEdit), needs: [Need(step: options, role: .currentOptions)],
                missingInput: "no valid goal options to edit (\(options) did not produce them)",
                feedback: edit.feedback, earlierFeedback: scenario.optionEdits.prefix(index).map(\.feedback)))
            options = id
        }
        steps.append(PlannedStep(
            id: .confirm, runner: .confirm(scenario.confirm), needs: [Need(step: options, role: .currentOptions)],
            missingInput: "no valid goal options to choose from", feedback: nil, earlierFeedback: []))
        steps.append(PlannedStep(
            id: .programDraft, runner: .model(.programDraft), needs: [Need(step: .confirm, role: .confirmedGoal)],
            missingInput: "no confirmed goal", feedback: nil, earlierFeedback: []))
        steps.append(PlannedStep(
            id: .programEdit, runner: .model(.programEdit),
            needs: [Need(step: .confirm, role: .confirmedGoal), Need(step: .programDraft, role: .currentProgram)],
            missingInput: "no valid program draft to edit", feedback: scenario.programEdit.feedback, earlierFeedback: []))
        self.steps = steps
    }

    /// The planned step with this id; nil when the scenario does not produce it.
    public subscript(id: StepID) -> PlannedStep? {
        steps.first { $0.id == id }
    }

    /// The ids of the steps that call a model, in order.
    public var modelStepIDs: [StepID] {
        steps.filter { $0.modelStep != nil }.map(\.id)
    }

    /// The input of a model step from the outputs of the steps before it; nil when one
    /// it needs has no output.
    public func input(for step: PlannedStep, outputs: [StepID: JSONValue]) -> StepInput? {
        var input = base
        input.feedback = step.feedback
        input.earlierFeedback = step.earlierFeedback
        for need in step.needs {
            guard let output = outputs[need.step] else { return nil }
            switch need.role {
            case .currentOptions: input.currentOptions = output
            case .confirmedGoal: input.confirmedGoal = output
            case .currentProgram: input.currentProgram = output["program_json"]
            }
        }
        return input
    }

    /// Runs the confirm step on the options it needs: the chosen option and how it was chosen.
    public func confirm(_ step: PlannedStep, outputs: [StepID: JSONValue]) -> (option: JSONValue, note: String)? {
        guard case .confirm(let choice) = step.runner, let options = step.needs.first.flatMap({ outputs[$0.step] }) else { return nil }
        return ConfirmStep.choose(from: options, by: choice)
    }
}
