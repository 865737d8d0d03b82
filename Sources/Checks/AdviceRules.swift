import Foundation
import Intake
import JSONSchema

/// What a trainer never writes and what a program owes, read from the reviewed
/// `prompts/coaching/advice.yaml`: the kinds of harmful advice, referral words, the
/// wording of a weight-loss goal, beta blockers and heart-rate targets, the referral
/// a program owes its intake, what a session is, and the activities a goal names.
public struct AdviceRules: Sendable, Hashable {
    /// Words and regular expressions that find one thing in text.
    public struct Vocabulary: Sendable, Hashable {
        public let words: [String]
        /// Regular expressions, matched case-insensitively on the text with its accents kept.
        public let patterns: [String]
        /// Each word prepared for searching, and each pattern compiled (nil when it does
        /// not compile), once: a run searches thousands of texts for them.
        let terms: [TextMatching.SearchTerm]
        let regexes: [NSRegularExpression?]
        /// Each pattern's required words (`PatternLiterals`): text without any of them has no match.
        let literals: [[[UInt8]]?]

        /// The rules' lists are few and checks ask for the same ones on every text:
        /// each is prepared once.
        public init(words: [String] = [], patterns: [String] = []) {
            self = Self.prepared.value(for: [words, patterns]) {
                Vocabulary(
                    words: words, terms: words.map(SearchTerms.shared.term), patterns: patterns,
                    regexes: patterns.map { CompiledPatterns.shared.regex($0, options: [.caseInsensitive]) },
                    literals: patterns.map(PatternLiterals.required))
            }
        }

        private static let prepared = SharedCache<[[String]], Vocabulary>()

        private init(
            words: [String], terms: [TextMatching.SearchTerm], patterns: [String], regexes: [NSRegularExpression?], literals: [[[UInt8]]?]
        ) {
            (self.words, self.terms, self.patterns, self.regexes, self.literals) = (words, terms, patterns, regexes, literals)
        }

        public var isEmpty: Bool { words.isEmpty && patterns.isEmpty }

        /// The words and patterns the filters keep, still prepared. A pattern's filter
        /// is given its compiled regex and its required words.
        func keeping(
            words keepsWord: (TextMatching.SearchTerm) -> Bool, patterns keepsPattern: (String, NSRegularExpression?, [[UInt8]]?) -> Bool
        ) -> Vocabulary {
            let words = words.indices.filter { keepsWord(terms[$0]) }
            let patterns = patterns.indices.filter { keepsPattern(self.patterns[$0], regexes[$0], literals[$0]) }
            return Vocabulary(
                words: words.map { self.words[$0] }, terms: words.map { terms[$0] },
                patterns: patterns.map { self.patterns[$0] }, regexes: patterns.map { regexes[$0] }, literals: patterns.map { literals[$0] })
        }

        public static func == (lhs: Vocabulary, rhs: Vocabulary) -> Bool {
            (lhs.words, lhs.patterns) == (rhs.words, rhs.patterns)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(words)
            hasher.combine(patterns)
        }
    }

    /// One kind of harmful advice, such as fasting.
    public struct Kind: Sendable, Hashable {
        public var id: String
        /// How a message names it: `a calorie target or deficit`.
        public var label: String
        public var vocabulary: Vocabulary
        /// Phrases that make a sentence harmless though it uses the kind's words ("a balanced diet").
        public var except: [String]
        public var reason: String
    }

    /// An activity a goal names ("a half marathon" is running) and the exercise names that train it.
    public struct GoalActivity: Sendable, Hashable {
        public var id: String
        /// The movement family (movements.yaml) the activity belongs to, if a condition can keep it out.
        public var family: String?
        public var goalWords: [String]
        public var exerciseWords: [String]
        /// Exercise names that hold an exercise word but train something else ("Banded lateral walk").
        public var notExerciseWords: [String] = []

        /// Whether the exercise called `name` is this activity.
        func isDone(by name: String) -> Bool {
            exerciseWords.contains { TextMatching.firstMatch(of: $0, in: name) != nil }
                && !notExerciseWords.contains { TextMatching.firstMatch(of: $0, in: name) != nil }
        }
    }

    /// The words of a referral in one language: a professional and an advice to see them.
    public struct Referral: Sendable, Hashable {
        public var words: [String]
        public var advice: [String]
        /// The safety note a program's backend adds when the model left the referral out;
        /// nil when the file gives none for the language.
        public var note: String?

        public init(words: [String], advice: [String], note: String? = nil) {
            (self.words, self.advice, self.note) = (words, advice, note)
        }
    }

    public var kinds: [Kind]
    /// A sentence holding one of these refers the person to a professional, which is never harmful advice.
    public var referralWords: [String]
    public var weightLossFocus: Vocabulary
    public var betaBlockers: [String]
    public var heartRateTargets: Vocabulary
    /// What a message names as the right advice instead of a heart-rate target.
    public var rightEffortAdvice: String
    /// Medication named in the intake's health answers.
    public var medicationWords: [String]
    /// Answers to `injuries` that mean there is none.
    public var noInjuryAnswers: Set<String>
    /// Referral wording by language code (`en`, `es`).
    public var referrals: [String: Referral]
    /// The effort note for someone on a beta blocker, by language code; empty when the file gives none.
    public var effortNotes: [String: String] = [:]
    /// Names that are no exercise ("None", "Rest"), compared whole.
    public var fillerExercises: [String]
    /// Names of what is no training session on its own ("Warm-up", "Rest day"), compared whole.
    public var notTrainingSessions: [String]
    /// Activities a confirmed goal can name, and the exercises that are them.
    public var goalActivities: [GoalActivity]
    /// How the time a person has for a session is read; nil when the file gives no rules.
    public var sessionTime: AvailableTime.Rules?
    /// What a program's title and goal never are; nil when the file gives no rules.
    public var goalLine: GoalLineRules?
    /// How an edit is told to have changed only what its feedback asks; nil when the file gives no rules.
    public var editFidelity: EditFidelityRules?
    /// How a program's push-ups are set against the push-ups a person can do; nil when the file gives no rules.
    public var pushUpLevel: PushUpLevelRules?
    /// How a program's progression is set against the person's experience and conditions; nil when the file gives no rules.
    public var progressionFit: ProgressionFitRules?
    /// How much sameness a run's programs may share; nil when the file gives no rules.
    public var suiteSameness: SuiteSamenessRules?
    /// How a program's pressing is balanced by pulling; nil when the file gives no rules.
    public var pushPull: PushPullRules?

    /// Pressing against pulling (`advice.yaml`'s `push_pull`).
    public struct PushPullRules: Sendable, Hashable {
        /// The catalogue's patterns that push, and that pull.
        public var pushPatterns: [String]
        public var pullPatterns: [String]
        /// A program that presses fewer times than this is not judged.
        public var minimumPushes: Int
        /// Conditions (by id) for which pulling is at least as often as pushing.
        public var pullAtLeastPushFor: [String]
    }

    /// A run's programs side by side (`advice.yaml`'s `suite_sameness`).
    public struct SuiteSamenessRules: Sendable, Hashable {
        /// Fewer programs than this are too few to judge.
        public var minimumPrograms: Int
        /// The most different people one day (the same exercises) may be given.
        public var maxPeoplePerDay: Int
        /// The largest share of all prescribed exercises one sets × reps may have.
        public var maxPrescriptionShare: Double
    }

    /// The words a progression is judged with (`advice.yaml`'s `progression_fit`).
    public struct ProgressionFitRules: Sendable, Hashable {
        /// A phase that teaches the basics.
        public var learning: [String]
        /// A phase that loads heavier or pushes harder.
        public var building: [String]
        /// A level that says years of training ("advanced").
        public var experiencedWords: [String]
        /// A word of a beginner or of starting again, which makes any level word or years mean something else ("advanced swimmer, beginner runner", "former swimmer").
        public var beginnerWords: [String]
        /// Words for training, beside which N years count.
        public var trainingWords: [String]
        /// From this many years of training, a person has trained for years.
        public var experiencedFromYears: Int
        /// Conditions (`conditions.yaml` ids) whose strength is kept, not built.
        public var keepFor: [String]
    }

    /// The words a push-up baseline and a push-up's variant are read with (`advice.yaml`'s `push_up_level`).
    public struct PushUpLevelRules: Sendable, Hashable {
        /// Names of a push-up in any variant.
        public var pushUps: [String]
        /// Words that make a push-up one from the knees.
        public var knees: [String]
        /// Words of a variant easier than one from the knees (wall, incline).
        public var easier: [String]
        /// Words of a variant harder than a full push-up (decline, diamond).
        public var harder: [String]
        /// From this many full push-ups, only wall, incline and knee push-ups are below the person.
        public var pastRegressionsFrom: Int
    }

    /// A title and goal name the person's target: never a first step, never the person speaking.
    public struct GoalLineRules: Sendable, Hashable {
        public var firstSteps: [String]
        public var firstPerson: [String]
    }

    /// The words an edit's feedback and cues are read with (`advice.yaml`'s `edit_fidelity`).
    public struct EditFidelityRules: Sendable, Hashable {
        public var asksToAdd: [String]
        public var structureWords: [String]
        public var cueWords: [String]
        public var instructionOpenings: [String]
        /// Words an edit's account says with that the draft did not hold what the feedback names ("there were no jumps").
        public var absentWords: [String]
    }

    public init(
        kinds: [Kind] = [], referralWords: [String] = [], weightLossFocus: Vocabulary = .init(), betaBlockers: [String] = [],
        heartRateTargets: Vocabulary = .init(), rightEffortAdvice: String = "", medicationWords: [String] = [],
        noInjuryAnswers: Set<String> = [], referrals: [String: Referral] = [:], fillerExercises: [String] = [], notTrainingSessions: [String] = [],
        goalActivities: [GoalActivity] = []
    ) {
        self.kinds = kinds
        self.referralWords = referralWords
        self.weightLossFocus = weightLossFocus
        self.betaBlockers = betaBlockers
        self.heartRateTargets = heartRateTargets
        self.rightEffortAdvice = rightEffortAdvice
        self.medicationWords = medicationWords
        self.noInjuryAnswers = noInjuryAnswers
        self.referrals = referrals
        self.fillerExercises = fillerExercises
        self.notTrainingSessions = notTrainingSessions
        self.goalActivities = goalActivities
    }

    /// No rules: the checks that need them find nothing to check.
    public static let none = AdviceRules()

    /// Reads `advice.yaml` as parsed. A problem names the JSON pointer of the value at
    /// fault and what was expected; a pattern that is not a regular expression is one.
    public init(document: JSONValue) throws(CoachingKnowledgeError) {
        func fail(_ pointer: String, _ message: String) -> CoachingKnowledgeError {
            CoachingKnowledgeError(document: .advice, pointer: pointer, message: message)
        }
        func strings(_ pointer: String, optional: Bool = false) throws(CoachingKnowledgeError) -> [String] {
            guard let value = JSONPointer(pointer).flatMap({ $0.resolve(in: document) }) else {
                if optional { return [] }
                throw fail(pointer, "expected a non-empty list of strings")
            }
            guard let items = value.arrayValue, !items.isEmpty else { throw fail(pointer, "expected a non-empty list of strings") }
            var list: [String] = []
            for (index, item) in items.enumerated() {
                guard let text = item.stringValue, !text.isEmpty else { throw fail("\(pointer)/\(index)", "expected a non-empty string") }
                list.append(text)
            }
            return list
        }
        func string(_ pointer: String) throws(CoachingKnowledgeError) -> String {
            guard let text = JSONPointer(pointer).flatMap({ $0.resolve(in: document) })?.stringValue, !text.isEmpty else {
                throw fail(pointer, "expected a non-empty string")
            }
            return text
        }
        func vocabulary(_ pointer: String, words wordsKey: String = "words", patterns patternsKey: String = "patterns")
            throws(CoachingKnowledgeError) -> Vocabulary
        {
            let patterns = try strings("\(pointer)/\(patternsKey)", optional: true)
            for (index, pattern) in patterns.enumerated() where CompiledPatterns.shared.regex(pattern, options: [.caseInsensitive]) == nil {
                throw fail("\(pointer)/\(patternsKey)/\(index)", "`\(pattern)` is not a regular expression")
            }
            return Vocabulary(words: try strings("\(pointer)/\(wordsKey)"), patterns: patterns)
        }
        guard let list = document["kinds"]?.arrayValue, !list.isEmpty else { throw fail("/kinds", "expected a list of kinds of advice") }
        var kinds: [Kind] = []
        for index in list.indices {
            let at = "/kinds/\(index)"
            kinds.append(Kind(
                id: try string(at + "/id"), label: try string(at + "/label"), vocabulary: try vocabulary(at),
                except: try strings(at + "/except", optional: true), reason: try string(at + "/reason")))
        }
        var referrals: [String: Referral] = [:]
        guard let languages = document["referrals"]?.objectValue, !languages.isEmpty else {
            throw fail("/referrals", "expected a mapping of language code to words and advice")
        }
        for member in languages {
            referrals[member.key] = Referral(
                words: try strings("/referrals/\(member.key)/words"), advice: try strings("/referrals/\(member.key)/advice"),
                note: member.value["note"] == nil ? nil : try string("/referrals/\(member.key)/note"))
        }
        var activities: [GoalActivity] = []
        for index in (document["goal_activities"]?.arrayValue ?? []).indices {
            let at = "/goal_activities/\(index)"
            let family = document["goal_activities"]?[index]?["family"]?.stringValue
            activities.append(GoalActivity(
                id: try string(at + "/id"), family: family, goalWords: try strings(at + "/goal"), exerciseWords: try strings(at + "/exercises"),
                notExerciseWords: document["goal_activities"]?[index]?["not_exercises"] == nil ? [] : try strings(at + "/not_exercises")))
        }
        self.init(
            kinds: kinds, referralWords: try strings("/referral_words"), weightLossFocus: try vocabulary("/weight_loss_focus"),
            betaBlockers: try strings("/beta_blockers/words"),
            heartRateTargets: try vocabulary("/beta_blockers", words: "heart_rate_targets", patterns: "heart_rate_patterns"),
            rightEffortAdvice: try string("/beta_blockers/right_advice"), medicationWords: try strings("/medication_words"),
            noInjuryAnswers: Set(try strings("/no_injury_answers").map { $0.lowercased() }), referrals: referrals,
            fillerExercises: try strings("/filler_exercises"), notTrainingSessions: try strings("/not_training_sessions"),
            goalActivities: activities)
        if let time = document["session_time"] {
            var phrases: [AvailableTime.Phrase] = []
            for member in time["phrases"]?.objectValue?.members ?? [] {
                guard let minutes = member.value.intValue, minutes > 0 else {
                    throw fail("/session_time/phrases/\(member.key)", "expected the minutes the phrase names, a whole number")
                }
                phrases.append(AvailableTime.Phrase(words: member.key.lowercased(), minutes: minutes))
            }
            guard let floor = time["floor"]?.numberValue, floor > 0, floor <= 1 else {
                throw fail("/session_time/floor", "expected the share of the usual time a session fills, above 0 and at most 1")
            }
            let fields = try strings("/session_time/fields")
            for (index, field) in fields.enumerated() where !LocalIntakeData.fieldKeys.contains(field) {
                throw fail("/session_time/fields/\(index)", "`\(field)` is not an intake field")
            }
            sessionTime = AvailableTime.Rules(fields: fields, floor: floor, phrases: phrases)
        }
        if document["goal_line"] != nil {
            goalLine = GoalLineRules(firstSteps: try strings("/goal_line/first_steps"), firstPerson: try strings("/goal_line/first_person"))
        }
        if document["edit_fidelity"] != nil {
            editFidelity = EditFidelityRules(
                asksToAdd: try strings("/edit_fidelity/asks_to_add"), structureWords: try strings("/edit_fidelity/structure_words"),
                cueWords: try strings("/edit_fidelity/cue_words"), instructionOpenings: try strings("/edit_fidelity/instruction_openings"),
                absentWords: try strings("/edit_fidelity/absent_words"))
        }
        if document["push_up_level"] != nil {
            guard let from = document["push_up_level"]?["past_regressions_from"]?.intValue, from > 0 else {
                throw fail("/push_up_level/past_regressions_from", "expected the full push-ups from which wall, incline and knee push-ups are below a person, a whole number above 0")
            }
            pushUpLevel = PushUpLevelRules(
                pushUps: try strings("/push_up_level/push_ups"), knees: try strings("/push_up_level/knees"),
                easier: try strings("/push_up_level/easier"), harder: try strings("/push_up_level/harder"), pastRegressionsFrom: from)
        }
        if document["progression_fit"] != nil {
            guard let years = document["progression_fit"]?["experienced_from_years"]?.intValue, years > 0 else {
                throw fail("/progression_fit/experienced_from_years", "expected the years of training from which a person is experienced, a whole number above 0")
            }
            progressionFit = ProgressionFitRules(
                learning: try strings("/progression_fit/learning"), building: try strings("/progression_fit/building"),
                experiencedWords: try strings("/progression_fit/experienced_words"), beginnerWords: try strings("/progression_fit/beginner_words"),
                trainingWords: try strings("/progression_fit/training_words"), experiencedFromYears: years,
                keepFor: try strings("/progression_fit/keep_for"))
        }
        if let pushPull = document["push_pull"] {
            guard let minimum = pushPull["min_pushes"]?.intValue, minimum > 0 else {
                throw fail("/push_pull/min_pushes", "expected the fewest pushing exercises a week from which a program is judged, a whole number above 0")
            }
            self.pushPull = PushPullRules(
                pushPatterns: try strings("/push_pull/push_patterns"), pullPatterns: try strings("/push_pull/pull_patterns"),
                minimumPushes: minimum, pullAtLeastPushFor: try strings("/push_pull/pull_at_least_push"))
        }
        if let sameness = document["suite_sameness"] {
            guard let minimum = sameness["min_programs"]?.intValue, minimum > 1 else {
                throw fail("/suite_sameness/min_programs", "expected the fewest programs a run is judged side by side with, a whole number above 1")
            }
            guard let people = sameness["max_people_per_day"]?.intValue, people > 0 else {
                throw fail("/suite_sameness/max_people_per_day", "expected the most people one day may be given, a whole number above 0")
            }
            guard let share = sameness["max_prescription_share"]?.numberValue, share > 0, share <= 1 else {
                throw fail("/suite_sameness/max_prescription_share", "expected the largest share one prescription may have, a number above 0 and at most 1")
            }
            suiteSameness = SuiteSamenessRules(minimumPrograms: minimum, maxPeoplePerDay: people, maxPrescriptionShare: share)
        }
        for member in document["beta_blockers"]?["note"]?.objectValue?.members ?? [] {
            effortNotes[member.key] = try string("/beta_blockers/note/\(member.key)")
        }
    }
}
