import Foundation
import Golden
import History
import Intake
import Reports
import Storage

extension Project {
    /// What `agreement` reports: the checks against reviewers' labels, and the run behind it.
    public struct AgreementMeasure: Sendable {
        /// Nil when no output of the track is labelled.
        public var agreement: Agreement?
        /// Labels on the track, fresh and stale.
        public var labels: Int
        /// Problems that did not stop the measure (a label file that cannot be read).
        public var warnings: [String]
        /// Steps whose recording is missing or stale, as `fixture/step`: their outputs were not judged.
        public var unreplayable: [String]
    }

    /// The checks' agreement with reviewers' labels of the approved outputs on the
    /// variants' track: every fixture replayed offline as the gate replays it (the
    /// step cache read and kept), writing nothing else, neither pending files, nor a
    /// report folder, nor a history row.
    public func measureAgreement(variants arguments: [String] = []) async throws -> AgreementMeasure {
        let prompts = try prompts(variants: arguments)
        let track = prompts.variants.track
        let golden = GoldenStore.forRun(golden: layout.golden, track: track)
        let labels = try golden.labelled()
        guard !labels.isEmpty else { return AgreementMeasure(agreement: nil, labels: 0, warnings: [], unreplayable: []) }
        let outcome = try await replayQuietly(prompts, fixtures: try corpus(readsParsesBack: true).load(), findsOrphans: false)
        let unreplayable = outcome.golden.verdicts.filter { $0.status == .stale }.map(\.key.description).sorted()
        return AgreementMeasure(
            agreement: outcome.report.agreement, labels: labels.count, warnings: outcome.warnings, unreplayable: unreplayable)
    }
}
