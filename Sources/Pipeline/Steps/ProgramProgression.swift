import JSONSchema

/// A program's progression when the harness renders it (`progression: rendered`): the
/// model chooses what changes from phase to phase, in order and each change once, from
/// the levers a coach pulls one at a time; the phases' weeks are spread over the plan's
/// `duration_weeks` and their focus is written in the user's language.
enum ProgramProgression {
    /// One thing a phase changes. The order is the order phases take them in.
    enum Change: String, CaseIterable, Sendable {
        case technique, reps, sets, load
        case harderVersions = "harder-versions"
        case pace
        case shorterRest = "shorter-rest"
        case deload, taper

        /// Weeks the change always takes, or nil for a share of what is left.
        func fixedWeeks(planWeeks: Int) -> Int? {
            switch self {
            case .deload: 1
            case .taper: planWeeks >= 8 ? 2 : 1
            default: nil
            }
        }
    }

    /// Where the progression lives in a program schema, and its name there.
    static let programSchema = ["$defs", "program"], key = "progression"

    /// What the model is asked for in place of the phases.
    static let replySchema: JSONValue = [
        "type": "array", "minItems": 2, "maxItems": 4, "uniqueItems": true,
        "items": ["enum": JSONValue.array(Change.allCases.map { .string($0.rawValue) })],
        "description": "What changes from phase to phase, in this order, each once; the app spreads them over the plan's weeks.",
    ]

    /// Each change's focus, by language; any other language gets English.
    static let focus: [String: [Change: String]] = [
        "en": [
            .technique: "Learn each movement with good form at an easy effort",
            .reps: "Add a rep or two to each set",
            .sets: "Add a set to the main exercises",
            .load: "Add a little weight once the last reps feel easy",
            .harderVersions: "Move on to harder versions of the exercises",
            .pace: "Go a little longer or faster in the cardio",
            .shorterRest: "Shorten the rest between sets",
            .deload: "A lighter week: fewer sets at an easier effort",
            .taper: "Cut the volume before the event and arrive rested",
        ],
        "es": [
            .technique: "Aprender cada movimiento con buena técnica y un esfuerzo suave",
            .reps: "Sumar una o dos repeticiones a cada serie",
            .sets: "Añadir una serie a los ejercicios principales",
            .load: "Subir un poco el peso cuando las últimas repeticiones resulten fáciles",
            .harderVersions: "Pasar a versiones más exigentes de los ejercicios",
            .pace: "Alargar o acelerar un poco el cardio",
            .shorterRest: "Acortar el descanso entre series",
            .deload: "Una semana más suave: menos series y menos esfuerzo",
            .taper: "Reducir el volumen antes de la prueba y llegar descansado",
        ],
    ]

    /// The phases for `changes` over a plan of `planWeeks`: a deload takes a week, a
    /// taper one or two, and the other changes share the rest, the earlier ones taking
    /// any week left over. Changes that leave no week for an earlier one are dropped
    /// from the end of the shared ones.
    static func phases(_ changes: [Change], planWeeks: Int) -> [(weeks: ClosedRange<Int>, change: Change)] {
        let fixed = { (change: Change) in change.fixedWeeks(planWeeks: planWeeks) }
        var kept = changes
        while kept.count > 1, kept.reduce(0, { $0 + (fixed($1) ?? 1) }) > planWeeks {
            kept.remove(at: kept.lastIndex { fixed($0) == nil } ?? kept.count - 1)
        }
        let left = max(planWeeks - kept.compactMap(fixed).reduce(0, +), 0)
        let sharing = kept.indices.filter { fixed(kept[$0]) == nil }
        var lengths = kept.map { fixed($0) ?? 0 }
        for (order, index) in sharing.enumerated() {
            lengths[index] = left / sharing.count + (order < left % sharing.count ? 1 : 0)
        }
        if sharing.isEmpty { lengths[0] += left }
        var start = 1
        return zip(kept, lengths).map { change, length in
            defer { start += length }
            return (start...(start + length - 1), change)
        }
    }

    /// The program with its list of changes written out as phases.
    static func stated(in program: JSONValue, language: String?) -> JSONValue {
        guard case .object(var object) = program, let words = object[key]?.arrayValue,
              case let changes = words.compactMap({ $0.stringValue.flatMap(Change.init(rawValue:)) }),
              changes.count == words.count, !changes.isEmpty,
              let planWeeks = object["duration_weeks"]?.intValue, planWeeks >= 1 else { return program }
        let texts = focus[language ?? ""] ?? focus["en"]!
        object[key] = .array(phases(changes, planWeeks: planWeeks).map { phase in
            ["weeks": .string("\(phase.weeks.lowerBound)-\(phase.weeks.upperBound)"), "focus": .string(texts[phase.change]!)]
        })
        return .object(object)
    }

    /// The program as a step that renders its progression writes it: the changes its
    /// phases make. A phase this renderer did not write leaves the phases as they are.
    static func leftOut(of program: JSONValue) -> JSONValue {
        guard case .object(var object) = program, let phases = object[key]?.arrayValue else { return program }
        let changes = phases.compactMap { phase in phase["focus"]?.stringValue.flatMap { change(writtenAs: $0) } }
        guard changes.count == phases.count, !changes.isEmpty else { return program }
        object[key] = .array(changes.map { .string($0.rawValue) })
        return .object(object)
    }

    private static func change(writtenAs text: String) -> Change? {
        for texts in focus.values {
            if let match = texts.first(where: { $0.value == text }) { return match.key }
        }
        return nil
    }
}
