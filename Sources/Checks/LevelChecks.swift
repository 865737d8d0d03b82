import Foundation
import Intake
import JSONSchema

/// Whether a program's work suits the level the person says they are at, read from
/// their own answers (`advice.yaml`'s `push_up_level`).
enum LevelChecks {
    /// How hard a push-up is, from the easiest variant up.
    enum PushUp: Int, Comparable {
        case easier, knees, full, harder

        static func < (lhs: PushUp, rhs: PushUp) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The push-ups a person says they can do: the most full ones, and the most from the knees.
    struct PushUpBaseline: Equatable {
        var full = 0
        var knees = 0
    }

    /// `program.fits-level[push-up]`: someone who does push-ups from the knees gets no
    /// full or harder ones; someone past the regressions gets more than wall, incline
    /// and knee push-ups, unless an injury or condition (`injured`) may be why a coach
    /// chose an easier one. Nil when the person names no push-ups, the program holds
    /// none, or their number says either level could suit.
    static func pushUps(program: JSONValue, record: LocalIntakeData, injured: Bool, rules: AdviceRules.PushUpLevelRules) -> CheckResult? {
        let baseline = pushUpBaseline(in: [record.physicalBaseline, record.experienceLevel].compactMap { $0 }.joined(separator: "\n"), rules: rules)
        let prescribed = (program["sessions"]?.arrayValue ?? []).flatMap { ProgramChecks.exercises(of: $0).map(\.name) }
            .compactMap { name in variant(of: name, rules: rules).map { (name, $0) } }
        guard let baseline, !prescribed.isEmpty else { return nil }
        let name = "program.fits-level[push-up]"
        let names = Array(Set(prescribed.map(\.0))).sorted().map { "\"\($0)\"" }.joined(separator: ", ")
        if baseline.full == 0, baseline.knees > 0 {
            let tooHard = Array(Set(prescribed.filter { $0.1 >= .full }.map(\.0))).sorted()
            return tooHard.isEmpty
                ? .pass(name, "they do \(baseline.knees) push-ups from the knees, and the program's are at that level or easier: \(names)")
                : .fail(name, "they do \(baseline.knees) push-ups from the knees, and the program asks for full or harder ones: "
                    + tooHard.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        if baseline.full >= rules.pastRegressionsFrom, !injured {
            return prescribed.contains(where: { $0.1 >= .full })
                ? .pass(name, "they do \(baseline.full) full push-ups, and the program holds full or harder ones")
                : .fail(name, "they already do \(baseline.full) full push-ups, and the program's are only easier variants: \(names)")
        }
        return nil
    }

    /// The push-ups `text` says the person does ("Maybe 5 push-ups on my knees", "12 push-ups",
    /// "8 push-ups on my knees, 2 on my toes"); nil when it names none with a number.
    static func pushUpBaseline(in text: String, rules: AdviceRules.PushUpLevelRules) -> PushUpBaseline? {
        let folded = TextMatching.folded(text).lowercased()
        let names = rules.pushUps.sorted { $0.count > $1.count }.map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|")
        // A number, up to three words (such as "knee" or "full"), the push-ups, then the rest of the clause.
        let pattern = #"(\d+)\s+((?:[a-z\-]+\s+){0,3}?)(?:"# + names + #")\b([^.,;!?\n]{0,30})"#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
        var baseline = PushUpBaseline()
        var found = false
        for match in regex.matches(in: folded, range: NSRange(folded.startIndex..., in: folded)) {
            guard let count = Range(match.range(at: 1), in: folded).flatMap({ Int(folded[$0]) }) else { continue }
            let around = [2, 3].compactMap { Range(match.range(at: $0), in: folded).map { String(folded[$0]) } }.joined(separator: " ")
            found = true
            if rules.knees.contains(where: { TextMatching.firstMatch(of: $0, in: around) != nil }) {
                baseline.knees = max(baseline.knees, count)
            } else {
                baseline.full = max(baseline.full, count)
            }
        }
        return found ? baseline : nil
    }

    /// How hard the exercise called `name` is as a push-up; nil when it is none.
    static func variant(of name: String, rules: AdviceRules.PushUpLevelRules) -> PushUp? {
        func names(_ words: [String]) -> Bool { words.contains { TextMatching.firstMatch(of: $0, in: name) != nil } }
        guard names(rules.pushUps) else { return nil }
        if names(rules.harder) { return .harder }
        if names(rules.easier) { return .easier }
        if names(rules.knees) { return .knees }
        return .full
    }
}
