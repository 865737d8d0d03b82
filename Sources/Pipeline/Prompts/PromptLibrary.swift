import Checks
import Foundation
import Intake
import JSONSchema
import Providers

/// The four step prompts of a project, loaded and checked together.
public struct PromptLibrary: Sendable {
    public let prompts: [PipelineStep: StepPrompt]
    /// The coaching rules every output is checked against (`prompts/coaching/`).
    public let coaching: CoachingKnowledge
    /// The variant each step runs instead of its base prompt.
    public let variants: VariantSelection
    /// How a program schema is fitted to one person (`prompts/intake-limits.yaml`), for
    /// the steps whose `prompt.yaml` asks for it.
    public let intakeLimits: IntakeLimitRules?
    /// How a program is planned from the intake before a model writes it (`program-plan.yaml`).
    let planRules: ProgramPlanRules?
    /// What goal options the backend offers a person and how it reads their feedback
    /// (`prompts/coaching/goal-kinds.yaml`), for goal-option steps that pin them.
    let goalKinds: GoalKindRules?
    /// What the app accepts from each step (`prompts/schemas/contract/`); empty when the
    /// project has none, and then each prompt set's own schema judges its outputs.
    public let contracts: [PipelineStep: AppContract]
    /// Fitted schemas compiled once each: persons with the same limits share one.
    private let fittedSchemas = SharedCache<String, Schema?>()

    /// Loads every step's folder (with its selected variant), reporting all broken ones at once.
    public init(layout: ProjectLayout, variants: VariantSelection = .none) throws(PromptLibraryError) {
        var prompts: [PipelineStep: StepPrompt] = [:]
        var errors: [PromptError] = []
        var coaching = CoachingKnowledge.none
        do {
            coaching = try CoachingKnowledge.load(layout: layout)
        } catch {
            errors.append(error)
        }
        for step in PipelineStep.allCases {
            do {
                prompts[step] = try StepPrompt.load(step, layout: layout, variant: variants.steps[step])
            } catch {
                errors.append(error)
            }
        }
        var intakeLimits: IntakeLimitRules?
        do {
            intakeLimits = try IntakeLimitRules.load(layout: layout)
        } catch {
            errors.append(error)
        }
        var contracts: [PipelineStep: AppContract] = [:]
        do {
            contracts = try AppContract.load(layout: layout)
        } catch {
            errors.append(error)
        }
        var planRules: ProgramPlanRules?
        do {
            planRules = try ProgramPlanRules.load(layout: layout, patterns: coaching.catalogue.patterns)
        } catch {
            errors.append(error)
        }
        var goalKinds: GoalKindRules?
        do {
            goalKinds = try GoalKindRules.load(layout: layout)
        } catch {
            errors.append(error)
        }
        for prompt in prompts.values where !prompt.step.writesProgram && prompt.metadata.pinsPlan && goalKinds == nil {
            errors.append(PromptError(
                file: "prompts/\(prompt.step.rawValue)", message: "`plan: pinned` on goal options needs prompts/coaching/goal-kinds.yaml"))
        }
        for prompt in prompts.values where prompt.usedVariables.contains(ProgramPlan.variableName) && (planRules == nil || intakeLimits == nil) {
            errors.append(PromptError(
                file: "prompts/\(prompt.step.rawValue)", message: "`{{\(ProgramPlan.variableName)}}` needs prompts/program-plan.yaml and prompts/intake-limits.yaml"))
        }
        for prompt in prompts.values where prompt.metadata.schemaFromIntake == true && intakeLimits == nil {
            errors.append(PromptError(
                file: "prompts/\(prompt.step.rawValue)", message: "`schema_from_intake: true` needs prompts/intake-limits.yaml, which is missing"))
        }
        for prompt in prompts.values where prompt.step.writesProgram && prompt.metadata.pinsPlan && (planRules?.sessions == nil || intakeLimits == nil || coaching.catalogue.exercises.isEmpty) {
            errors.append(PromptError(
                file: "prompts/\(prompt.step.rawValue)",
                message: "`plan: pinned` needs prompts/program-plan.yaml with `sessions` and `prescriptions`, prompts/intake-limits.yaml and prompts/coaching/catalogue.yaml"))
        }
        guard errors.isEmpty else { throw PromptLibraryError(errors: errors) }
        self.prompts = prompts
        self.coaching = coaching
        self.variants = variants
        self.intakeLimits = intakeLimits
        self.planRules = planRules
        self.goalKinds = goalKinds
        self.contracts = contracts
    }

    /// What the backend reads from `record` about the goal they want; nil without
    /// prompts/coaching/goal-kinds.yaml. Days and minutes are the program plan's.
    public func goalFrame(for record: LocalIntakeData) -> GoalFrame? {
        goalFrame(for: record, memo: nil)
    }

    func goalFrame(for record: LocalIntakeData, memo: FixtureMemo?) -> GoalFrame? {
        guard let goalKinds else { return nil }
        let plan = plan(for: record, confirmedGoal: nil, memo: memo)
        return goalKinds.frame(for: record, days: plan?.days ?? 3, minutes: plan?.minutes ?? 45, knowledge: coaching)
    }

    /// The options a goal-option step that pins them lays out for `input`: the kinds
    /// offered, or for an edit what its feedback changes; nil for any other step.
    public func optionLayout(_ step: PipelineStep, input: StepInput) -> OptionLayout? {
        guard !step.writesProgram, self[step].metadata.pinsPlan, let goalKinds,
              let frame = goalFrame(for: input.fixture.record, memo: input.memo) else { return nil }
        guard step.edits else { return goalKinds.layout(for: frame) }
        guard let current = input.currentOptions else { return nil }
        return goalKinds.editLayout(
            current: current, feedback: input.feedback ?? "", earlier: input.earlierFeedback, round: input.earlierFeedback.count + 1,
            frame: frame, knowledge: coaching)
    }

    /// What the backend decides for `record` before a model writes its program; nil
    /// when the project has no prompts/program-plan.yaml or intake-limits.yaml.
    /// With `confirmedGoal` (prompt sets that pin the plan pass it), a span the goal
    /// they confirmed states ("in 12 weeks") sets the length.
    public func plan(for record: LocalIntakeData, confirmedGoal: JSONValue? = nil) -> ProgramPlan? {
        plan(for: record, confirmedGoal: confirmedGoal, memo: nil)
    }

    /// `plan(for:confirmedGoal:)`, worked out once per goal in a fixture's run when `memo` is its.
    func plan(for record: LocalIntakeData, confirmedGoal: JSONValue?, memo: FixtureMemo?) -> ProgramPlan? {
        guard let planRules, let limits = limits(for: record, memo: memo) else { return nil }
        let planning = { (goal: JSONValue?) in
            planRules.plan(
                for: record, limits: limits, conditions: self.coaching.conditionIDs(for: record), confirmedGoal: Self.goalText(of: goal),
                confirmedWeeks: goal?["weeks"]?.intValue)
        }
        return memo.map { $0.plan(for: confirmedGoal, planning: planning) } ?? planning(confirmedGoal)
    }

    /// The bounds `record` sets (nil without prompts/intake-limits.yaml), worked out once
    /// in a fixture's run when `memo` is its.
    func limits(for record: LocalIntakeData, memo: FixtureMemo?) -> IntakeLimits? {
        guard let intakeLimits else { return nil }
        return memo.map { $0.limits { intakeLimits.limits(for: record) } } ?? intakeLimits.limits(for: record)
    }

    /// The words of a confirmed goal option that say what it aims at and by when.
    static func goalText(of confirmedGoal: JSONValue?) -> String? {
        let parts = ["title", "summary", "detail"].compactMap { confirmedGoal?[$0]?.stringValue }
        return parts.isEmpty ? nil : parts.joined(separator: "\n")
    }

    /// The week the backend lays out for `record`'s person, given the goal they confirmed;
    /// nil without the plan's `sessions` rules.
    public func sessionLayout(for record: LocalIntakeData, confirmedGoal: JSONValue?) -> SessionLayout? {
        sessionLayout(for: record, confirmedGoal: confirmedGoal, memo: nil)
    }

    /// `sessionLayout(for:confirmedGoal:)`, laid out once per goal in a fixture's run when `memo` is its.
    func sessionLayout(for record: LocalIntakeData, confirmedGoal: JSONValue?, memo: FixtureMemo?) -> SessionLayout? {
        if let memo {
            return memo.layout(for: confirmedGoal) { layOut(for: record, confirmedGoal: $0, memo: memo) }
        }
        return layOut(for: record, confirmedGoal: confirmedGoal, memo: nil)
    }

    private func layOut(for record: LocalIntakeData, confirmedGoal: JSONValue?, memo: FixtureMemo?) -> SessionLayout? {
        guard let planRules, let sessions = planRules.sessions, let plan = plan(for: record, confirmedGoal: confirmedGoal, memo: memo) else { return nil }
        let goalText = [confirmedGoal?["summary"]?.stringValue, confirmedGoal?["title"]?.stringValue, record.goals].compactMap { $0 }.joined(separator: "\n")
        let language = record.writtenLanguage == "es" ? "es" : "en"
        var layout = sessions.layout(
            plan: plan, allowed: coaching.allowedExercises(for: record, equipment: plan.equipment), beginner: plan.beginner,
            language: language, activities: coaching.activities(namedIn: goalText, for: record),
            included: coaching.includedFamilies(for: record).filter(coaching.catalogue.patterns.contains), knowledge: coaching)
        if let effort = coaching.effortNote(for: record, language: language) { layout.notes.append(effort) }
        return layout
    }

    /// The steps whose output the backend builds from the model's reply rather than
    /// being the reply: a pinned plan's draft, an edit given as operations.
    public var stepsBuildingOutputFromReply: Set<PipelineStep> {
        Set(PipelineStep.allCases.filter { self[$0].metadata.pinsPlan || self[$0].metadata.editsByOperations })
    }

    public subscript(step: PipelineStep) -> StepPrompt {
        prompts[step]!
    }

    /// The exact messages `step` sends for `input`.
    public func render(_ step: PipelineStep, input: StepInput) -> RenderedPrompt {
        rendering(step, input: input).prompt
    }

    /// The messages, and the week's layout they were built on (when the step pins the
    /// plan or shows the layout), so the step's backend work reuses it.
    func rendering(_ step: PipelineStep, input: StepInput) -> (prompt: RenderedPrompt, layout: SessionLayout?) {
        let prompt = self[step]
        var variables: [String: String] = ["intake_json": input.fixtureData.intakeJSON]
        variables["skipped_fields"] = input.fixtureData.skippedFields
        let used = prompt.usedVariables
        if let options = input.currentOptions {
            variables["current_options_json"] = PromptData.fenced(options)
            if used.contains("current_options_text") { variables["current_options_text"] = PromptData.optionLines(options) }
        }
        if !input.earlierFeedback.isEmpty {
            variables["earlier_feedback_json"] = PromptData.fenced(.array(input.earlierFeedback.map(JSONValue.string)))
        }
        if let feedback = input.feedback { variables["feedback_json"] = PromptData.fenced(.string(feedback)) }
        if let goal = input.confirmedGoal { variables["confirmed_goal_json"] = PromptData.fenced(PromptData.goalOption(goal)) }
        if let program = shownProgram(step, input: input) {
            variables["current_program_json"] = PromptData.fenced(program, pretty: false)
            if used.contains("current_program_text") { variables["current_program_text"] = PromptData.programLines(program) }
        }
        // Read from the record only for a template that shows them: each is a scan of its answers.
        if used.contains("health_cautions") {
            let cautions = coaching.cautions(for: input.fixture.record)
            if !cautions.isEmpty { variables["health_cautions"] = cautions.map { "- \($0)" }.joined(separator: "\n") }
        }
        let showsMenu = used.contains("exercise_menu")
        let limits = showsMenu || !used.isDisjoint(with: IntakeLimits.variableNames) ? limits(for: input.fixture.record, memo: input.memo) : nil
        if let limits { variables.merge(limits.templateVariables) { current, _ in current } }
        if used.contains(ProgramPlan.variableName),
           let plan = plan(for: input.fixture.record, confirmedGoal: prompt.metadata.pinsPlan ? input.confirmedGoal : nil, memo: input.memo) {
            variables[ProgramPlan.variableName] = plan.lines.map { "- \($0)" }.joined(separator: "\n")
        }
        let layout = step.writesProgram && (prompt.metadata.pinsPlan || used.contains(SessionLayout.variableName))
            ? sessionLayout(for: input.fixture.record, confirmedGoal: input.confirmedGoal, memo: input.memo)
            : nil
        if used.contains(SessionLayout.variableName), let layout {
            variables[SessionLayout.variableName] = layout.lines.joined(separator: "\n")
        }
        if showsMenu {
            let menu = coaching.exerciseMenu(for: input.fixture.record, equipment: limits?.equipment)
            if !menu.isEmpty { variables["exercise_menu"] = menu.map { "- \($0.label): \($0.exercises.joined(separator: ", "))" }.joined(separator: "\n") }
        }
        var schema = replySchemaDocument(step, for: input.fixture.record, memo: input.memo)
        if prompt.metadata.pinsPlan, step.draftsProgram, let layout {
            schema = PlannedProgram.replySchema(layout: layout)
        }
        if used.contains("goal_answers_json") { variables["goal_answers_json"] = PromptData.fenced(PromptData.goalAnswers(input.fixture.record)) }
        if let options = optionLayout(step, input: input) {
            variables[OptionLayout.variableName] = options.lines.joined(separator: "\n")
            schema = PlannedOptions.replySchema(layout: options)
        }
        if prompt.metadata.editsByOperations, let program = shownProgram(step, input: input) {
            if prompt.metadata.pinsPlan, let layout { schema = PlannedProgram.narrowingExercises(of: schema, to: layout) }
            schema = ProgramOperations.replySchema(editing: program, document: schema)
            if prompt.metadata.pinsPlan, let layout { schema = PlannedProgram.pinningOperations(in: schema, editing: program, layout: layout) }
        }
        let rendered = RenderedPrompt(step: step, system: prompt.system, user: prompt.renderUserMessage(variables), schema: schema, metadata: prompt.metadata)
        return (rendered, layout)
    }

    /// The current program as `step` is shown it: as the step would write it, without
    /// the parts the harness renders.
    func shownProgram(_ step: PipelineStep, input: StepInput) -> JSONValue? {
        guard var program = input.currentProgram else { return nil }
        let metadata = self[step].metadata
        if metadata.leavesOutMinutes { program = ProgramMinutes.leftOut(of: program) }
        if metadata.rendersProgression { program = ProgramProgression.leftOut(of: program) }
        return program
    }

    /// The schema a step's request carries: fitted to the person when its `prompt.yaml` asks.
    public func replySchemaDocument(_ step: PipelineStep, for record: LocalIntakeData) -> JSONValue {
        replySchemaDocument(step, for: record, memo: nil)
    }

    func replySchemaDocument(_ step: PipelineStep, for record: LocalIntakeData, memo: FixtureMemo?) -> JSONValue {
        let prompt = self[step]
        guard prompt.metadata.schemaFromIntake == true, let limits = limits(for: record, memo: memo) else { return prompt.replySchemaDocument }
        return limits.narrowing(prompt.replySchemaDocument)
    }

    /// The compiled schema a reply to `document` (a step's request schema) is validated against.
    func replySchema(_ step: PipelineStep, document: JSONValue) -> Schema {
        let prompt = self[step]
        let fitted = prompt.metadata.schemaFromIntake == true && intakeLimits != nil
        guard fitted || prompt.metadata.editsByOperations || prompt.metadata.pinsPlan else { return prompt.replySchema }
        let key = Fingerprint.of(bytes: document.serializedBytes(.canonical))
        // A fitted schema only changes bounds of a schema that compiled, and an edit's
        // operations are built from its definitions, so either compiles too.
        return fittedSchemas.value(for: key) { try? Schema(document, baseURI: prompt.schemaBaseURI) } ?? prompt.replySchema
    }
}

/// Every problem found while loading the prompts.
public struct PromptLibraryError: Error, Sendable, CustomStringConvertible {
    public let errors: [PromptError]

    public var description: String {
        "The prompts cannot be used (\(errors.count) problem\(errors.count == 1 ? "" : "s")):\n"
            + errors.map { "  \($0)" }.joined(separator: "\n")
    }
}

/// What a step renders from: the fixture and what earlier steps produced.
///
/// The pipeline builds one input per fixture and copies it for each step, so
/// what depends on the fixture alone is computed once.
public struct StepInput: Sendable {
    public let fixture: Fixture
    /// Made when a step first renders: a step read back from the step cache renders nothing.
    private let promptData: FixturePromptData.Once
    var fixtureData: FixturePromptData { promptData.value }
    public var currentOptions: JSONValue?
    /// Option-edit feedback already applied, oldest first.
    public var earlierFeedback: [String]
    public var feedback: String?
    public var confirmedGoal: JSONValue?
    public var currentProgram: JSONValue?
    /// What this fixture's run already worked out from its record, shared by its steps.
    var memo: FixtureMemo?

    public init(
        fixture: Fixture, currentOptions: JSONValue? = nil, earlierFeedback: [String] = [], feedback: String? = nil,
        confirmedGoal: JSONValue? = nil, currentProgram: JSONValue? = nil
    ) {
        self.fixture = fixture
        promptData = FixturePromptData.Once(fixture)
        self.currentOptions = currentOptions
        self.earlierFeedback = earlierFeedback
        self.feedback = feedback
        self.confirmedGoal = confirmedGoal
        self.currentProgram = currentProgram
    }
}

/// The parts of every step's prompt that come from the fixture alone.
struct FixturePromptData: Sendable {
    /// The answered intake fields, fenced for the prompt.
    let intakeJSON: String
    let skippedFields: String?
    /// Names the record in a request's provenance.
    let recordFingerprint: String

    init(_ fixture: Fixture) {
        intakeJSON = PromptData.fenced(PromptData.intake(fixture.record))
        skippedFields = PromptData.skippedFields(fixture.record)
        recordFingerprint = Fingerprint.of(fixture.recordJSON.serialized(.canonical))
    }

    /// The data made once, on first use, and shared by every copy of the input.
    final class Once: @unchecked Sendable {
        private let fixture: Fixture
        private let lock = NSLock()
        private var made: FixturePromptData?

        init(_ fixture: Fixture) {
            self.fixture = fixture
        }

        var value: FixturePromptData {
            lock.withLock {
                if let made { return made }
                let data = FixturePromptData(fixture)
                made = data
                return data
            }
        }
    }
}

/// The exact messages one step sends, before any provider is involved.
public struct RenderedPrompt: Codable, Hashable, Sendable {
    public var step: PipelineStep
    public var system: String
    public var user: String
    public var schema: JSONValue
    public var metadata: PromptMetadata

    /// The provider-neutral request for this prompt.
    public var completionRequest: CompletionRequest {
        CompletionRequest(
            system: system, messages: [ChatMessage(role: .user, content: user)], responseSchema: schema,
            schemaName: step.schemaName,
            temperature: metadata.temperature, maxTokens: metadata.maxTokens, seed: metadata.seed,
            compactJSON: metadata.compactJSON == true)
    }
}

/// What one fixture's run works out from its record alone, once, for its steps to
/// share: the intake's bounds, and the plan and the week laid out for each confirmed
/// goal (a program's draft, its checks and its edit use the same ones).
final class FixtureMemo: @unchecked Sendable {
    private let lock = NSLock()
    private var layouts: [JSONValue?: SessionLayout?] = [:]
    private var plans: [JSONValue?: ProgramPlan?] = [:]
    private var bounds: IntakeLimits?

    func layout(for goal: JSONValue?, layingOut: (JSONValue?) -> SessionLayout?) -> SessionLayout? {
        Self.once(goal, in: \.layouts, of: self, working: layingOut)
    }

    func plan(for goal: JSONValue?, planning: (JSONValue?) -> ProgramPlan?) -> ProgramPlan? {
        Self.once(goal, in: \.plans, of: self, working: planning)
    }

    func limits(working: () -> IntakeLimits) -> IntakeLimits {
        if let known = lock.withLock({ bounds }) { return known }
        let limits = working()
        lock.withLock { bounds = limits }
        return limits
    }

    /// The value kept for `goal`, or the one worked out now (nil included) and kept.
    private static func once<Value>(
        _ goal: JSONValue?, in table: ReferenceWritableKeyPath<FixtureMemo, [JSONValue?: Value?]>, of memo: FixtureMemo,
        working: (JSONValue?) -> Value?
    ) -> Value? {
        if let known = memo.lock.withLock({ memo[keyPath: table][goal] }) { return known }
        let value = working(goal)
        memo.lock.withLock { memo[keyPath: table][goal] = .some(value) }
        return value
    }
}
