import Intake
import JSONSchema

extension FixturePlan {
    /// A model step's input for `render`, which runs none of the steps before it,
    /// and where each upstream output in it came from.
    public struct Rendering: Sendable {
        public var input: StepInput
        /// One line per upstream output, e.g. `current options: goal-options, the recorded reply`.
        public var upstream: [String]
    }

    /// A step the scenario does not produce, or one that sends no prompt.
    public enum RenderingError: Error, Equatable, CustomStringConvertible {
        case roundOutOfRange(fixture: String, round: Int, available: Int)
        case notAModelStep(StepID)

        public var description: String {
            switch self {
            case .roundOutOfRange(let fixture, let round, let available):
                return available == 0
                    ? "Fixture `\(fixture)` has no option edits in its scenario; goal-options-edit never runs for it."
                    : "Fixture `\(fixture)` has \(available) option edit\(available == 1 ? "" : "s") (\(StepID.optionEdit(round: 1))...\(StepID.optionEdit(round: available))); there is no \(StepID.optionEdit(round: round))."
            case .notAModelStep(let id):
                return "\(id) sends no messages: it chooses one of the goal options by the scenario's `confirm` rule."
            }
        }
    }

    /// The input of model step `id`, with upstream outputs from `upstream` and a
    /// labelled placeholder wherever it has none.
    public func rendering(of id: StepID, upstream: any UpstreamOutputs = PlaceholderOutputs()) throws(RenderingError) -> Rendering {
        guard let planned = self[id] else {
            if let round = id.editRound {
                throw .roundOutOfRange(fixture: fixture.name, round: round, available: fixture.scenario.optionEdits.count)
            }
            throw .notAModelStep(id)
        }
        guard planned.modelStep != nil else { throw .notAModelStep(id) }
        var lines: [String] = []
        var outputs: [StepID: JSONValue] = [:]
        for need in planned.needs {
            let found = resolve(need, upstream: upstream)
            outputs[need.step] = found.value
            lines.append(found.line)
        }
        // Every need now has a value (real or placeholder), so the input is complete.
        let input = self.input(for: planned, outputs: outputs) ?? base
        return Rendering(input: input, upstream: lines)
    }

    /// An upstream output and the header line that says where it came from.
    private func resolve(_ need: Need, upstream: any UpstreamOutputs) -> (value: JSONValue, line: String) {
        let placeholders = PlaceholderOutputs()
        guard let confirm = self[need.step], case .confirm = confirm.runner else {
            if let found = upstream.output(of: need.step, fixture: fixture.name), !found.isPlaceholder {
                return (found.value, "\(need.role.rawValue): \(need.step), \(found.source)")
            }
            let placeholder = placeholders.output(of: need.step, fixture: fixture.name)!.value
            return (placeholder, "\(need.role.rawValue): placeholder (no usable output of \(need.step))")
        }
        // Confirm calls no model: it is run here on the options it chooses from.
        let options = confirm.needs[0].step
        if let found = upstream.output(of: options, fixture: fixture.name), !found.isPlaceholder,
           let choice = self.confirm(confirm, outputs: [options: found.value]) {
            return (choice.option, "\(need.role.rawValue): \(choice.note), from \(options), \(found.source)")
        }
        let placeholder = placeholders.output(of: need.step, fixture: fixture.name)!.value
        return (placeholder, "\(need.role.rawValue): placeholder (no usable output of \(options))")
    }
}
