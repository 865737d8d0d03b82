/// A line-by-line diff of two texts, printed in unified format.
public struct LineDiff: Sendable, Hashable {
    public enum Line: Sendable, Hashable {
        case same(String)
        case removed(String)
        case added(String)
    }

    public let lines: [Line]

    /// Diffs `old` against `new` by longest common subsequence of lines.
    public init(old: String, new: String) {
        let before = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let after = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Trim the common head and tail first: edits are usually small and local.
        let (head, tail) = commonAffixLengths(before, after)
        let middleBefore = Array(before[head..<(before.count - tail)])
        let middleAfter = Array(after[head..<(after.count - tail)])
        lines = before[..<head].map(Line.same) + Self.lcsDiff(middleBefore, middleAfter)
            + before[(before.count - tail)...].map(Line.same)
    }

    public var hasChanges: Bool {
        lines.contains { if case .same = $0 { return false } else { return true } }
    }

    public var addedCount: Int { lines.filter { if case .added = $0 { return true } else { return false } }.count }
    public var removedCount: Int { lines.filter { if case .removed = $0 { return true } else { return false } }.count }

    /// Unified diff hunks with `context` unchanged lines around each change; empty when equal.
    /// With `color`, removals are red, additions green and hunk headers cyan, as in `git diff`.
    public func unified(context: Int = 3, oldName: String = "golden", newName: String = "new", color: Bool = false) -> String {
        guard hasChanges else { return "" }
        func paint(_ code: String, _ text: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        var output = [paint("2", "--- \(oldName)"), paint("2", "+++ \(newName)")]
        let changed = lines.indices.filter { if case .same = lines[$0] { return false } else { return true } }
        var hunks: [ClosedRange<Int>] = []
        for index in changed {
            let range = max(0, index - context)...min(lines.count - 1, index + context)
            if let last = hunks.last, range.lowerBound <= last.upperBound + 1 {
                hunks[hunks.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                hunks.append(range)
            }
        }
        for hunk in hunks {
            var oldLine = 1, newLine = 1
            for line in lines[..<hunk.lowerBound] {
                switch line {
                case .same: oldLine += 1; newLine += 1
                case .removed: oldLine += 1
                case .added: newLine += 1
                }
            }
            let slice = lines[hunk]
            let oldCount = slice.filter { if case .added = $0 { return false } else { return true } }.count
            let newCount = slice.filter { if case .removed = $0 { return false } else { return true } }.count
            output.append(paint("36", "@@ -\(oldLine),\(oldCount) +\(newLine),\(newCount) @@"))
            for line in slice {
                switch line {
                case .same(let text): output.append(" " + text)
                case .removed(let text): output.append(paint("31", "-" + text))
                case .added(let text): output.append(paint("32", "+" + text))
                }
            }
        }
        return output.joined(separator: "\n")
    }

    private static func lcsDiff(_ old: [String], _ new: [String]) -> [Line] {
        if old.isEmpty { return new.map(Line.added) }
        if new.isEmpty { return old.map(Line.removed) }
        // lengths[i][j]: LCS length of old[i...] and new[j...].
        var lengths = [[Int]](repeating: [Int](repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                lengths[i][j] = old[i] == new[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var result: [Line] = []
        var i = 0, j = 0
        while i < old.count, j < new.count {
            if old[i] == new[j] {
                result.append(.same(old[i])); i += 1; j += 1
            } else if lengths[i + 1][j] >= lengths[i][j + 1] {
                result.append(.removed(old[i])); i += 1
            } else {
                result.append(.added(new[j])); j += 1
            }
        }
        result += old[i...].map(Line.removed) + new[j...].map(Line.added)
        return result
    }
}

/// How many leading and trailing elements two sequences share (not overlapping).
func commonAffixLengths<Element: Equatable>(_ before: [Element], _ after: [Element]) -> (head: Int, tail: Int) {
    var head = 0
    while head < before.count, head < after.count, before[head] == after[head] { head += 1 }
    var tail = 0
    while tail < before.count - head, tail < after.count - head, before[before.count - 1 - tail] == after[after.count - 1 - tail] {
        tail += 1
    }
    return (head, tail)
}
