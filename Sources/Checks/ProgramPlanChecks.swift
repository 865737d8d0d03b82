import Foundation
import Intake
import JSONSchema

/// Whether a program's plan holds together: phases that progress, a length that fits
/// the person's timeline, and sessions whose work fills the minutes they state.
public enum ProgramPlanChecks {
    static func check(_ program: JSONValue, record: LocalIntakeData) -> [CheckResult] {
        [phasesDiffer(program), sessionTime(program), restDays(program, experience: record.experienceLevel)]
            + [fitsTimeline(program, timeline: record.timeline)].compactMap { $0 }
    }

    /// At least one rest day a week, and a beginner trains 2 to 4 days: the week's
    /// training days are the sessions listed or the days declared, whichever is more.
    static func restDays(_ program: JSONValue, experience: String?) -> CheckResult {
        let name = "program.rest-days"
        let listed = Set((program["sessions"]?.arrayValue ?? []).enumerated().map { $0.element["day"]?.intValue ?? $0.offset + 1 }).count
        let days = max(listed, program["days_per_week"]?.intValue ?? 0)
        if days >= 7 { return .fail(name, "\(days) training days leave no rest day in the week") }
        if let experience, isBeginner(experience), days > beginnerDays {
            return .fail(name, "\(days) training days for a beginner (\"\(experience.prefix(60))\"); beginners train 2 to \(beginnerDays) days and recover on the rest")
        }
        return .pass(name, "\(days) training day\(days == 1 ? "" : "s") leave \(7 - days) rest day\(7 - days == 1 ? "" : "s")")
    }

    static let beginnerDays = 4

    /// The experience answer says beginner and nothing more ("Beginner-ish" yes; "beginner/intermediate" no).
    static func isBeginner(_ experience: String) -> Bool {
        let text = TextMatching.Searchable(experience)
        let says = { (words: [String]) in words.contains { TextMatching.firstMatch(of: $0, in: text) != nil } }
        return says(["beginner", "novice", "principiante", "never exercised", "nunca"]) && !says(["intermediate", "advanced", "intermedio", "avanzado", "not a total beginner"])
    }

    /// Each progression phase says something new: phases that repeat one focus do not progress.
    static func phasesDiffer(_ program: JSONValue) -> CheckResult {
        let focuses = (program["progression"]?.arrayValue ?? []).compactMap { $0["focus"]?.stringValue }
        var seen: [String: Int] = [:]
        var repeated: [String] = []
        for focus in focuses {
            let key = TextMatching.folded(focus).lowercased().trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters))
            seen[key, default: 0] += 1
            if seen[key] == 2 { repeated.append("\"\(focus.prefix(60))\"") }
        }
        if focuses.count < 2 {
            return .fail("program.progression-phases-differ", "\(focuses.count) phase\(focuses.count == 1 ? "" : "s"): a program progresses through at least 2")
        }
        return repeated.isEmpty
            ? .pass("program.progression-phases-differ", "\(focuses.count) phases, each with its own focus")
            : .fail("program.progression-phases-differ", "phases repeat the same focus: " + repeated.joined(separator: ", "))
    }

    /// The length in weeks a timeline states ("16 weeks", "3 months", "6 semanas"), whole
    /// weeks, a range ("3-6 months") counting from its start; nil for "by summer".
    static func weeks(inTimeline text: String) -> Double? {
        Timespan.weeks(in: text).map { $0.lowerBound.rounded() }
    }

    /// A program runs about as long as the time its goal gives ("in 12 weeks"), or else
    /// the timeline the intake states in weeks or months: not past it, and not stopping
    /// well short of it (a meet in 16 weeks, a plan of 8).
    static func fitsTimeline(_ program: JSONValue, timeline: String?) -> CheckResult? {
        guard let length = program["duration_weeks"]?.intValue else { return nil }
        let goal = program["goal"]?.stringValue ?? ""
        let source: String
        let target: Double
        if let goalWeeks = weeks(inTimeline: goal), goalWeeks >= 2 {
            (source, target) = ("its goal", goalWeeks)
        } else if let timeline, let timelineWeeks = weeks(inTimeline: timeline), timelineWeeks >= 2 {
            (source, target) = ("the timeline \"\(timeline.prefix(60))\"", timelineWeeks)
        } else {
            return nil
        }
        let stated = "\(source) (\(Int(target)) weeks)"
        if Double(length) > target + 1 {
            return .fail("program.fits-timeline", "\(length) weeks runs past \(stated)")
        }
        if Double(length) < target * 0.75 {
            return .fail("program.fits-timeline", "\(length) weeks stops well short of \(stated)")
        }
        return .pass("program.fits-timeline", "\(length) weeks for \(stated)")
    }

    /// Seconds of work in one set: a stated duration ("30 s", "2 min"), else about 3 s a rep.
    /// Read by hand rather than by regular expression: a gate judges every set of
    /// tens of thousands of programs.
    public static func workSeconds(reps: String) -> Double {
        var minutes: Double?, seconds: Double?, count: Double?
        let characters = Array(reps.lowercased())
        var index = 0
        while index < characters.count {
            guard characters[index].isNumber else { index += 1; continue }
            var number = ""
            while index < characters.count, characters[index].isNumber || characters[index] == "." {
                number.append(characters[index]); index += 1
            }
            var unitStart = index
            while unitStart < characters.count, characters[unitStart] == " " { unitStart += 1 }
            var unitEnd = unitStart
            while unitEnd < characters.count, characters[unitEnd].isLetter { unitEnd += 1 }
            let unit = String(characters[unitStart..<unitEnd])
            guard let value = Double(number) else { continue }
            if minuteUnits.contains(unit) { minutes = max(minutes ?? 0, value) }
            else if secondUnits.contains(unit) { seconds = max(seconds ?? 0, value) }
            else { count = max(count ?? 0, value) }
        }
        if let minutes { return minutes * 60 }
        if let seconds { return seconds }
        return (count ?? 10) * 3
    }

    private static let minuteUnits: Set<String> = ["min", "mins", "minute", "minutes", "minuto", "minutos"]
    private static let secondUnits: Set<String> = ["s", "sec", "secs", "second", "seconds", "seg", "segundo", "segundos"]

    /// The work a session lists (sets × (work + rest), plus a 5-minute warm-up) roughly
    /// fills the minutes it states: not under half, not over half as much again.
    static func sessionTime(_ program: JSONValue) -> CheckResult {
        var problems: [String] = []
        for session in program["sessions"]?.arrayValue ?? [] {
            guard let stated = session["minutes"]?.intValue, stated > 0 else { continue }
            let estimate = SessionTime.estimatedMinutes(session)
            let label = session["name"]?.stringValue.map { "\"\($0)\"" } ?? "day \(session["day"]?.intValue ?? 0)"
            if estimate < Double(stated) * 0.5 {
                problems.append("\(label): about \(Int(estimate.rounded())) min of work and rest for \(stated) min")
            } else if estimate > Double(stated) * 1.5 {
                problems.append("\(label): about \(Int(estimate.rounded())) min of work and rest, more than its \(stated) min")
            }
        }
        return problems.isEmpty
            ? .pass("program.session-time-plausible", "each session's sets and rest fill about its stated minutes")
            : .fail("program.session-time-plausible", problems.joined(separator: "; "))
    }
}

extension ProgramPlanChecks {
    /// Each training session fills the time the person has: at least the rules' floor
    /// of the usual time they name, and no more than the longest (`program.fills-the-time`).
    /// Sessions that are rest on their own are left to `program.training-sessions`.
    static func fillsTheTime(_ program: JSONValue, time: AvailableTime, rules: AdviceRules) -> CheckResult {
        let name = "program.fills-the-time"
        let share = rules.sessionTime?.floor ?? 0.75
        let floor = Double(time.usual) * share
        let notTraining = Set(rules.notTrainingSessions.map(SessionContentChecks.normalized))
        var short: [String] = []
        var long: [String] = []
        var counted = 0
        for (index, session) in (program["sessions"]?.arrayValue ?? []).enumerated() {
            let sessionName = session["name"]?.stringValue ?? ""
            if notTraining.contains(SessionContentChecks.normalized(SessionContentChecks.withoutDayLabel(sessionName))) { continue }
            guard let minutes = session["minutes"]?.intValue ?? program["session_minutes"]?.intValue else { continue }
            counted += 1
            let label = sessionName.isEmpty ? "session \(index + 1)" : "\"\(sessionName.prefix(40))\""
            if Double(minutes) < floor {
                short.append("\(label) \(minutes) min")
            } else if minutes > time.longest {
                long.append("\(label) \(minutes) min")
            }
        }
        guard counted > 0 else { return .pass(name, "no session states its minutes") }
        let percent = Int((share * 100).rounded())
        if !short.isEmpty {
            return .fail(name, "sessions far shorter than the \(time.usual) min the person has (\(time.source)); a session fills at least \(percent)% of it: "
                + short.prefix(4).joined(separator: ", "))
        }
        if !long.isEmpty {
            return .fail(name, "sessions longer than the \(time.longest) min the person has (\(time.source)): " + long.prefix(4).joined(separator: ", "))
        }
        return .pass(name, "every session fills \(percent)% to 100% of the \(time.usual) min the person has")
    }
}
