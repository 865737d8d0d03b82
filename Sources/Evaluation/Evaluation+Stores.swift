import Golden
import History
import Intake
import Reports
import Storage

extension Evaluation {
    /// Where a run keeps what it produces: the golden outputs it is compared with,
    /// the run history and the report folders.
    ///
    /// The command line uses `onDisk(layout:)`; tests hand in memory twins
    /// (`MemoryGoldenStore`, `MemoryRunHistory`) and a temporary report folder.
    public struct Stores: Sendable {
        /// Approved and pending outputs: the run is compared with them and, outside CI,
        /// leaves pending outputs in them.
        public var golden: any GoldenStorage
        /// Opens the run history once the pipeline is done. A history that cannot be
        /// opened costs the pass-rate chart its past and the run a warning, never the report.
        public var openHistory: @Sendable () throws -> any RunRecords
        /// Writes the report folder and prunes old ones.
        public var reports: ReportWriter

        public init(golden: any GoldenStorage, openHistory: @escaping @Sendable () throws -> any RunRecords, reports: ReportWriter) {
            self.golden = golden
            self.openHistory = openHistory
            self.reports = reports
        }

        /// Stores with a history that is already open.
        public init(golden: any GoldenStorage, history: any RunRecords, reports: ReportWriter) {
            self.init(golden: golden, openHistory: { history }, reports: reports)
        }

        /// The project's own: `golden/` (with a variant's folder for the steps it
        /// holds), `.history/runs.sqlite` and `Reports/`.
        /// With `digests`, golden files' digests are remembered across runs.
        public static func onDisk(layout: ProjectLayout, track: VariantTrack? = nil, digests: FileDigests? = nil) -> Stores {
            Stores(
                golden: GoldenStore.forRun(golden: layout.golden, track: track, digests: digests),
                openHistory: { try RunHistory(file: layout.history) },
                reports: ReportWriter(root: layout.reports))
        }
    }
}

extension Evaluation.Stores {
    /// Writes a finished run: its report folder, with the pass-rate chart of the runs
    /// before it, and its history row, written while the report renders. A history
    /// that cannot be read or written costs the chart's past and a warning, never the
    /// report; a report that cannot be written is `reportError`.
    func publish(_ report: RunReport, layout: ProjectLayout, recordsHistory: Bool = true) async -> (warnings: [String], reportError: Error?) {
        var warnings: [String] = []
        var history: (any RunRecords)?
        var passRates: [PassRatePoint] = []
        do {
            history = try openHistory()
            passRates = try history?.passRates(limit: 29) ?? []
            if !recordsHistory { history = nil }
        } catch {
            warnings.append("\(error)")
        }
        passRates.append(PassRatePoint(runID: report.run.id, rate: RunHistory.passRate(of: report)))
        let reportFolder = layout.displayPath(of: reports.root.appendingPathComponent(report.run.id, isDirectory: true))
        let recording = Task.detached { [history] () -> String? in
            do {
                try history?.record(report, reportFolder: reportFolder)
                return nil
            } catch {
                return "\(error)"
            }
        }
        var reportError: Error?
        do {
            try reports.write(report, history: passRates)
        } catch {
            reportError = error
        }
        if let problem = await recording.value { warnings.append(problem) }
        return (warnings, reportError)
    }
}

extension Evaluation.Stores {
    /// Sets what the reviewers' side says of `report`: its agreement with their labels,
    /// and the approved outputs that fail a safety check, with the gate's verdict
    /// judged again with them. Returns warnings: a label file or the safety policy
    /// that cannot be read.
    func judgeAgainstReviewers(_ report: inout RunReport, layout: ProjectLayout) -> [String] {
        var warnings: [String] = []
        let labelWarning: String?
        (report.agreement, labelWarning) = agreement(of: report)
        if let labelWarning { warnings.append(labelWarning) }
        do {
            report.approvedSafetyFailures = approvedSafetyFailures(in: report, policy: try SafetyPolicy.load(layout: layout))
        } catch {
            warnings.append("approved safety failures were not counted: \(error)")
        }
        report.totals.passesGate = report.passes(.ci)
        return warnings
    }

    /// The checks against reviewers' labels of the outputs `report` judged; nil when
    /// none is labelled, with a warning when a label file cannot be read.
    func agreement(of report: RunReport) -> (Agreement?, warning: String?) {
        let labelled: [Labelled]
        do {
            labelled = try golden.labelled()
        } catch {
            return (nil, "reviewers' labels were left out of the report: \(error)")
        }
        guard !labelled.isEmpty else { return (nil, nil) }
        let agreement = Agreement(labelled: labelled, judged: report.judgedOutputs)
        return (agreement.isEmpty ? nil : agreement, nil)
    }

    /// The approved outputs `report` judged that fail a safety check, each with the
    /// reason that allows it, if one covers the output as it is; nil when there are none.
    func approvedSafetyFailures(in report: RunReport, policy: SafetyPolicy) -> [RunReport.ApprovedSafetyFailure]? {
        guard !policy.rules.isEmpty else { return nil }
        var found: [RunReport.ApprovedSafetyFailure] = []
        for fixture in report.fixtures {
            for step in fixture.steps where [.knownFailure, .unapprovedCheck].contains(step.status) {
                var failing = Set(step.checks.filter { !$0.passed }.map(\.name))
                if step.outcome == .invalid { failing.insert(GoldenEntry.usableOutputCheck) }
                let checks = failing.filter { policy.rule(for: $0) != nil }.sorted()
                guard !checks.isEmpty else { continue }
                let key = StepKey(fixture: fixture.name, step: step.id)
                let approved = try? golden.approved(key)
                let allowance = (try? golden.allowance(key)) ?? nil
                let covering = approved.flatMap { entry in allowance.flatMap { $0.covers(entry, failing: checks) ? $0 : nil } }
                found.append(RunReport.ApprovedSafetyFailure(step: key.description, checks: checks, allowedBecause: covering?.reason))
            }
        }
        return found.isEmpty ? nil : found
    }
}
