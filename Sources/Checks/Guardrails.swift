import Intake
import JSONSchema

/// Something the backend did to a model's reply before the person saw it: a reply
/// sent back for a repair because of what it said, or a part it added. Every one is
/// recorded on its step and counted in the reports, so a prompt engineer sees how often
/// the raw model needed the backend.
public struct Intervention: Codable, Hashable, Sendable {
    /// `blocked-advice`, `unsuitable-goal`, `foreign-script`, `referral-appended`,
    /// `reply-schema` (a reply the prompt set's schema refused, used because the app's
    /// contract accepts it), `edit-limited` (an edit operation held back where it would break a session),
    /// `feedback-applied` (an exercise the feedback asked to take out, replaced) or
    /// `text-replaced` (the model's own words replaced by the backend's: a draft's sentences
    /// after a repair that still held blocked advice, or an edit's note that holds it).
    public var kind: String
    /// What was found or added, for a reader.
    public var detail: String

    public init(kind: String, detail: String) {
        (self.kind, self.detail) = (kind, detail)
    }

    public static let blockedAdvice = "blocked-advice"
    public static let editLimited = "edit-limited"
    public static let feedbackApplied = "feedback-applied"
    public static let textReplaced = "text-replaced"
    public static let foreignScript = "foreign-script"
    public static let referralAppended = "referral-appended"
    public static let unsuitableGoal = "unsuitable-goal"
    /// A reply its prompt set's reply schema refused, used because the app's contract accepts it.
    public static let replyOutsideSchema = "reply-schema"
}

/// What a backend enforces on every reply whatever the prompt says, judged by the
/// checks' own rules (`advice.yaml`) and the intake record alone, never by a scenario.
public enum Guardrails {
    /// What the reply must not tell the person: harmful advice of any kind `advice.yaml`
    /// lists, a weight-loss aim for someone whose answers show signs of disordered
    /// eating, and letters of a script neither the intake nor `personText` (the person's
    /// feedback) is written in. Empty when the reply says none of it.
    public static func blockedContent(
        in output: JSONValue, record: LocalIntakeData, personText: String = "", knowledge: CoachingKnowledge
    ) -> [Intervention] {
        review(output, record: record, personText: personText, knowledge: knowledge).blocked
    }

    /// `blockedContent`, with the harmful-advice results it judged the output's text by:
    /// the checks judge the same text by the same rules, and take them instead of a
    /// second pass (`DomainChecks.Context.advice`).
    public static func review(
        _ output: JSONValue, record: LocalIntakeData, personText: String = "", knowledge: CoachingKnowledge
    ) -> (blocked: [Intervention], advice: AdviceFindings) {
        let text = TextMatching.text(of: output)
        let advice = AdviceFindings(text: text, results: AdviceChecks.harmfulAdvice(in: [text], rules: knowledge.advice))
        var found = advice.results.filter { !$0.passed }.map {
            Intervention(kind: Intervention.blockedAdvice, detail: $0.message)
        }
        if let unsuitable = AdviceChecks.suitsPerson([text], prefix: "output", record: record, knowledge: knowledge), !unsuitable.passed {
            found.append(Intervention(kind: Intervention.unsuitableGoal, detail: unsuitable.message))
        }
        let script = TextQualityChecks.script(text: text, personText: LanguageChecks.intakeText(record) + "\n" + personText)
        if !script.passed { found.append(Intervention(kind: Intervention.foreignScript, detail: script.message)) }
        return (found, advice)
    }

    /// Which of `names` (a program's exercises) an edit's `feedback` asks to take out
    /// ("my wrist hates push-ups, swap them"), each with the sentence that asks; read
    /// with `dislikes.yaml`'s cues and its `requests` block.
    public static func requestedOut(_ names: [String], feedback: String, knowledge: CoachingKnowledge) -> [String: String] {
        let requests = DislikeChecks.requests(in: feedback, knowledge: knowledge)
        guard !requests.isEmpty else { return [:] }
        var found: [String: String] = [:]
        for name in names {
            let item = SafetyChecks.Item(name: name, kind: .exercise, knowledge: knowledge)
            if let request = requests.first(where: { DislikeChecks.matches(item, $0) }) { found[name] = request.evidence }
        }
        return found
    }

    /// The repair message for a reply holding `found`: what was wrong, and what to write instead.
    public static func repairMessage(_ found: [Intervention]) -> String {
        let list = found.map { "- \($0.detail)" }.joined(separator: "\n")
        return """
            Your reply cannot be shown to the person:
            \(list)

            Reply again with the complete JSON object, without that advice, in the person's own language and alphabet. \
            Where the person asked for it, say kindly that a doctor or dietitian is the right person to ask.
            """
    }

    /// The English referral for a person who reads `language`, saying it is untranslated:
    /// never an English sentence passed off as theirs.
    static func untranslated(_ note: String, into language: String) -> String {
        language == "en" ? note : "[Untranslated: there is no referral in \(LanguageSupport.name(of: language)) yet.] \(note)"
    }

    /// `program` with the referral note for `language` added to its safety notes when the
    /// intake owes one (a condition, an injury, medication, pregnancy or postpartum,
    /// disordered eating) and no note refers the person yet; nil when nothing is owed,
    /// a note already refers them, or `advice.yaml` has no note for the language nor in English
    /// (a language without its own gets the English one, marked untranslated).
    /// The note takes the last place when the notes are at `maxNotes`.
    public static func appendingReferral(
        to program: JSONValue, record: LocalIntakeData, language: String, knowledge: CoachingKnowledge, maxNotes: Int
    ) -> (program: JSONValue, intervention: Intervention)? {
        guard let result = AdviceChecks.intakeReferral(program: program, record: record, knowledge: knowledge, language: language), !result.passed,
              let note = knowledge.advice.referrals[language]?.note ?? knowledge.advice.referrals["en"]?.note.map({ untranslated($0, into: language) }),
              case .object(var object) = program
        else { return nil }
        var notes = object["safety_notes"]?.arrayValue ?? []
        if notes.count >= maxNotes { notes.removeLast(notes.count - maxNotes + 1) }
        notes.append(.string(note))
        object["safety_notes"] = .array(notes)
        let reasons = AdviceChecks.referralReasons(record, knowledge: knowledge).joined(separator: ", ")
        return (.object(object), Intervention(kind: Intervention.referralAppended, detail: "the intake names \(reasons); added \"\(note)\""))
    }
}
