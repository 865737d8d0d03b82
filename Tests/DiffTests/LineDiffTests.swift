import Testing

@testable import Diff

@Suite("Line diff")
struct LineDiffTests {
    @Test func equalTextsHaveNoDiff() {
        let diff = LineDiff(old: "a\nb", new: "a\nb")
        #expect(!diff.hasChanges)
        #expect(diff.unified() == "")
    }

    @Test func showsAChangedLineWithContext() {
        let old = (1...10).map { "line \($0)" }.joined(separator: "\n")
        let new = old.replacingOccurrences(of: "line 5", with: "line five")
        let unified = LineDiff(old: old, new: new).unified(context: 1)
        #expect(unified == """
            --- golden
            +++ new
            @@ -4,3 +4,3 @@
             line 4
            -line 5
            +line five
             line 6
            """)
    }

    @Test func colourMarksRemovalsAdditionsAndHunksButNotContext() {
        let unified = LineDiff(old: "a\n- keep\nb", new: "a\n- keep\nc").unified(color: true)
        #expect(unified == [
            "\u{1B}[2m--- golden\u{1B}[0m", "\u{1B}[2m+++ new\u{1B}[0m", "\u{1B}[36m@@ -1,3 +1,3 @@\u{1B}[0m",
            " a", " - keep", "\u{1B}[31m-b\u{1B}[0m", "\u{1B}[32m+c\u{1B}[0m",
        ].joined(separator: "\n"))
    }

    @Test func separatesDistantChangesIntoHunks() {
        let lines = (1...20).map(String.init)
        let old = lines.joined(separator: "\n")
        var changed = lines
        changed[1] = "two"
        changed[17] = "eighteen"
        let new = changed.joined(separator: "\n")
        let diff = LineDiff(old: old, new: new)
        #expect(diff.unified(context: 2).components(separatedBy: "\n@@").count == 3)
        #expect(diff.addedCount == 2 && diff.removedCount == 2)
    }

    @Test func handlesInsertionsAndDeletionsAtTheEnds() {
        let diff = LineDiff(old: "b\nc", new: "a\nb")
        #expect(diff.lines == [.added("a"), .same("b"), .removed("c")])
        #expect(LineDiff(old: "", new: "x").lines == [.removed(""), .added("x")])
    }
}
