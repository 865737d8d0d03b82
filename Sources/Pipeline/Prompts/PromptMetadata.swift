import Diff
/// A step's `prompt.yaml`: how its prompt is versioned and called.
public struct PromptMetadata: Codable, Hashable, Sendable {
    /// Bumped by the prompt engineer on every meaningful change.
    public var version: Int
    public var description: String?
    /// The output schema's file name in `prompts/schemas/`.
    public var schema: String
    public var temperature: Double
    public var maxTokens: Int
    public var seed: Int?
    /// How this step's outputs are compared with golden; not part of the request.
    public var golden: GoldenComparisonSettings
    /// Where a program step's markdown comes from; nil is `.model`.
    public var markdown: MarkdownSource?
    /// The program schema sent is fitted to the person's intake (`prompts/intake-limits.yaml`).
    public var schemaFromIntake: Bool?
    /// The reply is asked for as minified JSON: a local model's grammar leaves no room
    /// for whitespace between tokens. Hosted providers lay out their JSON themselves.
    public var compactJSON: Bool?
    /// Where a program step's session minutes come from; nil is `.model`.
    public var minutes: MinutesSource?
    /// Where a program step's progression phases come from; nil is `.model`.
    public var progression: ProgressionSource?
    /// How program-edit answers: the whole revised program, or operations on it; nil is `.program`.
    public var edit: EditForm?
    /// Whether the backend pins a step to its plan: a program draft's reply is
    /// chosen within a `SessionLayout` and expanded (`PlannedProgram`), an edit's
    /// exercises come from the person's catalogue lists; goal options are the kinds
    /// the backend chose, the model writing their words (`OptionLayout`); nil is `.model`.
    public var plan: PlanSource?
    /// Whether the backend's guardrails run on the reply: harmful advice and foreign
    /// script get one repair, and a program owed a referral gets the backend's note.
    public var guardrails: Bool?

    public init(
        version: Int, description: String? = nil, schema: String, temperature: Double, maxTokens: Int, seed: Int? = nil,
        golden: GoldenComparisonSettings = .standard, markdown: MarkdownSource? = nil, schemaFromIntake: Bool? = nil,
        compactJSON: Bool? = nil, minutes: MinutesSource? = nil, progression: ProgressionSource? = nil,
        edit: EditForm? = nil, plan: PlanSource? = nil, guardrails: Bool? = nil
    ) {
        self.version = version
        self.description = description
        self.schema = schema
        self.temperature = temperature
        self.maxTokens = maxTokens
        self.seed = seed
        self.golden = golden
        self.markdown = markdown
        self.schemaFromIntake = schemaFromIntake
        self.compactJSON = compactJSON
        self.minutes = minutes
        self.progression = progression
        self.edit = edit
        self.plan = plan
        self.guardrails = guardrails
    }

    /// The keys `prompt.yaml` may use.
    static let keys = ["version", "description", "schema", "temperature", "max_tokens", "seed", "golden", "markdown", "schema_from_intake", "compact_json", "minutes", "progression", "edit", "plan", "guardrails"]

    /// The value of each optional request key that means "off", as `prompt.yaml` spells
    /// it: a variant that keeps an old base which lacked the key must say it, or it
    /// would take the new base's value.
    static let offValues = ["markdown": MarkdownSource.model.rawValue, "schema_from_intake": "false", "compact_json": "false", "minutes": MinutesSource.model.rawValue,
        "progression": ProgressionSource.model.rawValue, "edit": EditForm.program.rawValue, "plan": PlanSource.model.rawValue,
        "guardrails": "false",
    ]

    /// The markdown is rendered from the program's JSON rather than written by the model.
    public var rendersMarkdown: Bool { markdown == .rendered }

    /// Each session's minutes and the program's `session_minutes` are computed from the
    /// exercises, whatever the model wrote.
    public var statesMinutes: Bool { minutes == .rendered || minutes == .recomputed }

    /// The model is not asked for the minutes at all.
    public var leavesOutMinutes: Bool { minutes == .rendered }

    /// The model chooses what changes from phase to phase, and the harness writes the phases.
    public var rendersProgression: Bool { progression == .rendered }

    /// The model answers an edit with operations, and the harness applies them.
    public var editsByOperations: Bool { edit == .operations }

    /// The backend pins the program to its plan.
    public var pinsPlan: Bool { plan == .pinned }

    /// The backend's guardrails run on the reply.
    public var runsGuardrails: Bool { guardrails == true }

    /// The reply is not yet the output: the harness adds or replaces parts of it, and
    /// checks the result against the whole output schema.
    public var completesReply: Bool { rendersMarkdown || statesMinutes || rendersProgression || editsByOperations || pinsPlan || runsGuardrails }
}

/// `minutes:` in a program step's `prompt.yaml`: the model states each session's
/// `minutes` and the program's `session_minutes`, or the harness computes them from the
/// sets, reps and rest the model chose (`SessionTime`), as the app's backend would, so
/// the length a person is promised is the length of the work they are given.
public enum MinutesSource: String, Codable, Hashable, Sendable, CaseIterable {
    /// The model's minutes stand.
    case model
    /// The model is not asked for them; the harness states them.
    case rendered
    /// The model writes them and the harness replaces them. A small model that has a
    /// session's `minutes` still to write after its exercises goes on to the next
    /// session; without it, it tends to close the list after the first.
    case recomputed
}

/// `progression:` in a program step's `prompt.yaml`: the model writes the phases (weeks
/// and focus), or it lists what changes from phase to phase, each change once, and the
/// harness spreads them over the plan's weeks in the user's language (`ProgramProgression`).
/// A small model asked for free-text phases repeats one focus in most of them.
public enum ProgressionSource: String, Codable, Hashable, Sendable, CaseIterable {
    case model
    case rendered
}

/// `edit:` in program-edit's `prompt.yaml`: the model writes the whole revised program,
/// or the operations that revise it (`ProgramOperations`), which the harness applies.
public enum EditForm: String, Codable, Hashable, Sendable, CaseIterable {
    case program
    case operations
}

/// `plan:` in a program step's `prompt.yaml`: the model writes the program's numbers
/// and picks its exercises freely, or the backend pins them (`SessionLayout`).
public enum PlanSource: String, Codable, Hashable, Sendable, CaseIterable {
    case model
    case pinned
}

/// `markdown:` in a program step's `prompt.yaml`: the model writes `program_markdown`
/// beside `program_json`, or the harness renders it from the JSON (`ProgramMarkdown`).
public enum MarkdownSource: String, Codable, Hashable, Sendable, CaseIterable {
    case model
    case rendered
}

/// The `golden:` block of a `prompt.yaml`: what the structural diff treats as the
/// same array element and the same number when it compares an output with golden.
public struct GoldenComparisonSettings: Codable, Hashable, Sendable {
    /// Keys that identify the elements of an array of objects, tried in order: an
    /// array is matched by the first key every element has, with unique values.
    public var arrayKeys: [String]
    /// Numbers whose absolute difference is at most this count as equal.
    public var numericTolerance: Double

    public init(arrayKeys: [String], numericTolerance: Double) {
        self.arrayKeys = arrayKeys
        self.numericTolerance = numericTolerance
    }

    /// Without a `golden:` block: the keys of the pipeline's outputs, exact numbers.
    public static let standard = GoldenComparisonSettings(
        arrayKeys: JSONDiff.Options().arrayKeys, numericTolerance: JSONDiff.Options().numericTolerance)

    /// The keys the `golden:` block may use.
    static let keys = ["array_keys", "numeric_tolerance"]
}
