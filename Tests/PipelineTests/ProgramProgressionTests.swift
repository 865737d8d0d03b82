import JSONSchema
@testable import Pipeline
import Testing

/// `progression: rendered`: the model lists what changes, and the phases are spread over
/// the plan's weeks in the user's language.
@Suite("Progression rendered from the changes")
struct ProgramProgressionTests {
    typealias Change = ProgramProgression.Change

    static func weeks(_ changes: [Change], over planWeeks: Int) -> [String] {
        ProgramProgression.phases(changes, planWeeks: planWeeks).map { "\($0.change.rawValue) \($0.weeks.lowerBound)-\($0.weeks.upperBound)" }
    }

    @Test func aDeloadTakesAWeekATaperTwoAndTheRestShareTheOthers() {
        #expect(Self.weeks([.technique, .reps, .load, .deload], over: 12) == ["technique 1-4", "reps 5-8", "load 9-11", "deload 12-12"])
        #expect(Self.weeks([.pace, .taper], over: 16) == ["pace 1-14", "taper 15-16"])
        #expect(Self.weeks([.pace, .taper], over: 6) == ["pace 1-5", "taper 6-6"], "a short plan tapers for a week")
        #expect(Self.weeks([.technique, .sets], over: 9) == ["technique 1-5", "sets 6-9"], "the earlier phase takes the odd week")
    }

    @Test func aPlanTooShortForEveryChangeDropsTheLastSharedOnes() {
        #expect(Self.weeks([.technique, .reps, .sets, .deload], over: 2) == ["technique 1-1", "deload 2-2"])
        #expect(Self.weeks([.technique, .reps, .sets], over: 2) == ["technique 1-1", "reps 2-2"])
    }

    /// Every list the reply schema allows, over every plan length it allows: phases
    /// from week 1 to the last week without a gap, each at least a week, each focus new.
    @Test func everyListCoversThePlanWithoutAGap() {
        let all = Change.allCases
        var lists: [[Change]] = []
        func extend(_ list: [Change], from index: Int) {
            if list.count >= 2 { lists.append(list) }
            guard list.count < 4 else { return }
            for next in index..<all.count { extend(list + [all[next]], from: next + 1) }
        }
        extend([], from: 0)
        #expect(lists.count == 36 + 84 + 126)
        for list in lists {
            for planWeeks in 2...52 {
                let phases = ProgramProgression.phases(list, planWeeks: planWeeks)
                let covered = phases.map(\.weeks)
                #expect(covered.first?.lowerBound == 1 && covered.last?.upperBound == planWeeks, "\(list) over \(planWeeks)")
                #expect(zip(covered, covered.dropFirst()).allSatisfy { $0.upperBound + 1 == $1.lowerBound }, "\(list) over \(planWeeks)")
                #expect(phases.count >= 2 && Set(phases.map(\.change)).count == phases.count, "\(list) over \(planWeeks)")
            }
        }
    }

    @Test func thePhasesAreWrittenInTheUsersLanguageAndReadBack() throws {
        let reply: JSONValue = ["title": "Plan", "duration_weeks": 8, "progression": ["technique", "reps", "deload"]]
        let spanish = ProgramProgression.stated(in: reply, language: "es")
        #expect(spanish["progression"] == [
            ["weeks": "1-4", "focus": "Aprender cada movimiento con buena técnica y un esfuerzo suave"],
            ["weeks": "5-7", "focus": "Sumar una o dos repeticiones a cada serie"],
            ["weeks": "8-8", "focus": "Una semana más suave: menos series y menos esfuerzo"],
        ])
        let other = ProgramProgression.stated(in: reply, language: "fr")
        #expect(other["progression"]?[1]?["focus"] == "Add a rep or two to each set", "a language without its own texts gets English")
        #expect(ProgramProgression.leftOut(of: spanish) == reply && ProgramProgression.leftOut(of: other) == reply,
                "an edit is shown the changes, as it writes them")
        let written: JSONValue = ["duration_weeks": 8, "progression": [["weeks": "1-8", "focus": "Walk a little further"]]]
        #expect(ProgramProgression.leftOut(of: written) == written, "phases a model wrote stay as they are")
        #expect(ProgramProgression.stated(in: written, language: "en") == written)
    }
}
