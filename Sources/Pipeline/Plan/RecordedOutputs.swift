import Intake
import JSONSchema
import Storage

/// The outputs a replay hands from one step to the next: each step's recorded
/// reply, exactly as the model ordered it, for `render` to show the messages a
/// replay sends.
public struct RecordedOutputs: UpstreamOutputs {
    public let store: any CassetteStorage

    public init(store: any CassetteStorage) {
        self.store = store
    }

    public func output(of step: StepID, fixture: String) -> UpstreamOutput? {
        guard let reply = (try? store.cassette(StepKey(fixture: fixture, step: step.description)))??.interactions
                .last(where: { $0.repeatNumber == 1 })?.response.text,
              case .success(let extraction) = JSONExtractor.extract(from: reply)
        else { return nil }
        return UpstreamOutput(value: extraction.value, source: "the recorded reply")
    }
}
