import JSONSchema

/// Pressing balanced by pulling: a coach who gives someone presses gives them rows or
/// pulldowns too, and a wheelchair user, whose shoulders push all day, pulls at least
/// as often as they push.
enum BalanceChecks {
    /// `program.pulls-as-it-pushes`, over the exercises the catalogue knows by name (in
    /// either language); nil when the program presses fewer times than the rules judge.
    static func pushPull(program: JSONValue, conditions: [String], catalogue: Catalogue, rules: AdviceRules.PushPullRules) -> CheckResult? {
        let name = "program.pulls-as-it-pushes"
        let patterns = catalogue.patternsByName
        var pushes: [String] = []
        var pulls: [String] = []
        for session in program["sessions"]?.arrayValue ?? [] {
            for exercise in ProgramChecks.exercises(of: session) {
                guard let pattern = patterns[SessionContentChecks.normalized(exercise.name)] else { continue }
                if rules.pushPatterns.contains(pattern) { pushes.append(exercise.name) }
                if rules.pullPatterns.contains(pattern) { pulls.append(exercise.name) }
            }
        }
        guard pushes.count >= rules.minimumPushes else { return nil }
        let counted = "\(pushes.count) pushing, \(pulls.count) pulling"
        if let condition = conditions.first(where: rules.pullAtLeastPushFor.contains), pulls.count < pushes.count {
            return .fail(name, "\(counted) exercises a week for \(condition): the shoulders that push all day need at least as much pulling as pushing")
        }
        guard pulls.isEmpty else { return .pass(name, counted + " exercises a week") }
        let pressed = Array(Set(pushes)).sorted().prefix(3).map { "\"\($0)\"" }.joined(separator: ", ")
        return .fail(name, "\(counted): \(pressed) with no row or pulldown to balance them")
    }
}
