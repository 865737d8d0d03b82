import JSONSchema

/// How much a program edit changed beyond what was asked.
enum ProgramEditChecks {
    /// An edit that keeps fewer than this share of the exercises rewrote the program.
    static let minimumKeptShare = 0.3

    /// `edit.changed` (the program itself changed) and `edit.keeps-the-rest` (it kept most
    /// of what was not asked about); an unchanged program keeps everything, trivially.
    /// `refused` names what the feedback asks for that a trainer never writes, and
    /// `neverHeld` what it asks to take out that the draft never held: then an
    /// unchanged program is the right answer.
    static func check(before: JSONValue, after: JSONValue, refused: String? = nil, neverHeld: String? = nil) -> [CheckResult] {
        // The markdown is rewritten on every call: the program itself is what must change.
        let (old, new) = (before["program_json"].map(TextMatching.whitespaceNormalized), after["program_json"].map(TextMatching.whitespaceNormalized))
        guard old != new else {
            if let refused {
                return [
                    .pass("edit.changed", "the program is unchanged, refusing what the feedback asks for (\(refused))"),
                    .pass("edit.keeps-the-rest", "nothing changed, so nothing else did"),
                ]
            }
            if let neverHeld {
                return [
                    .pass("edit.changed", "the program is unchanged: it never held what the feedback asks to take out (\(neverHeld))"),
                    .pass("edit.keeps-the-rest", "nothing changed, so nothing else did"),
                ]
            }
            return [
                .fail("edit.changed", before == after
                    ? "the edited program is identical to the draft"
                    : before["program_json"] == after["program_json"]
                        ? "program_json is identical to the draft's; only the markdown differs"
                        : "program_json differs from the draft's only in whitespace"),
                .pass("edit.keeps-the-rest", "nothing changed, so nothing else did"),
            ]
        }
        return [.pass("edit.changed", "program_json differs from the draft's"), keepsTheRest(before: before, after: after)]
    }

    static func keepsTheRest(before: JSONValue, after: JSONValue) -> CheckResult {
        let old = exerciseNames(before), new = exerciseNames(after)
        let kept = old.intersection(new).count
        let share = old.isEmpty ? 1 : Double(kept) / Double(old.count)
        let daysBefore = before["program_json"]?["days_per_week"]?.intValue ?? 0
        let daysAfter = after["program_json"]?["days_per_week"]?.intValue ?? 0
        let summary = "kept \(kept) of \(old.count) exercises (\(Int(share * 100))%), \(new.subtracting(old).count) new; days \(daysBefore) → \(daysAfter)"
        return share >= minimumKeptShare
            ? .pass("edit.keeps-the-rest", summary)
            : .fail("edit.keeps-the-rest", "rewrote most of the program: " + summary)
    }

    private static func exerciseNames(_ output: JSONValue) -> Set<String> {
        let sessions = output["program_json"]?["sessions"]?.arrayValue ?? []
        return Set(sessions.flatMap { ProgramChecks.exercises(of: $0).map { $0.name.lowercased() } })
    }
}
