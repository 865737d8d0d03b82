import Checks
import Foundation
import Golden
import History
import Intake
import Reports

/// `merge RUN...`: the report folders of shard runs (`run --shard K/N`, one per CI
/// machine) joined into the run they split: one report folder with all four files,
/// one history row, and the gate decided over the whole.
public struct ShardMerge: Sendable {
    /// Each part's report, with the folder it was read from.
    public let parts: [(folder: URL, report: RunReport)]

    /// Reads each run's `results.json`. A run is a report folder, a `results.json`
    /// file, or a run id under `Reports/`.
    public init(runs: [String], layout: ProjectLayout) throws(MergeError) {
        var parts: [(URL, RunReport)] = []
        for run in runs {
            let given = URL(fileURLWithPath: run)
            var candidates = [given.lastPathComponent == "results.json" ? given.deletingLastPathComponent() : given]
            if !run.contains("/") { candidates.append(layout.reports.appendingPathComponent(run, isDirectory: true)) }
            guard let folder = candidates.first(where: { FileManager.default.fileExists(atPath: $0.appendingPathComponent("results.json").path) }) else {
                throw MergeError.notARun(run)
            }
            let file = folder.appendingPathComponent("results.json")
            do {
                parts.append((folder.resolvingSymlinksInPath(), try ReportWriter.decode(Data(contentsOf: file))))
            } catch {
                throw MergeError.unreadable(path: layout.displayPath(of: file), reason: "\(error)")
            }
        }
        self.parts = parts
    }

    /// Why the runs are not pieces of one run; empty when they are.
    public var mismatches: [String] { RunReport.mismatches(among: parts.map(\.report)) }

    public struct Outcome: Sendable {
        public var report: RunReport
        public var folder: URL
        /// Problems that did not stop the merge (an unwritable history).
        public var warnings: [String]

        /// 0 when the merged gate passes, 1 when it fails: under `--ci`, anything the
        /// gate rejects; otherwise regressions, stale recordings, errors and a pass rate
        /// below `--min-pass-rate`. An interrupted shard fails it: its unfinished steps
        /// were never judged.
        public var exitStatus: Int32 {
            let mode = Gate.Mode(ci: report.run.ci)
            return Gate.exitStatus(passes: !report.run.interrupted && report.passes(mode), mode: mode).rawValue
        }
    }

    /// Writes the merged run to `stores` (report folder and history), refusing runs
    /// that do not belong together unless `force`.
    public func write(to stores: Evaluation.Stores, layout: ProjectLayout, force: Bool = false, now: Date = Date()) async throws(MergeError) -> Outcome {
        let problems = mismatches
        guard force || problems.isEmpty else { throw MergeError.mismatched(problems) }
        let reports = parts.map(\.report)
        let provider = reports.first.map { Self.runIDWord($0.run.provider) } ?? "run"
        let id = stores.reports.availableRunID(startedAt: now, provider: provider + "-merged")
        var merged = RunReport.merging(reports, id: id)
        // The programs side by side are judged over every shard's programs together.
        merged.judgeSuite(rules: (try? CoachingKnowledge.load(layout: layout))?.advice.suiteSameness)
        if force, !problems.isEmpty { merged.run.warnings += problems.map { "merged with --force despite \($0)" } }
        merged.run.warnings += stores.judgeAgainstReviewers(&merged, layout: layout)
        let folder = stores.reports.root.appendingPathComponent(id, isDirectory: true)
        let (warnings, reportError) = await stores.publish(merged, layout: layout)
        if let reportError {
            throw MergeError.unwritable(path: layout.displayPath(of: folder), reason: reportError.localizedDescription)
        }
        return Outcome(report: merged, folder: folder, warnings: warnings)
    }

    /// A provider kind as a run id may spell it: lower-case letters, digits and dashes.
    private static func runIDWord(_ text: String) -> String {
        String(text.lowercased().map { ($0.isLetter && $0.isASCII) || $0.isNumber ? $0 : "-" })
    }
}

/// Runs that cannot be merged.
public enum MergeError: Error, Sendable, CustomStringConvertible {
    case notARun(String)
    case unreadable(path: String, reason: String)
    case mismatched([String])
    case unwritable(path: String, reason: String)

    public var description: String {
        switch self {
        case .notARun(let run):
            return "`\(run)` is not a run: give a report folder holding results.json (such as Reports/latest) or a run id under Reports/."
        case .unreadable(let path, let reason):
            return "\(path) cannot be read as a run's results (\(reason))."
        case .mismatched(let problems):
            return "These runs are not shards of one run:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
                + "\nMerge the runs of one commit, prompts and provider, or pass --force to merge them anyway."
        case .unwritable(let path, let reason):
            return "Could not write the merged report to \(path): \(reason)."
        }
    }
}
