import Foundation
import Golden

/// The agreement's figures as table rows, the same in the terminal, `report.md` and `index.html`.
extension Agreement {
    public static let tableHeader = ["output", "labelled", "caught", "blind spots", "false alarms", "both pass", "agreement", "κ (95% interval)"]

    /// What the columns count.
    public static let legend = "caught: a reviewer rejects and a check fails; blind spot: a reviewer rejects and every check passes; "
        + "false alarm: a reviewer signs and a check fails; both pass: a reviewer signs and every check passes."

    /// One row per kind of output, then all of them.
    public var tableRows: [[String]] {
        matrices.map { matrix in
            [matrix.kind, "\(matrix.count)", "\(matrix.caught)", "\(matrix.blindSpots)", "\(matrix.falseAlarms)", "\(matrix.passed)",
             Self.percent(matrix.agreement), Self.kappaText(matrix)]
        }
    }

    public static let checkTableHeader = ["check", "fails", "rejected", "precision"]

    /// Each check that failed a labelled output, most failures first: of the outputs it
    /// fails, how many a reviewer rejected.
    public var checkTableRows: [[String]] {
        checks.sorted { ($1.failed, $0.check) < ($0.failed, $1.check) }.map { record in
            [record.check, "\(record.failed)", "\(record.rejected)", Self.percent(record.precision)]
        }
    }

    /// `12.5%`, or `–` when there is nothing to take a share of.
    public static func percent(_ value: Double?) -> String {
        value.map { String(format: "%.1f%%", $0 * 100) } ?? "–"
    }

    /// `0.40 (0.15 to 0.65)`, or why κ is undefined.
    public static func kappaText(_ matrix: Matrix) -> String {
        guard let kappa = matrix.kappa else {
            return matrix.count == 0 ? "–" : "undefined: one class only"
        }
        // Two decimals, without the "-0.00" a rounding error below zero would print.
        func text(_ value: Double) -> String { String(format: "%.2f", abs(value) < 0.005 ? 0 : value) }
        let interval = matrix.kappaLower.flatMap { lower in matrix.kappaUpper.map { " (\(text(lower)) to \(text($0)))" } } ?? ""
        return text(kappa) + interval
    }
}
