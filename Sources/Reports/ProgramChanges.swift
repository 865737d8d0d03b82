import Diff
import Golden

/// A program's golden and new markdown with what changed marked in each, so the
/// two rendered columns show their differences in place: the words of a changed
/// line, or all of a line that only one side has.
///
/// Changed words are wrapped in two private-use characters before rendering, so
/// that the markdown renderer lays out and escapes the text as usual, and become
/// `<del>` (golden) and `<ins>` (new) elements afterwards. Only runs of letters and
/// digits are wrapped, never markdown syntax, so a mark never splits an element.
struct ProgramChanges {
    static let start: Character = "\u{E000}"
    static let end: Character = "\u{E001}"

    /// The golden markdown with its removed words marked.
    var golden: String
    /// The new markdown with its added words marked.
    var new: String

    init(golden: String, new: String) {
        var old = Self.lines(golden)
        var new = Self.lines(new)
        var removed: [Int] = []
        var added: [Int] = []
        var (oldIndex, newIndex) = (0, 0)
        for line in LineDiff(old: old.joined(separator: "\n"), new: new.joined(separator: "\n")).lines {
            switch line {
            case .same:
                Self.mark(removed, in: &old, against: added, in: &new)
                (removed, added) = ([], [])
                (oldIndex, newIndex) = (oldIndex + 1, newIndex + 1)
            case .removed:
                removed.append(oldIndex)
                oldIndex += 1
            case .added:
                added.append(newIndex)
                newIndex += 1
            }
        }
        Self.mark(removed, in: &old, against: added, in: &new)
        self.golden = old.joined(separator: "\n")
        self.new = new.joined(separator: "\n")
    }

    /// Renders marked markdown, its marks as `tag` elements (`ins` or `del`).
    static func render(_ marked: String, tag: String) -> String {
        var html = ""
        for character in MarkdownHTML.render(marked) {
            switch character {
            case start: html += "<\(tag)>"
            case end: html += "</\(tag)>"
            default: html.append(character)
            }
        }
        return html
    }

    static func isMark(_ character: Character) -> Bool {
        character == start || character == end
    }

    /// The lines of a markdown text, without any character that would read as a mark.
    private static func lines(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n", with: "\n").filter { !isMark($0) }
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Marks one block of changed lines: each removed line against the most alike
    /// added line after the last one paired (word by word), and whole any line left over.
    private static func mark(_ removed: [Int], in old: inout [String], against added: [Int], in new: inout [String]) {
        let candidates = added.map { (line: $0, words: Words(new[$0])) }
        var next = 0
        for oldLine in removed {
            let oldWords = Words(old[oldLine])
            let similarities = candidates[next...].map { $0.words.similarity(to: oldWords) }
            guard let best = similarities.indices.max(by: { similarities[$0] < similarities[$1] }), similarities[best] >= 0.4 else {
                old[oldLine] = oldWords.marking()
                continue
            }
            let match = next + best
            for skipped in candidates[next..<match] { new[skipped.line] = skipped.words.marking() }
            let (gone, came) = oldWords.changes(to: candidates[match].words)
            old[oldLine] = oldWords.marking(gone)
            new[candidates[match].line] = candidates[match].words.marking(came)
            next = match + 1
        }
        for leftOver in candidates[next...] { new[leftOver.line] = leftOver.words.marking() }
    }
}

/// A line split at whitespace, keeping the whitespace to put it back together.
private struct Words {
    let line: String
    let ranges: [Range<String.Index>]

    init(_ line: String) {
        self.line = line
        var ranges: [Range<String.Index>] = []
        var index = line.startIndex
        while let start = line[index...].firstIndex(where: { !$0.isWhitespace }) {
            let end = line[start...].firstIndex(where: \.isWhitespace) ?? line.endIndex
            ranges.append(start..<end)
            index = end
        }
        self.ranges = ranges
    }

    var words: [Substring] { ranges.map { line[$0] } }

    /// The share of words the two lines have in common, 0...1.
    func similarity(to other: Words) -> Double {
        let mine = Set(words)
        guard !mine.isEmpty || !other.words.isEmpty else { return 1 }
        return Double(other.words.filter(mine.contains).count) / Double(max(words.count, other.words.count))
    }

    /// The positions of the words only this line has, and only `other` has.
    func changes(to other: Words) -> (removed: Set<Int>, added: Set<Int>) {
        var (removed, added) = (Set<Int>(), Set<Int>())
        var (mine, theirs) = (0, 0)
        let diff = LineDiff(old: words.joined(separator: "\n"), new: other.words.joined(separator: "\n"))
        for word in diff.lines {
            switch word {
            case .same: (mine, theirs) = (mine + 1, theirs + 1)
            case .removed: removed.insert(mine); mine += 1
            case .added: added.insert(theirs); theirs += 1
            }
        }
        return (removed, added)
    }

    /// The line with the words at `positions` (all of them when nil) marked, except an ordered list's number,
    /// which must stay as it is for the line to remain a list item.
    func marking(_ positions: Set<Int>? = nil) -> String {
        var marked = ""
        var copied = line.startIndex
        for (position, range) in ranges.enumerated() where positions?.contains(position) ?? true {
            if position == 0, line[range].dropLast().allSatisfy(\.isNumber), line[range].last == "." || line[range].last == ")" { continue }
            marked += line[copied..<range.lowerBound] + Self.markRuns(line[range])
            copied = range.upperBound
        }
        return marked + line[copied...]
    }

    /// Wraps each run of the word that holds a letter or digit and no markdown syntax.
    private static func markRuns(_ word: Substring) -> String {
        var marked = ""
        var run = ""
        func flush() {
            marked += run.contains(where: { $0.isLetter || $0.isNumber }) ? "\(ProgramChanges.start)\(run)\(ProgramChanges.end)" : run
            run = ""
        }
        for character in word {
            if "*_`[]()|#<>".contains(character) {
                flush()
                marked.append(character)
            } else {
                run.append(character)
            }
        }
        flush()
        return marked
    }
}
