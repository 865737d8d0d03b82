/// A unified diff of two texts by lines, for a person to read in a test failure.
///
/// Only changed lines are shown, with a few lines of context and an
/// `@@ -line,count +line,count @@` header per hunk. A long line (a report's HTML
/// body is one line) is cut to a window around its first change, and the whole
/// diff stops after `lineLimit` lines.
struct LineDiff {
    /// Unchanged lines shown before and after each change.
    static let context = 3
    /// Lines of diff shown before the rest is only counted.
    static let lineLimit = 60
    /// Characters shown of each line.
    static let width = 160
    /// Characters kept before a line's first change when it is cut.
    static let lead = 60
    /// Above this many line pairs in the changed middle, the middle is shown as replaced whole.
    static let comparisonLimit = 4_000_000

    /// The lines, without the empty piece after a final line break.
    let expected: [Substring]
    let actual: [Substring]
    /// One text ends with a line break and the other does not.
    let finalLineBreakDiffers: Bool

    init(expected: String, actual: String) {
        self.expected = Self.lines(of: expected)
        self.actual = Self.lines(of: actual)
        finalLineBreakDiffers = expected.hasSuffix("\n") != actual.hasSuffix("\n")
    }

    private static func lines(of text: String) -> [Substring] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return text.hasSuffix("\n") ? Array(lines.dropLast()) : lines
    }

    /// One line of the diff: kept, only in the expected text, or only in the actual one.
    enum Edit: Equatable {
        case same(expected: Int, actual: Int)
        case removed(expected: Int)
        case added(actual: Int)

        var isChange: Bool {
            if case .same = self { return false }
            return true
        }
    }

    /// Where the texts first differ, 1-based, or nil when they are the same.
    var firstDifference: (line: Int, column: Int)? {
        for index in 0..<max(expected.count, actual.count) {
            let old = index < expected.count ? expected[index] : nil
            let new = index < actual.count ? actual[index] : nil
            if old != new { return (index + 1, Self.commonPrefixLength(old ?? "", new ?? "") + 1) }
        }
        return nil
    }

    /// The diff as text: `-` expected, `+` actual, ` ` context.
    var unified: String {
        let edits = self.edits
        let changes = edits.indices.filter { edits[$0].isChange }
        guard let firstChange = changes.first else { return "" }
        // Hunks: changes with no more than twice the context between them share one.
        var hunks: [ClosedRange<Int>] = []
        var start = firstChange
        var end = firstChange
        for index in changes.dropFirst() {
            if index - end - 1 > 2 * Self.context {
                hunks.append(start...end)
                start = index
            }
            end = index
        }
        hunks.append(start...end)

        var lines: [String] = []
        for hunk in hunks {
            let range = max(0, hunk.lowerBound - Self.context)...min(edits.count - 1, hunk.upperBound + Self.context)
            lines.append(header(for: edits[range]))
            lines += render(Array(edits[range]))
        }
        guard lines.count > Self.lineLimit else { return lines.joined(separator: "\n") }
        return (lines.prefix(Self.lineLimit) + ["… \(lines.count - Self.lineLimit) more lines of diff"]).joined(separator: "\n")
    }

    /// Every line of both texts in order, as a shortest edit: the longest common
    /// subsequence of the lines between a common head and a common tail.
    var edits: [Edit] {
        var head = 0
        while head < expected.count, head < actual.count, expected[head] == actual[head] { head += 1 }
        var tail = 0
        while tail < expected.count - head, tail < actual.count - head,
              expected[expected.count - 1 - tail] == actual[actual.count - 1 - tail] { tail += 1 }
        let old = Array(expected[head..<(expected.count - tail)])
        let new = Array(actual[head..<(actual.count - tail)])

        var edits = (0..<head).map { Edit.same(expected: $0, actual: $0) }
        if old.count * new.count > Self.comparisonLimit {
            edits += old.indices.map { .removed(expected: head + $0) } + new.indices.map { .added(actual: head + $0) }
        } else {
            // common[i][j]: the longest common subsequence of old[i...] and new[j...].
            var common = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
            for i in old.indices.reversed() {
                for j in new.indices.reversed() {
                    common[i][j] = old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
                }
            }
            var i = 0
            var j = 0
            while i < old.count || j < new.count {
                if i < old.count, j < new.count, old[i] == new[j] {
                    edits.append(.same(expected: head + i, actual: head + j))
                    i += 1
                    j += 1
                } else if j == new.count || (i < old.count && common[i + 1][j] >= common[i][j + 1]) {
                    edits.append(.removed(expected: head + i))
                    i += 1
                } else {
                    edits.append(.added(actual: head + j))
                    j += 1
                }
            }
        }
        edits += (0..<tail).map { Edit.same(expected: expected.count - tail + $0, actual: actual.count - tail + $0) }
        return edits
    }

    /// `@@ -first,count +first,count @@` for a hunk's edits, 1-based as `diff -u` writes it.
    private func header(for edits: ArraySlice<Edit>) -> String {
        var oldLines: [Int] = []
        var newLines: [Int] = []
        for edit in edits {
            switch edit {
            case .same(let old, let new): oldLines.append(old); newLines.append(new)
            case .removed(let old): oldLines.append(old)
            case .added(let new): newLines.append(new)
            }
        }
        func span(_ lines: [Int]) -> String { "\((lines.first ?? -1) + 1),\(lines.count)" }
        return "@@ -\(span(oldLines)) +\(span(newLines)) @@"
    }

    /// A hunk's lines. A removed line and the added line that replaces it are cut at
    /// the same place, around where they first differ.
    private func render(_ edits: [Edit]) -> [String] {
        var lines: [String] = []
        var index = 0
        while index < edits.count {
            if case .same(let old, _) = edits[index] {
                lines.append(" " + Self.cut(expected[old], from: 0))
                index += 1
                continue
            }
            var removed: [Int] = []
            var added: [Int] = []
            while index < edits.count, edits[index].isChange {
                switch edits[index] {
                case .removed(let old): removed.append(old)
                case .added(let new): added.append(new)
                case .same: break
                }
                index += 1
            }
            func start(_ pair: Int) -> Int {
                guard pair < removed.count, pair < added.count else { return 0 }
                return max(0, Self.commonPrefixLength(expected[removed[pair]], actual[added[pair]]) - Self.lead)
            }
            lines += removed.enumerated().map { "-" + Self.cut(expected[$0.element], from: start($0.offset)) }
            lines += added.enumerated().map { "+" + Self.cut(actual[$0.element], from: start($0.offset)) }
        }
        return lines
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
