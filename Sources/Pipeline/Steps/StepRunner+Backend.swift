import Checks
import Intake
import JSONSchema

/// What the backend does to a schema-valid reply before the person sees it: expand a
/// pinned draft, apply an edit's operations within the plan, add an owed referral,
/// render the markdown, and hold back what must not be shown.
extension StepRunner {
    /// A reply after the backend's work.
    struct Finished {
        /// The output, or the problems that leave the reply unusable.
        var judged: (output: JSONValue?, problems: [String])
        /// What the backend did that the step reports once the output is used.
        var applied: [Intervention] = []
        /// What the reply said that must not be shown, each reported whether or not a repair fixes it.
        var blocked: [Intervention] = []
        /// The guardrails' harmful-advice results on the finished output, for the checks.
        var advice: AdviceFindings?
    }

    /// `layout` is the week's layout the request was rendered with.
    func finishing(
        _ judged: (output: JSONValue?, problems: [String]), step: PipelineStep, prompt: StepPrompt, input: StepInput, layout: SessionLayout?
    ) -> Finished {
        if let options = prompts.optionLayout(step, input: input) {
            return finishing(judged, options: options, prompt: prompt, input: input)
        }
        var finished = Finished(judged: judged)
        let record = input.fixture.record
        let pinned = prompt.metadata.pinsPlan
        let layout = pinned ? layout : nil
        let plan = pinned ? prompts.plan(for: record, confirmedGoal: input.confirmedGoal, memo: input.memo) : nil
        if step.draftsProgram, let reply = finished.judged.output, let layout, let plan {
            finished.judged.output = PlannedProgram.expanded(reply, layout: layout, plan: plan, document: prompt.schemaDocument)
        }
        if prompt.metadata.editsByOperations, let reply = finished.judged.output, let program = prompts.shownProgram(step, input: input) {
            if pinned {
                // A pinned program keeps every session whole: no exercise twice, never fewer than its fewest.
                let applied = ProgramOperations.applyingWithinBounds(reply, to: program, document: prompt.schemaDocument, mostDays: plan?.days)
                finished.judged.output = applied.output
                finished.applied = applied.limited.map { Intervention(kind: Intervention.editLimited, detail: $0) }
                if let layout {
                    let names = ProgramOperations.exerciseNames(of: applied.output[ProgramMarkdown.programKey] ?? .null)
                    let requested = Guardrails.requestedOut(names, feedback: input.feedback ?? "", knowledge: prompts.coaching)
                    let honoured = PlannedProgram.honouring(requested, in: applied.output, layout: layout)
                    let noted = PlannedProgram.withSafeNotes(honoured.output, layout: layout) { note in
                        Guardrails.blockedContent(in: .string(note), record: record, personText: input.feedback ?? "", knowledge: prompts.coaching)
                    }
                    finished.judged.output = layout.editAccount.map { $0.telling(noted.output, editedFrom: program) } ?? noted.output
                    finished.applied += noted.replaced.map { Intervention(kind: Intervention.textReplaced, detail: $0) }
                    finished.applied += honoured.replaced.map { Intervention(kind: Intervention.feedbackApplied, detail: $0) }
                }
            } else {
                finished.judged.output = ProgramOperations.applying(reply, to: program, document: prompt.schemaDocument)
            }
        }
        if prompt.metadata.runsGuardrails, let output = finished.judged.output {
            let referral: Intervention?
            (finished.judged.output, referral) = withReferral(output, record: record, schema: prompt.schemaDocument)
            if let referral { finished.applied.append(referral) }
        }
        if prompt.metadata.completesReply, let reply = finished.judged.output {
            finished.judged = Self.withRenderedParts(reply, metadata: prompt.metadata, record: record, schema: prompt.schema)
        }
        if prompt.metadata.runsGuardrails, let output = finished.judged.output {
            (finished.blocked, finished.advice) = Guardrails.review(output, record: record, personText: input.feedback ?? "", knowledge: prompts.coaching)
            if !finished.blocked.isEmpty { finished.judged = (nil, finished.blocked.map(\.detail)) }
        }
        return finished
    }

    /// Pinned goal options after the backend's work: the reply's options in their places
    /// with their ids, each judged by the option guardrails. `fallback` holds the written
    /// options (0-based among them) that take the backend's own text instead.
    func finishing(
        _ judged: (output: JSONValue?, problems: [String]), options: OptionLayout, prompt: StepPrompt, input: StepInput, fallback: Set<Int> = []
    ) -> Finished {
        var finished = Finished(judged: judged)
        guard let reply = judged.output else { return finished }
        let output = PlannedOptions.expanded(reply, layout: options, fallback: fallback)
        finished.applied = options.interventions
        let faults = PlannedOptions.faults(
            in: output, layout: options, record: input.fixture.record, personText: input.feedback ?? "", knowledge: prompts.coaching,
            trusted: fallback)
        // Options whose only faults the backend's text mends take it now, without a repair.
        let replaced = faults.filter { $0.value.allSatisfy { Intervention.replacedWithoutRepair.contains($0.kind) } }
        if !replaced.isEmpty {
            var mended = finishing(judged, options: options, prompt: prompt, input: input, fallback: fallback.union(replaced.keys))
            let slots = options.slots
            mended.applied += replaced.keys.sorted().map { index in
                Intervention(kind: Intervention.textReplaced, detail: "option \(slots[index].id) is the backend's own text: the reply's \(replaced[index]?.first?.detail ?? "")")
            }
            return mended
        }
        finished.blocked = faults.keys.sorted().flatMap { faults[$0] ?? [] }
        guard finished.blocked.isEmpty else {
            finished.judged = (nil, finished.blocked.map(\.detail))
            return finished
        }
        let errors = prompt.schema.validate(output).errors
        // Spelled out: in `cond ? (output, []) : (nil, …)` the nil would be JSON null, a valid output.
        if errors.isEmpty {
            finished.judged = (output, [])
        } else {
            finished.judged = (nil, errors.map(Self.problem))
        }
        return finished
    }

    /// For pinned goal options whose last reply still held what must not be shown: the
    /// options at fault take the backend's own text for their kind. Nil when none is at fault.
    func neutralOptions(
        of judged: (output: JSONValue?, problems: [String]), step: PipelineStep, prompt: StepPrompt, input: StepInput
    ) -> Finished? {
        guard let options = prompts.optionLayout(step, input: input), let reply = judged.output else { return nil }
        let output = PlannedOptions.expanded(reply, layout: options)
        let faults = PlannedOptions.faults(
            in: output, layout: options, record: input.fixture.record, personText: input.feedback ?? "", knowledge: prompts.coaching)
        guard !faults.isEmpty else { return nil }
        var retried = finishing(judged, options: options, prompt: prompt, input: input, fallback: Set(faults.keys))
        guard retried.judged.output != nil else { return nil }
        let slots = options.slots
        retried.applied += faults.keys.sorted().map { index in
            Intervention(kind: Intervention.textReplaced, detail: "option \(slots[index].id) is the backend's own text: the repair still \(faults[index]?.first?.detail ?? "held what must not be shown")")
        }
        return retried
    }

    /// For a pinned draft whose last reply still said what must not be shown: the same
    /// choice of exercises with the backend's own title, goal and safety sentence
    /// (`sessions.neutral_text` of program-plan.yaml), when that is clean. Nil otherwise.
    /// What the reply said stays for the caller to report.
    func neutralRetry(
        of judged: (output: JSONValue?, problems: [String]), step: PipelineStep, prompt: StepPrompt, input: StepInput, layout: SessionLayout?
    ) -> Finished? {
        if !step.writesProgram { return neutralOptions(of: judged, step: step, prompt: prompt, input: input) }
        guard prompt.metadata.pinsPlan, step.draftsProgram, case .object(var reply)? = judged.output,
              let layout, let text = layout.neutralText,
              let plan = prompts.plan(for: input.fixture.record, confirmedGoal: input.confirmedGoal, memo: input.memo)
        else { return nil }
        let written = text.filled(weeks: plan.weeks, days: plan.days)
        reply["title"] = .string(written.title)
        reply["goal"] = .string(written.goal)
        reply["safety_note"] = .string(written.safety)
        var retried = finishing((.object(reply), []), step: step, prompt: prompt, input: input, layout: layout)
        guard retried.judged.output != nil else { return nil }
        retried.applied.append(Intervention(
            kind: Intervention.textReplaced, detail: "the title, goal and safety sentence are the backend's: the reply's still said what must not be shown"))
        return retried
    }
}
