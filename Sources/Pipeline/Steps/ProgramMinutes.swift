import Checks
import JSONSchema

/// A program's minutes when the harness states them (`minutes: rendered` or `recomputed`): each session's
/// `minutes` stated from its work (`SessionTime`), and `session_minutes` the longest.
enum ProgramMinutes {
    /// Where the session's minutes live in a program schema, and its name there.
    static let sessionSchema = ["$defs", "session"], sessionKey = "minutes"
    /// Where the program's longest session lives in a program schema, and its name there.
    static let programSchema = ["$defs", "program"], programKey = "session_minutes"

    /// The program with its minutes stated from the exercises.
    static func stated(in program: JSONValue) -> JSONValue {
        var longest = 0
        var result = eachSession(of: program) { session in
            let minutes = SessionTime.statedMinutes(.object(session))
            longest = max(longest, minutes)
            session[sessionKey] = .number(Double(minutes))
        }
        if longest > 0, case .object(var object) = result {
            object[programKey] = .number(Double(longest))
            result = .object(object)
        }
        return result
    }

    /// The program as a step that renders its minutes writes it: without them.
    static func leftOut(of program: JSONValue) -> JSONValue {
        guard case .object(var object) = eachSession(of: program, { $0[sessionKey] = nil }) else { return program }
        object[programKey] = nil
        return .object(object)
    }

    private static func eachSession(of program: JSONValue, _ change: (inout JSONObject) -> Void) -> JSONValue {
        guard case .object(var object) = program, let sessions = object["sessions"]?.arrayValue else { return program }
        object["sessions"] = .array(sessions.changingObjects { fields, _ in change(&fields) })
        return .object(object)
    }
}
