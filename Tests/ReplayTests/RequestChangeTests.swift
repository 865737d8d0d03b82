import Diff
import Testing

@testable import Replay

/// How a stale recording's request diff is made readable.
struct RequestChangeTests {
    @Test func jsonInAPromptIsSpreadOverLines() {
        let program = #"{"title": "Run a 5K", "days_per_week": 3, "sessions": [{"day": 1, "minutes": 40, "name": "Easy run with strides and a long cool-down walk"}]}"#
        let spread = RequestChange.spreadingJSON("<current_program>\(program)</current_program>\nKeep it short.")
        #expect(spread.contains("<current_program>{\n"))
        #expect(spread.contains("\n  \"days_per_week\": 3,\n"))
        #expect(spread.hasSuffix("}</current_program>\nKeep it short."))
        #expect(RequestChange.spreadingJSON("a short {\"x\": 1} line") == "a short {\"x\": 1} line", "short lines stay as they are")
        let changed = RequestChange.spreadingJSON("<p>\(program.replacingOccurrences(of: "40", with: "35"))</p>")
        let diff = LineDiff(old: RequestChange.spreadingJSON("<p>\(program)</p>"), new: changed).unified(context: 1)
        #expect(diff.contains("-      \"minutes\": 40,\n+      \"minutes\": 35,"), "\(diff)")
        #expect(!diff.contains("title"), "only the changed member and its context")
    }
}
