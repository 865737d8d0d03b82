/// A fixed-width text table for terminals and logs: the first column left-aligned,
/// the others right-aligned.
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
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                column == 0 ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: max(0, widths[column] - cell.count)) + cell
            }.joined(separator: "  ")
        }
        var lines = ([header] + rows).map(line)
        if !footer.isEmpty {
            let rule = String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1))
            lines.append(rule)
            lines += footer.map(line)
        }
        return lines.joined(separator: "\n")
    }
}
