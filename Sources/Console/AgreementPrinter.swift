import Foundation
import Evaluation
import Golden
import Intake
import JSONSchema
import Reports

/// Prints `agreement`: the checks against reviewers' labels, as text or as JSON.
public struct AgreementPrinter {
    let terminal: Terminal

    public init(terminal: Terminal) {
        self.terminal = terminal
    }

    /// The agreement as JSON, the same object `results.json` holds under `agreement`.
    public func printJSON(_ agreement: Agreement?) throws {
        let value = try agreement.map { try JSONValueEncoder().encode($0) } ?? .null
        terminal.writeLine(value.serialized(.prettySorted))
    }

    /// The matrix per kind of output with κ, each check's precision, the blind spots by
    /// reason, the false alarms by check, and the labels that were not counted.
    public func printText(_ agreement: Agreement?, labels: Int) {
        guard let agreement, labels > 0 else {
            terminal.writeLine("No output is labelled yet: `\(Invocation.command) label FIXTURE STEP sign|reject --reason R` labels one.")
            return
        }
        let overall = agreement.overall
        terminal.writeLine("Checks against reviewers: \(overall.count) labelled outputs judged"
            + (agreement.stale.isEmpty ? "" : ", \(agreement.stale.count) stale")
            + (agreement.notJudged.isEmpty ? "" : ", \(agreement.notJudged.count) not judged") + ".")
        terminal.writeLine("")
        terminal.writeLine(TextTable(header: Agreement.tableHeader, rows: agreement.tableRows).rendered)
        terminal.writeLine(Agreement.legend)

        if !agreement.checks.isEmpty {
            terminal.writeLine("")
            terminal.writeLine("Each check against reviewer rejections (of the labelled outputs it fails, how many a reviewer rejected):")
            terminal.writeLine(TextTable(header: Agreement.checkTableHeader, rows: agreement.checkTableRows).rendered)
        }

        terminal.writeLine("")
        if agreement.blindSpots.isEmpty {
            terminal.writeLine("Blind spots: none (every output a reviewer rejected fails a check).")
        } else {
            terminal.writeLine(terminal.styled("Blind spots", .yellow) + " (a reviewer rejects, every check passes), by reason:")
            for group in agreement.blindSpots { terminal.writeLine(Self.groupLine(group)) }
        }
        if agreement.falseAlarms.isEmpty {
            terminal.writeLine("False alarms: none (no signed output fails a check).")
        } else {
            terminal.writeLine(terminal.styled("False alarms", .yellow) + " (a reviewer signs, a check fails), by check:")
            for group in agreement.falseAlarms { terminal.writeLine(Self.groupLine(group)) }
        }
        if !agreement.stale.isEmpty {
            terminal.writeLine("")
            terminal.writeLine(terminal.styled("Stale labels", .yellow) + " (the output changed since; not counted, label it again):")
            terminal.writeLine("  " + agreement.stale.joined(separator: ", "))
        }
        if !agreement.notJudged.isEmpty {
            terminal.writeLine("")
            terminal.writeLine("Not judged (this run's output is not the approved one the label judges): " + agreement.notJudged.joined(separator: ", "))
        }
    }

    /// What kept outputs from being judged: unreadable label files, missing or stale recordings.
    public func printProblems(_ measure: Project.AgreementMeasure, to err: Terminal) {
        for warning in measure.warnings { err.writeLine("warning: \(warning)") }
        if !measure.unreplayable.isEmpty {
            err.writeLine("warning: \(measure.unreplayable.count) step(s) have a missing or stale recording, so their outputs were not judged: "
                + measure.unreplayable.prefix(5).joined(separator: ", ") + (measure.unreplayable.count > 5 ? ", ..." : "")
                + ". `\(Invocation.command) run` says how to re-record them.")
        }
    }

    /// Why the agreement falls short of `minimum`, overall or for a kind of output; nil
    /// when it does not. No labelled output at all falls short too.
    public static func shortfall(of agreement: Agreement?, minimum: Double, judge: String = "the checks agree") -> String? {
        guard let agreement, agreement.overall.count > 0 else {
            return "--min-agreement \(minimum): no labelled output was judged, so there is no agreement to gate on."
        }
        let below = agreement.matrices.filter { ($0.agreement ?? 0) < minimum }
        guard !below.isEmpty else { return nil }
        return "\(judge) with the reviewers on less than \(Agreement.percent(minimum)): "
            + below.map { "\($0.kind) \(Agreement.percent($0.agreement)) of \($0.count)" }.joined(separator: ", ") + "."
    }

    static func groupLine(_ group: Agreement.Group) -> String {
        let shown = group.outputs.prefix(12).joined(separator: ", ")
        let more = group.outputs.count > 12 ? ", and \(group.outputs.count - 12) more" : ""
        return "  \(group.name) (\(group.outputs.count)): \(shown)\(more)"
    }
}
