import Intake

/// Which languages the coaching data covers, and what a person written in another one
/// goes without. A person's answers are read for dislikes, injuries and conditions
/// with words in the data's languages, exercises are named from the catalogue's, and
/// the referral a backend adds is the data's sentence: in any other language all of
/// that falls back to English or misses, so it is said out loud, never left silent.
public struct LanguageSupport: Sendable, Hashable {
    /// The languages with a referral sentence and catalogue names (ISO 639-1).
    public let covered: [String]

    /// The languages the catalogue names every exercise in.
    public static let catalogueLanguages = ["en", "es"]

    public init(knowledge: CoachingKnowledge) {
        let referrals = Set(knowledge.advice.referrals.filter { $0.value.note?.isEmpty == false }.keys)
        covered = Self.catalogueLanguages.filter { referrals.isEmpty || referrals.contains($0) }
    }

    /// A person whose answers are written in a language the data does not cover.
    public struct Gap: Sendable, Hashable, Codable {
        /// ISO 639-1.
        public var language: String
        /// What the person goes without, in one sentence.
        public var consequence: String
    }

    /// The gap for `record`, nil when its language is covered or too little text to tell.
    public func gap(for record: LocalIntakeData) -> Gap? {
        guard let language = record.writtenLanguage, !covered.contains(language) else { return nil }
        return Gap(
            language: language,
            consequence: "written in \(Self.name(of: language)) (\(language)), which the coaching data (prompts/coaching/) does not cover: "
                + "dislikes, injuries and conditions are read with \(covered.map(Self.name).joined(separator: " and ")) words only, "
                + "exercise names come out in English, and the referral is the English one, marked untranslated")
    }

    /// `Portuguese` for `pt`; the code itself for a language without a name here.
    public static func name(of code: String) -> String {
        names[code] ?? code
    }

    private static let names = [
        "en": "English", "es": "Spanish", "pt": "Portuguese", "fr": "French", "de": "German", "ar": "Arabic", "ru": "Russian",
        "he": "Hebrew", "hi": "Hindi", "ja": "Japanese", "zh": "Chinese", "ko": "Korean",
    ]
}
