import JSONSchema

/// How long a session's listed work takes: the estimate the session-time check judges
/// a stated length by, and the length a program step that renders its minutes states.
public enum SessionTime {
    /// A 5-minute warm-up plus, for each exercise, its sets × (work + rest). An endurance
    /// piece that names its own length ("Easy run 30 minutes") fills at least that time.
    public static func estimatedMinutes(_ session: JSONValue) -> Double {
        var seconds = 300.0
        for exercise in session["exercises"]?.arrayValue ?? [] {
            let name = exercise["name"]?.stringValue ?? ""
            let named = name.lowercased().contains("min") ? ProgramPlanChecks.workSeconds(reps: name) : 0
            let sets = Double(exercise["sets"]?.intValue ?? 1)
            let perSet = ProgramPlanChecks.workSeconds(reps: exercise["reps"]?.stringValue ?? "") + Double(exercise["rest_seconds"]?.intValue ?? 60)
            seconds += max(named, sets * perSet)
        }
        return seconds / 60
    }

    /// The minutes to state for a session: its estimate rounded up to a multiple of 5, at least 10.
    public static func statedMinutes(_ session: JSONValue) -> Int {
        max(10, Int((estimatedMinutes(session) / 5).rounded(.up)) * 5)
    }
}
