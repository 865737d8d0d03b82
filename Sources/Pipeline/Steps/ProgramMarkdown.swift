import JSONSchema

/// A program's markdown rendered from its JSON (`markdown: rendered` in a program
/// step's `prompt.yaml`): the layout the prompt asks a model for, with labels in the
/// user's language, so the two can never disagree and the model writes half as much.
public enum ProgramMarkdown {
    /// The labels of one language.
    struct Labels: Sendable {
        var goal, plan, equipment, day, rest, progression, weeks, safetyNotes: String
        var weekCount: @Sendable (Int) -> String
        var daysAWeek: @Sendable (Int) -> String
        var upToMinutes: @Sendable (Int) -> String
        var greeting: @Sendable (String) -> String
        var equipmentNames: [String: String]
    }

    static let english = Labels(
        goal: "Goal", plan: "Plan", equipment: "Equipment", day: "Day", rest: "rest", progression: "Progression", weeks: "Weeks",
        safetyNotes: "Safety notes",
        weekCount: { $0 == 1 ? "1 week" : "\($0) weeks" },
        daysAWeek: { $0 == 1 ? "1 day a week" : "\($0) days a week" },
        upToMinutes: { "up to \($0) min" },
        greeting: { "\($0), here is your plan." },
        equipmentNames: [
            "resistance-band": "resistance band", "dumbbell": "dumbbells", "pull-up-bar": "pull-up bar", "cable-machine": "cable machine",
            "weight-machine": "weight machines", "cardio-machine": "cardio machine", "suspension-trainer": "suspension trainer",
            "jump-rope": "jump rope", "medicine-ball": "medicine ball", "step-box": "step box",
        ])

    static let spanish = Labels(
        goal: "Objetivo", plan: "Plan", equipment: "Material", day: "Día", rest: "descanso", progression: "Progresión",
        weeks: "Semanas", safetyNotes: "Notas de seguridad",
        weekCount: { $0 == 1 ? "1 semana" : "\($0) semanas" },
        daysAWeek: { $0 == 1 ? "1 día por semana" : "\($0) días por semana" },
        upToMinutes: { "hasta \($0) min" },
        greeting: { "\($0), este es tu plan." },
        equipmentNames: [
            "bodyweight": "peso corporal", "mat": "esterilla", "resistance-band": "banda elástica", "dumbbell": "mancuernas",
            "kettlebell": "pesa rusa", "barbell": "barra", "bench": "banco", "rack": "rack", "pull-up-bar": "barra de dominadas",
            "cable-machine": "polea", "weight-machine": "máquinas de pesas", "cardio-machine": "máquina de cardio",
            "suspension-trainer": "entrenamiento en suspensión", "jump-rope": "comba", "medicine-ball": "balón medicinal",
            "step-box": "step", "pool": "piscina",
        ])

    /// The output member the markdown is kept in, beside `program_json`.
    public static let outputKey = "program_markdown"
    public static let programKey = "program_json"

    /// The languages with their own labels; any other gets English ones.
    public static let languages = ["en", "es"]

    static func labels(for language: String?) -> Labels {
        language == "es" ? spanish : english
    }

    /// The markdown for `program` (a `program_json` value), greeting `firstName` when given.
    public static func render(_ program: JSONValue, language: String?, firstName: String?) -> String {
        let labels = labels(for: language)
        func text(_ value: JSONValue?) -> String {
            guard let value else { return "" }
            return value.stringValue ?? value.intValue.map(String.init) ?? value.serialized()
        }
        var lines = ["# " + text(program["title"])]
        if let firstName, !firstName.isEmpty { lines.append(labels.greeting(firstName)) }
        lines.append("**\(labels.goal):** " + text(program["goal"]))
        let plan = [
            program["duration_weeks"]?.intValue.map(labels.weekCount), program["days_per_week"]?.intValue.map(labels.daysAWeek),
            program["session_minutes"]?.intValue.map(labels.upToMinutes),
        ].compactMap { $0 }
        lines.append("**\(labels.plan):** " + plan.joined(separator: " · "))
        let equipment = (program["equipment"]?.arrayValue ?? []).map { item in
            let token = text(item)
            return labels.equipmentNames[token] ?? token
        }
        lines.append("**\(labels.equipment):** " + equipment.joined(separator: ", "))
        for session in program["sessions"]?.arrayValue ?? [] {
            lines += ["", "---", ""]
            lines.append("## \(labels.day) \(text(session["day"])): \(text(session["name"])) (\(text(session["minutes"])) min)")
            for exercise in session["exercises"]?.arrayValue ?? [] {
                let notes = text(exercise["notes"]).trimmingWhitespace
                var line = "- **\(text(exercise["name"]))**: \(text(exercise["sets"])) × \(text(exercise["reps"])), \(labels.rest) \(text(exercise["rest_seconds"])) s."
                if !notes.isEmpty { line += " " + notes }
                lines.append(line)
            }
        }
        let phases = program["progression"]?.arrayValue ?? []
        if !phases.isEmpty {
            lines += ["", "## \(labels.progression)"]
            lines += phases.map { "- **\(labels.weeks) \(text($0["weeks"])):** \(text($0["focus"]))" }
        }
        let notes = program["safety_notes"]?.arrayValue ?? []
        if !notes.isEmpty {
            lines += ["", "## \(labels.safetyNotes)"]
            lines += notes.map { "- " + text($0) }
        }
        return lines.joined(separator: "\n")
    }
}
