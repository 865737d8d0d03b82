import Foundation
/// A fixed-width text table for terminals and logs: columns of numbers (counts,
/// percentages, seconds, dollars) right-aligned, text left-aligned, nothing cut.
public struct TextTable: Sendable {
    public var header: [String]
    public var rows: [[String]]
    /// Rows drawn under a rule after the others, such as a total.
    public var footer: [[String]]

    public init(header: [String], rows: [[String]], footer: [[String]] = []) {
        self.header = header
        self.rows = rows
        self.footer = footer
    }

    public var rendered: String {
        let all = [header] + rows + footer
        let widths = header.indices.map { column in all.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        let numeric = header.indices.map { column in
            column > 0 && (rows + footer).allSatisfy { column >= $0.count || Self.isNumber($0[column]) }
        }
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { column, cell in
                numeric[column] ? String(repeating: " ", count: max(0, widths[column] - cell.count)) + cell
                    : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            var text = padded.joined(separator: "  ")
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        var lines = ([header] + rows).map(line)
        if !footer.isEmpty {
            let rule = String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1))
            lines.append(rule)
            lines += footer.map(line)
        }
        return lines.joined(separator: "\n")
    }

    /// `12`, `3.5`, `87%`, `1.2s`, `$0.04` or `-` (no value).
    static func isNumber(_ cell: String) -> Bool {
        var text = Substring(cell)
        if text == "-" { return true }
        if text.hasPrefix("$") { text = text.dropFirst() }
        if text.hasSuffix("%") || text.hasSuffix("s") { text = text.dropLast() }
        return !text.isEmpty && Double(text) != nil
    }
}
