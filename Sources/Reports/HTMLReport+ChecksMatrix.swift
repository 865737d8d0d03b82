extension HTMLReport {
    /// Up to this many cells the matrix opens by itself; a larger one opens only
    /// when a check fails anew.
    static let matrixOpenLimit = 200
    /// Above this many fixtures, the matrix shows only the columns of fixtures where a
    /// check failed anew (at most this many): the tallies still count every fixture.
    static let matrixColumnLimit = 100

    /// The checks matrix: one row per check, the most failing first, one column
    /// per fixture, each cell the check's result over that fixture's steps. Empty
    /// when no step produced a check.
    static func checksMatrix(_ report: RunReport) -> String {
        let matrix = ChecksMatrix(report)
        guard !matrix.rows.isEmpty else { return "" }
        let open = matrix.hasNewFailures || matrix.rows.count * matrix.fixtures.count <= matrixOpenLimit
        let failing = matrix.rows.filter { $0.failing > 0 }.count
        let anew = matrix.rows.filter { $0.newFailures > 0 }.count
        let summary = "\(matrix.rows.count) check\(matrix.rows.count == 1 ? "" : "s") × \(matrix.fixtures.count) fixture\(matrix.fixtures.count == 1 ? "" : "s")"
            + " · \(failing) fail in some fixture, " + (anew > 0 ? "\(anew) anew" : "none anew")
        var shown = Array(matrix.fixtures.indices)
        var note = ""
        if shown.count > matrixColumnLimit {
            let anewColumns = shown.filter { column in matrix.rows.contains { $0.states[column] == .fail } }
            shown = Array(anewColumns.prefix(matrixColumnLimit))
            note = "<p class=\"meta\">\(matrix.fixtures.count) fixtures are too many columns: shown are "
                + (anewColumns.isEmpty ? "none, since no check failed anew" : "the \(shown.count) where a check failed anew" + (anewColumns.count > shown.count ? " (of \(anewColumns.count))" : ""))
                + "; the tallies count every fixture.</p>"
        }
        let columns = shown.map { column -> String in
            let fixture = matrix.fixtures[column]
            let failed = matrix.rows.filter { [.fail, .known].contains($0.states[column]) }.count
            return "<th scope=\"col\" class=\"fixture-col\" title=\"\(HTML.escape("\(fixture) · \(failed) check\(failed == 1 ? "" : "s") fail"))\">"
                + "<a href=\"#\(HTML.escape(fixture))\">\(HTML.escape(fixture))</a></th>"
        }.joined()
        let rows = matrix.rows.map { matrixRow($0, columns: shown, in: matrix) }.joined()
        return """
            <section class="matrix" id="checks-matrix"><details\(open ? " open" : "")><summary><h2>Checks matrix</h2> \
            <span class="meta">\(summary)</span></summary>\(matrixLegend)\(note)\
            <div class="matrix-scroll"><table><thead><tr><th scope="col" class="corner">check · fixtures failing</th>\(columns)</tr></thead>\
            <tbody>\(rows)</tbody></table></div></details></section>
            """
    }

    private static let matrixLegend: String = {
        let symbols = ChecksMatrix.State.allCases.map { state in
            "<span><span class=\"cell m-\(state.rawValue)\">\(symbol(state))</span> \(HTML.escape(legendText(state)))</span>"
        }.joined()
        return "<p class=\"legend matrix-legend\">\(symbols)</p>"
    }()

    private static func legendText(_ state: ChecksMatrix.State) -> String {
        switch state {
        case .fail: "fail: a step failed it and passed it in golden, or golden has no result"
        case .known: "known failure: failed in golden too"
        case .pass: "pass: every step passed"
        case .notRun: "not run: no step produced it"
        }
    }

    private static func symbol(_ state: ChecksMatrix.State) -> String {
        switch state {
        case .fail: "✗"
        case .known: "≈"
        case .pass: "✓"
        case .notRun: ""
        }
    }

    private static func matrixRow(_ row: ChecksMatrix.Row, columns: [Int], in matrix: ChecksMatrix) -> String {
        var tally = "· \(row.failing) of \(row.ran) fail"
        if row.newFailures > 0 { tally += " (\(row.newFailures) new)" }
        let header = "<th scope=\"row\" title=\"\(HTML.escape(row.name))\"><div class=\"check-name\"><code>\(HTML.escape(row.name))</code>"
            + "<span class=\"tally\(row.newFailures > 0 ? " bad" : "")\">\(tally)</span></div></th>"
        return "<tr>" + header + columns.map { matrixCell(matrix.cell(row, $0), check: row.name) }.joined() + "</tr>"
    }

    private static func matrixCell(_ cell: ChecksMatrix.Cell, check: String) -> String {
        let state = cell.state
        var lines = ["\(cell.fixture) · \(check): \(state.label)"]
        for run in cell.runs {
            guard !run.check.passed else {
                lines.append("\(run.step): passed")
                continue
            }
            let golden = switch run.check.passedInGolden {
            case true?: "passed in golden"
            case false?: "failed in golden too"
            case nil: "no golden result"
            }
            lines.append("\(run.step): failed (\(golden)): \(ReportText.headline(run.check.message))")
        }
        let title = HTML.escape(lines.joined(separator: "\n"))
        let target: String? = switch state {
        case .fail, .known: cell.firstFailure.map { ListedStep.name(fixture: cell.fixture, step: $0.step) }
        case .pass: cell.fixture
        case .notRun: nil
        }
        let mark = symbol(state)
        let content = target.map { "<a href=\"#\(HTML.escape($0))\">\(mark)</a>" } ?? mark
        return "<td class=\"cell m-\(state.rawValue)\" title=\"\(title)\">\(content)</td>"
    }
}
