import Diff

/// How a snapshot and the rendered text differ, for a person reading a test failure:
/// the unified diff of `Diff.LineDiff`, with each long line cut to a window around
/// its first change (a report's HTML body is one line), capped at `lineLimit` lines.
struct SnapshotDiff {
    /// Lines of diff shown before the rest is only counted.
    static let lineLimit = 60
    /// Characters shown of each line.
    static let width = 160
    /// Characters kept before a line's first change when it is cut.
    static let lead = 60

    let expected: String
    let actual: String

    init(expected: String, actual: String) {
        self.expected = expected
        self.actual = actual
    }

    /// One text ends with a line break and the other does not.
    var finalLineBreakDiffers: Bool { expected.hasSuffix("\n") != actual.hasSuffix("\n") }

    /// Where the texts first differ, 1-based, or nil when every line is the same.
    var firstDifference: (line: Int, column: Int)? {
        let old = Self.lines(of: expected), new = Self.lines(of: actual)
        for index in 0..<max(old.count, new.count) {
            let before = index < old.count ? old[index] : nil
            let after = index < new.count ? new[index] : nil
            if before != after { return (index + 1, Self.commonPrefixLength(before ?? "", after ?? "") + 1) }
        }
        return nil
    }

    /// The diff as text: `-` expected, `+` actual, ` ` context, `@@` hunk headers.
    var unified: String {
        let diff = LineDiff(old: Self.lines(of: expected).joined(separator: "\n"), new: Self.lines(of: actual).joined(separator: "\n"))
        // Without the `--- old` and `+++ new` file names: the message names the file.
        var rows = diff.unified(context: 3).split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2)
        var lines: [String] = []
        while let row = rows.first {
            guard row.hasPrefix("-") || row.hasPrefix("+") else {
                lines.append(row.hasPrefix(" ") ? " " + Self.cut(row.dropFirst(), from: 0) : String(row))
                rows.removeFirst()
                continue
            }
            // A run of removed lines and the added lines that replace them, cut at the same
            // place: around where each pair first differs.
            let removed = rows.prefix { $0.hasPrefix("-") }.map { $0.dropFirst() }
            rows.removeFirst(removed.count)
            let added = rows.prefix { $0.hasPrefix("+") }.map { $0.dropFirst() }
            rows.removeFirst(added.count)
            func start(_ pair: Int) -> Int {
                guard pair < removed.count, pair < added.count else { return 0 }
                return max(0, Self.commonPrefixLength(removed[pair], added[pair]) - Self.lead)
            }
            lines += removed.enumerated().map { "-" + Self.cut($0.element, from: start($0.offset)) }
            lines += added.enumerated().map { "+" + Self.cut($0.element, from: start($0.offset)) }
        }
        guard lines.count > Self.lineLimit else { return lines.joined(separator: "\n") }
        return (lines.prefix(Self.lineLimit) + ["… \(lines.count - Self.lineLimit) more lines of diff"]).joined(separator: "\n")
    }

    /// The lines, without the empty piece after a final line break.
    private static func lines(of text: String) -> [Substring] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return text.hasSuffix("\n") ? Array(lines.dropLast()) : lines
    }

    /// `width` characters of `line` from character `start`, with `…` where it was cut.
    static func cut(_ line: Substring, from start: Int) -> String {
        let characters = Array(line)
        guard start > 0 || characters.count > width else { return String(line) }
        let from = min(start, characters.count)
        let to = min(characters.count, from + width)
        return (from > 0 ? "…" : "") + String(characters[from..<to]) + (to < characters.count ? "…" : "")
    }

    /// How many characters two lines share at the start.
    static func commonPrefixLength(_ first: Substring, _ second: Substring) -> Int {
        zip(first, second).prefix { $0 == $1 }.count
    }
}
