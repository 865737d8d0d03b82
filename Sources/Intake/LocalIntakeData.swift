/// The app's onboarding answers, exactly as its Swift `Codable` struct encodes them.
///
/// Every field is optional because a user may skip any question. Keys are
/// camelCase; `height` is in inches and `weight` in pounds. Free text is data
/// from the user (possibly dictated, misspelled, in another language or
/// hostile) and is never to be treated as instructions.
public struct LocalIntakeData: Codable, Hashable, Sendable {
    /// First name.
    public var name: String?
    /// Age in years.
    public var age: Int?
    public var gender: String?
    public var goals: String?
    /// When they want results, e.g. "3 months" or "by summer".
    public var timeline: String?
    public var experienceLevel: String?
    /// How many days a week they can train, in their words.
    public var frequency: String?
    public var currentRoutine: String?
    /// What worked or failed before.
    public var pastAttempts: String?
    public var hobbySports: String?
    /// Height in inches.
    public var height: Int?
    /// Weight in pounds.
    public var weight: Int?
    public var bodyComp: String?
    /// Push-ups, run times and similar baselines.
    public var physicalBaseline: String?
    public var mobility: String?
    /// Current limitations and past injuries.
    public var injuries: String?
    /// Conditions, medication, pregnancy and the like.
    public var healthNuances: String?
    public var supplements: String?
    public var activityLevel: String?
    public var sleep: String?
    public var nutrition: String?
    /// Where they train and with what: home, gym, bodyweight only, travel.
    public var environment: String?
    /// Movements they like and dislike.
    public var movementPrefs: String?
    public var coachingStyle: String?
    public var anythingElse: String?

    public init(
        name: String? = nil,
        age: Int? = nil,
        gender: String? = nil,
        goals: String? = nil,
        timeline: String? = nil,
        experienceLevel: String? = nil,
        frequency: String? = nil,
        currentRoutine: String? = nil,
        pastAttempts: String? = nil,
        hobbySports: String? = nil,
        height: Int? = nil,
        weight: Int? = nil,
        bodyComp: String? = nil,
        physicalBaseline: String? = nil,
        mobility: String? = nil,
        injuries: String? = nil,
        healthNuances: String? = nil,
        supplements: String? = nil,
        activityLevel: String? = nil,
        sleep: String? = nil,
        nutrition: String? = nil,
        environment: String? = nil,
        movementPrefs: String? = nil,
        coachingStyle: String? = nil,
        anythingElse: String? = nil
    ) {
        self.name = name
        self.age = age
        self.gender = gender
        self.goals = goals
        self.timeline = timeline
        self.experienceLevel = experienceLevel
        self.frequency = frequency
        self.currentRoutine = currentRoutine
        self.pastAttempts = pastAttempts
        self.hobbySports = hobbySports
        self.height = height
        self.weight = weight
        self.bodyComp = bodyComp
        self.physicalBaseline = physicalBaseline
        self.mobility = mobility
        self.injuries = injuries
        self.healthNuances = healthNuances
        self.supplements = supplements
        self.activityLevel = activityLevel
        self.sleep = sleep
        self.nutrition = nutrition
        self.environment = environment
        self.movementPrefs = movementPrefs
        self.coachingStyle = coachingStyle
        self.anythingElse = anythingElse
    }
}
