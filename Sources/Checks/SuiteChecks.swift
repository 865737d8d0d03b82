import Foundation
import JSONSchema

/// Checks over a whole run's programs, reported once for the run: a prompt set that
/// gives many different people the same day, or one prescription to nearly every
/// exercise, writes a template rather than a program for each person. No single
/// output shows it; side by side they do.
public enum SuiteChecks {
    /// One person's program, as the run wrote it.
    public struct Program: Sendable {
        public var fixture: String
        /// The step's output: `program_json` with its sessions.
        public var output: JSONValue

        public init(fixture: String, output: JSONValue) {
            (self.fixture, self.output) = (fixture, output)
        }
    }

    /// `suite.same-day` and `suite.prescription-share`; nothing when the run holds
    /// fewer programs than the rules judge, or the rules are absent.
    public static func check(_ programs: [Program], rules: AdviceRules.SuiteSamenessRules?) -> [CheckResult] {
        guard let rules, programs.count >= rules.minimumPrograms else { return [] }
        return [sameDay(programs, rules: rules), prescriptionShare(programs, rules: rules)]
    }

    /// `suite.same-day`: no day (the same exercises, in any order) is given to more
    /// than `maxPeoplePerDay` different people.
    static func sameDay(_ programs: [Program], rules: AdviceRules.SuiteSamenessRules) -> CheckResult {
        let name = "suite.same-day"
        var people: [[String]: Set<String>] = [:]
        var shown: [[String]: [String]] = [:]
        for program in programs {
            for session in sessions(program.output) {
                let names = ProgramChecks.exercises(of: session).map(\.name)
                guard names.count >= 2 else { continue }
                let day = names.map(SessionContentChecks.normalized).sorted()
                people[day, default: []].insert(program.fixture)
                if shown[day] == nil { shown[day] = names }
            }
        }
        let crowded = people.filter { $0.value.count > rules.maxPeoplePerDay }
            .sorted { ($0.value.count, $1.key.joined()) > ($1.value.count, $0.key.joined()) }
        let most = people.values.map(\.count).max() ?? 0
        guard !crowded.isEmpty else {
            return .pass(name, "no day is given to more than \(rules.maxPeoplePerDay) of \(programs.count) people (the most: \(most))")
        }
        let days = crowded.prefix(3).map { day, fixtures in
            "\(fixtures.count) people (\(fixtures.sorted().joined(separator: ", "))) get the same day: "
                + (shown[day] ?? day).map { "\"\($0)\"" }.joined(separator: ", ")
        }
        let more = crowded.count > 3 ? "; and \(crowded.count - 3) more such days" : ""
        return .fail(name, days.joined(separator: "; ") + more + ". A coach writes each person's day for them, not one day for many.")
    }

    /// `suite.prescription-share`: no one prescription (sets × reps) is more than
    /// `maxPrescriptionShare` of all the exercises the run prescribes.
    static func prescriptionShare(_ programs: [Program], rules: AdviceRules.SuiteSamenessRules) -> CheckResult {
        let name = "suite.prescription-share"
        var counts: [String: Int] = [:]
        for program in programs {
            for session in sessions(program.output) {
                for exercise in session["exercises"]?.arrayValue ?? [] {
                    guard let sets = exercise["sets"].flatMap(text), let reps = exercise["reps"].flatMap(text) else { continue }
                    counts["\(sets) × \(reps)", default: 0] += 1
                }
            }
        }
        let total = counts.values.reduce(0, +)
        guard total > 0 else { return .pass(name, "no exercise states sets and reps") }
        let ranked = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        let share = Double(ranked[0].value) / Double(total)
        let top = ranked.prefix(3).map { "\"\($0.key)\" \(percent(Double($0.value) / Double(total)))" }.joined(separator: ", ")
        let limit = percent(rules.maxPrescriptionShare)
        return share <= rules.maxPrescriptionShare
            ? .pass(name, "the most common prescriptions of \(total): \(top); none above \(limit)")
            : .fail(name, "\(top) of \(total) prescriptions: one dose for everyone, above \(limit). A coach doses each exercise to the person's level and goal.")
    }

    private static func sessions(_ output: JSONValue) -> [JSONValue] {
        (output["program_json"] ?? output)["sessions"]?.arrayValue ?? []
    }

    private static func text(_ value: JSONValue) -> String? {
        if let string = value.stringValue { return string.trimmingCharacters(in: .whitespaces) }
        if let number = value.intValue { return String(number) }
        return nil
    }

    private static func percent(_ share: Double) -> String {
        let tenths = (share * 1000).rounded() / 10
        return tenths == tenths.rounded() ? "\(Int(tenths))%" : String(format: "%.1f%%", tenths)
    }
}
