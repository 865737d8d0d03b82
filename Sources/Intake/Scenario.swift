import JSONSchema

/// What the pipeline does with one fixture record, and what its outputs must respect.
///
/// Read from `fixtures/NAME.yaml` beside `fixtures/NAME.json`; the file's shape is
/// pinned by `prompts/schemas/scenario.schema.json` and described in `fixtures/README.md`.
public struct Scenario: Codable, Hashable, Sendable {
    /// One line: who this person is and what the fixture tests.
    public var summary: String
    public var tags: [String]
    /// Feedback rounds on the goal options, applied in order.
    public var optionEdits: [OptionEdit]
    /// Which goal option the user confirms after the edits.
    public var confirm: ConfirmChoice
    /// The user's feedback on the drafted program.
    public var programEdit: ProgramEdit
    /// What every program for this person must respect.
    public var expect: Expectations
    /// Extra checks on particular steps' outputs.
    public var assertions: [Assertion]
    /// Words an injection in the record or the feedback tries to make the model say
    /// ("OVERRIDE ACCEPTED"): no output of any step may contain them.
    public var canaries: [String]

    public init(
        summary: String, tags: [String] = [], optionEdits: [OptionEdit] = [], confirm: ConfirmChoice = .init(),
        programEdit: ProgramEdit, expect: Expectations = .init(), assertions: [Assertion] = [], canaries: [String] = []
    ) {
        self.summary = summary
        self.tags = tags
        self.optionEdits = optionEdits
        self.confirm = confirm
        self.programEdit = programEdit
        self.expect = expect
        self.assertions = assertions
        self.canaries = canaries
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        summary = try container.decode(String.self, forKey: .summary)
        tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
        optionEdits = try container.decodeIfPresent([OptionEdit].self, forKey: .optionEdits) ?? []
        confirm = try container.decodeIfPresent(ConfirmChoice.self, forKey: .confirm) ?? ConfirmChoice()
        programEdit = try container.decode(ProgramEdit.self, forKey: .programEdit)
        expect = try container.decodeIfPresent(Expectations.self, forKey: .expect) ?? Expectations()
        assertions = try container.decodeIfPresent([Assertion].self, forKey: .assertions) ?? []
        canaries = try container.decodeIfPresent([String].self, forKey: .canaries) ?? []
    }
}

/// One round of feedback on the goal options.
public struct OptionEdit: Codable, Hashable, Sendable {
    public var feedback: String
    public var expect: OptionEditExpectations?

    public init(feedback: String, expect: OptionEditExpectations? = nil) {
        self.feedback = feedback
        self.expect = expect
    }
}

/// What regenerated goal options must show after one round of feedback.
public struct OptionEditExpectations: Codable, Hashable, Sendable {
    /// At least one of these words appears in the options (case-insensitive).
    public var mentionAny: [String]?

    public init(mentionAny: [String]? = nil) {
        self.mentionAny = mentionAny
    }
}

/// How the confirm step picks an option: deterministic, no model involved.
public struct ConfirmChoice: Codable, Hashable, Sendable {
    /// The first option whose summary or detail contains any of these words wins.
    public var prefer: [String]?
    /// 1-based position used when `prefer` matches nothing.
    public var position: Int

    public init(prefer: [String]? = nil, position: Int = 1) {
        self.prefer = prefer
        self.position = position
    }
}

/// The user's feedback on the drafted program.
public struct ProgramEdit: Codable, Hashable, Sendable {
    public var feedback: String
    /// Expectations for the edited program, on top of the scenario's own.
    public var expect: Expectations?

    public init(feedback: String, expect: Expectations? = nil) {
        self.feedback = feedback
        self.expect = expect
    }
}

/// Rules a program for this person must respect; every key is optional. A key a
/// scenario file declares `null` (a check left off on purpose) decodes as nil.
public struct Expectations: Codable, Hashable, Sendable {
    public var maxDaysPerWeek: Int?
    public var maxSessionMinutes: Int?
    /// The only equipment allowed.
    public var equipment: [Equipment]?
    /// Words or movements that must never appear.
    public var avoid: [String]?
    /// Words that must appear.
    public var mention: [String]?
    /// A "check with a professional" note is required.
    public var professionalReferral: Bool?
    /// ISO 639-1 code of the language user-facing text must be in.
    public var language: String?

    public init(
        maxDaysPerWeek: Int? = nil, maxSessionMinutes: Int? = nil, equipment: [Equipment]? = nil,
        avoid: [String]? = nil, mention: [String]? = nil, professionalReferral: Bool? = nil, language: String? = nil
    ) {
        self.maxDaysPerWeek = maxDaysPerWeek
        self.maxSessionMinutes = maxSessionMinutes
        self.equipment = equipment
        self.avoid = avoid
        self.mention = mention
        self.professionalReferral = professionalReferral
        self.language = language
    }
}

/// An extra check on one step's output.
public struct Assertion: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, Hashable, Sendable, CaseIterable {
        /// The output's text contains `value` (case-insensitive, whole words).
        case contains
        case notContains = "not-contains"
        /// The output's text matches the regular expression `value`.
        case regex
        case notRegex = "not-regex"
        /// The value at `pointer` equals `equals`.
        case pointerEquals = "pointer-equals"
        /// The number at `pointer` is within `min`...`max`.
        case pointerRange = "pointer-range"
        /// The array at `pointer` has `min`...`max` elements.
        case countRange = "count-range"
    }

    public var step: PipelineStep
    public var kind: Kind
    public var value: String?
    public var pointer: String?
    public var equals: JSONValue?
    public var min: Double?
    public var max: Double?
    /// Why the check exists, shown when it fails.
    public var why: String?

    public init(
        step: PipelineStep, kind: Kind, value: String? = nil, pointer: String? = nil, equals: JSONValue? = nil,
        min: Double? = nil, max: Double? = nil, why: String? = nil
    ) {
        self.step = step
        self.kind = kind
        self.value = value
        self.pointer = pointer
        self.equals = equals
        self.min = min
        self.max = max
        self.why = why
    }
}
