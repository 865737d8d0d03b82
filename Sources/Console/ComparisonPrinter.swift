import Reports

/// Prints `compare`'s answer: the headline and counts, the cases only one run
/// produced, the paired verdict, what each check did, and each changed case,
/// regressions red and improvements green.
public struct ComparisonPrinter {
    let out: Terminal

    public init(out: Terminal) {
        self.out = out
    }

    /// `all` lists the unchanged cases too.
    public func print(_ comparison: RunComparison, all: Bool) {
        out.writeLine("\(ComparisonReport.headline(comparison)): \(ComparisonReport.summaryLine(comparison))")
        if let unpaired = ComparisonReport.unpairedLine(comparison) { out.writeLine(unpaired) }
        out.writeLine(ComparisonReport.verdictLine(comparison))
        if let shortfall = ComparisonReport.shortfallLine(comparison) { out.writeLine(shortfall) }
        if let repeats = ComparisonReport.repeatsLine(comparison) { out.writeLine(repeats) }
        for line in ComparisonReport.checkLines(comparison) { out.writeLine(line) }
        for line in ComparisonReport.lines(comparison) {
            let color: Terminal.Style? = line.hasPrefix("regressed") ? .red : line.hasPrefix("improved") ? .green : nil
            out.writeLine(color.map { out.styled(line, $0) } ?? line)
        }
        guard all else { return }
        for item in comparison.cases where item.change == .unchanged { out.writeLine("unchanged \(item.key)") }
    }
}
