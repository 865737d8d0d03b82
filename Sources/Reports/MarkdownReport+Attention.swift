import Golden

extension MarkdownReport {
    /// "Needs attention": one entry per step (or per group of steps failing for the
    /// same reason), worst first, each reason on its own line and each multi-line
    /// detail in a fenced block, shown once however many steps share it.
    static func attention(_ report: RunReport) -> [String] {
        let groups = report.attentionGroups
        let gaps = report.languageGaps ?? []
        let sameness = report.failingSuiteChecks
        guard !groups.isEmpty || !gaps.isEmpty || !sameness.isEmpty else { return [] }
        var lines = ["", "### Needs attention", ""]
        lines += gaps.map { "- **language** \(code($0.fixture)): " + inline($0.consequence) }
        lines += sameness.map { "- **sameness** \(code($0.name)): " + inline($0.message) }
        var shown: [String: String] = [:]
        for group in groups.prefix(stepLimit) {
            lines += group.steps.count == 1 ? entry(group.steps[0], shown: &shown) : entry(group, shown: &shown)
        }
        let rest = groups.dropFirst(stepLimit)
        if !rest.isEmpty {
            let names = rest.flatMap(\.steps).map(\.name)
            lines.append("- … and \(names.count) more in index.html: " + names.prefix(40).map(code).joined(separator: ", ")
                + (names.count > 40 ? ", …" : ""))
        }
        if !report.nextSteps.isEmpty { lines += ["", "**Next:** " + report.nextSteps.joined(separator: " ")] }
        return lines
    }

    private static func entry(_ listed: ListedStep, shown: inout [String: String]) -> [String] {
        var lines = ["- **\(listed.step.status.label)** \(code(listed.name))"]
        for reason in listed.step.reasons.prefix(6) {
            let (headline, details) = ReportText.split(reason)
            lines.append("  - " + inline(headline))
            if let details { lines += block(details, of: listed.name, shown: &shown) }
        }
        if let diff = listed.step.diff?.output ?? listed.step.diff?.markdown {
            lines += block(diff, of: listed.name, shown: &shown)
        }
        return lines
    }

    /// Steps that share a reason: their names, the reason once, and the first step's details.
    private static func entry(_ group: AttentionGroup, shown: inout [String: String]) -> [String] {
        let first = group.steps[0]
        var lines = ["- **\(group.status.label)** \(group.steps.count) steps: " + group.steps.map { code($0.name) }.joined(separator: ", "),
                     "  - " + inline(group.summary)]
        let details = first.step.reasons.compactMap { ReportText.split($0).details }
        for detail in details { lines += block(detail, of: first.name, shown: &shown) }
        if !details.isEmpty {
            let allSame = group.steps.allSatisfy { $0.step.reasons.compactMap { ReportText.split($0).details } == details }
            lines.append("    " + (allSame ? "The same for every step above." : "Shown for \(code(first.name)); index.html has each step's."))
        }
        return lines
    }

    /// A fenced block under an entry (a diff is marked as one), cut after
    /// `diffLineLimit` lines; a block already shown is named instead of repeated.
    private static func block(_ text: String, of step: String, shown: inout [String: String]) -> [String] {
        if let earlier = shown[text] { return ["    (the same as for \(code(earlier)) above)"] }
        shown[text] = step
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let fence = String(repeating: "`", count: max(3, longestBacktickRun(in: text) + 1))
        var block = ["", "    " + fence + (ReportText.looksLikeDiff(text) ? "diff" : "text")]
        block += lines.prefix(diffLineLimit).map { "    " + $0 }
        if lines.count > diffLineLimit { block.append("    … \(lines.count - diffLineLimit) more lines in index.html") }
        return block + ["    " + fence, ""]
    }

    /// One line of a message as markdown: its code spans and tags as code, and
    /// everything else escaped so that nothing in it turns into markup.
    static func inline(_ text: String) -> String {
        ReportText.pieces(text).map { piece in
            switch piece {
            case .code(let content): code(content)
            case .text(let content): escaped(content)
            }
        }.joined()
    }

    /// The characters Markdown would read as markup, backslash-escaped. They are all
    /// ASCII, so the text is escaped byte by byte: a large run's report escapes thousands of lines.
    private static func escaped(_ text: String) -> String {
        let markup = Array("\\`*_[]<>|~#".utf8)
        guard text.utf8.contains(where: markup.contains) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            if markup.contains(byte) { bytes.append(UInt8(ascii: "\\")) }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A code span that holds any text, backticks included.
    static func code(_ text: String) -> String {
        let ticks = String(repeating: "`", count: longestBacktickRun(in: text) + 1)
        let padding = text.hasPrefix("`") || text.hasSuffix("`") ? " " : ""
        return ticks + padding + text + padding + ticks
    }

    private static func longestBacktickRun(in text: String) -> Int {
        var longest = 0, run = 0
        for byte in text.utf8 {
            run = byte == UInt8(ascii: "`") ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }

    /// A table cell: one line, its pipes escaped.
    static func tableCell(_ text: String) -> String {
        inline(ReportText.split(text).headline)
    }
}
