/// One question of the app's onboarding, in the order the app asks it.
public struct IntakeField: Hashable, Sendable {
    public static func == (lhs: IntakeField, rhs: IntakeField) -> Bool { lhs.key == rhs.key }
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }

    /// The app's section heading, e.g. "HEALTH".
    public let section: String
    /// The JSON key, e.g. `healthNuances`.
    public let key: String
    /// A human label for prompts and reports, e.g. "Health conditions".
    public let label: String
    let keyPath: (KeyPath<LocalIntakeData, String?> & Sendable)?
    let integerKeyPath: (KeyPath<LocalIntakeData, Int?> & Sendable)?

    /// A free-text answer (the others are whole numbers: age, height, weight).
    public var isText: Bool { keyPath != nil }

    init(_ section: String, _ key: String, _ label: String, text keyPath: KeyPath<LocalIntakeData, String?> & Sendable) {
        self.section = section
        self.key = key
        self.label = label
        self.keyPath = keyPath
        self.integerKeyPath = nil
    }

    init(_ section: String, _ key: String, _ label: String, integer keyPath: KeyPath<LocalIntakeData, Int?> & Sendable) {
        self.section = section
        self.key = key
        self.label = label
        self.keyPath = nil
        self.integerKeyPath = keyPath
    }
}

extension LocalIntakeData {
    /// The 25 fields of the record, grouped by the app's sections in the app's order.
    public static let fields: [IntakeField] = [
        IntakeField("ABOUT YOU", "name", "Name", text: \.name),
        IntakeField("ABOUT YOU", "age", "Age", integer: \.age),
        IntakeField("ABOUT YOU", "gender", "Gender", text: \.gender),
        IntakeField("YOUR GOALS", "goals", "Goals", text: \.goals),
        IntakeField("YOUR GOALS", "timeline", "Timeline", text: \.timeline),
        IntakeField("TRAINING HISTORY", "experienceLevel", "Experience level", text: \.experienceLevel),
        IntakeField("TRAINING HISTORY", "frequency", "Days per week available", text: \.frequency),
        IntakeField("TRAINING HISTORY", "currentRoutine", "Current routine", text: \.currentRoutine),
        IntakeField("TRAINING HISTORY", "pastAttempts", "Past attempts", text: \.pastAttempts),
        IntakeField("TRAINING HISTORY", "hobbySports", "Hobbies and sports", text: \.hobbySports),
        IntakeField("BODY METRICS", "height", "Height", integer: \.height),
        IntakeField("BODY METRICS", "weight", "Weight", integer: \.weight),
        IntakeField("BODY METRICS", "bodyComp", "Body composition", text: \.bodyComp),
        IntakeField("FITNESS BASELINE", "physicalBaseline", "Physical baseline", text: \.physicalBaseline),
        IntakeField("FITNESS BASELINE", "mobility", "Mobility", text: \.mobility),
        IntakeField("HEALTH", "injuries", "Injuries and limitations", text: \.injuries),
        IntakeField("HEALTH", "healthNuances", "Health conditions", text: \.healthNuances),
        IntakeField("HEALTH", "supplements", "Supplements", text: \.supplements),
        IntakeField("LIFESTYLE", "activityLevel", "Daily activity level", text: \.activityLevel),
        IntakeField("LIFESTYLE", "sleep", "Sleep", text: \.sleep),
        IntakeField("LIFESTYLE", "nutrition", "Nutrition", text: \.nutrition),
        IntakeField("EQUIPMENT", "environment", "Training environment and equipment", text: \.environment),
        IntakeField("PREFERENCES", "movementPrefs", "Movement likes and dislikes", text: \.movementPrefs),
        IntakeField("PREFERENCES", "coachingStyle", "Preferred coaching style", text: \.coachingStyle),
        IntakeField("ALMOST DONE", "anythingElse", "Anything else", text: \.anythingElse),
    ]

    /// The JSON keys of all fields.
    public static let fieldKeys: [String] = fields.map(\.key)

    /// The answer to `field` as display text (`5'8" (68 in)` for height), or nil when skipped.
    public func displayValue(of field: IntakeField) -> String? {
        if let keyPath = field.keyPath { return self[keyPath: keyPath] }
        guard let integerKeyPath = field.integerKeyPath, let value = self[keyPath: integerKeyPath] else { return nil }
        switch field.key {
        case "height": return "\(value / 12)'\(value % 12)\" (\(value) in)"
        case "weight": return "\(value) lb"
        default: return String(value)
        }
    }

    /// The fields the user answered (non-empty after trimming white space).
    public var answeredFields: [IntakeField] {
        Self.fields.filter { field in
            guard let value = displayValue(of: field) else { return false }
            return !value.allSatisfy(\.isWhitespace)
        }
    }
}
