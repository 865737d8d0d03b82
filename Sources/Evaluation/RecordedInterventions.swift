import Foundation
import Intake
import JSONSchema
import Reports

/// What the backend did to each output of the newest run (a repair that named a
/// fault, the backend's own words, a referral added...), as its report records it,
/// so that `review` can show it beside a pending output that run produced.
public struct RecordedInterventions: Sendable {
    private var byStep: [String: [(output: String, lines: [String])]] = [:]

    /// The interventions of the run whose report `Reports/latest/` holds; none when
    /// there is no report or it cannot be read.
    public init(layout: ProjectLayout) {
        let file = layout.reports.appendingPathComponent("latest/results.json")
        guard let data = try? Data(contentsOf: file), let report = try? ReportWriter.decode(data) else { return }
        for fixture in report.fixtures {
            for step in fixture.steps {
                guard let interventions = step.interventions, !interventions.isEmpty, let output = step.output else { continue }
                let lines = interventions.map { "\($0.kind): \($0.detail)" }
                byStep[ListedStep.name(fixture: fixture.name, step: step.id), default: []].append((output.serialized(.canonical), lines))
            }
        }
    }

    /// The interventions behind `output` of `key`, when the newest run produced exactly that output.
    public func lines(for key: StepKey, output: JSONValue) -> [String] {
        let canonical = output.serialized(.canonical)
        return byStep[key.description]?.first { $0.output == canonical }?.lines ?? []
    }
}
