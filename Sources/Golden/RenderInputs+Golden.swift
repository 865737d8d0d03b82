import Foundation
import JSONSchema
import Pipeline

extension RenderInputs {
    /// What a replay feeds the step after `stepID`: the recorded reply, exactly as the
    /// model ordered it. Failing that, the approved output (canonical key order). A step
    /// approved as unusable feeds nothing: in a run, the steps after it are skipped.
    public static func replayedOutput(of stepID: String, fixture: String, golden: URL) -> Upstream? {
        let approved = try? GoldenStore(folder: golden).approved(fixture: fixture, step: stepID)
        if approved?.checks[GoldenComparison.usableOutputCheck] == false { return nil }
        if let reply = (try? CassetteStore(folder: golden).cassette(fixture: fixture, step: stepID))??.interactions.last?.response.text,
           case .success(let extraction) = JSONExtractor.extract(from: reply) {
            return (extraction.value, "the recorded reply")
        }
        return approved.map { ($0.output, "the approved output") }
    }
}
