import Checks
import Intake
import JSONSchema
import Providers

/// Runs one prompt step: render, call the provider, extract and validate the
/// output, and on an invalid output feed the problems back for a repair.
public struct StepRunner: Sendable {
    public let provider: any ModelProvider
    public let prompts: PromptLibrary
    /// Extra calls allowed after an invalid first reply (0 turns repair off).
    public let repairAttempts: Int
    public let prices: PriceTable
    /// The repeat this runner's calls belong to (`run --repeat N`), for the provider to
    /// file and find each repeat's own recording.
    public let repeatNumber: Int

    public init(
        provider: any ModelProvider, prompts: PromptLibrary, repairAttempts: Int = 1, prices: PriceTable = PriceTable(), repeatNumber: Int = 1
    ) {
        self.provider = provider
        self.prompts = prompts
        self.repairAttempts = repairAttempts
        self.prices = prices
        self.repeatNumber = repeatNumber
    }

    /// The same runner for another repeat.
    public func forRepeat(_ number: Int) -> StepRunner {
        StepRunner(provider: provider, prompts: prompts, repairAttempts: repairAttempts, prices: prices, repeatNumber: number)
    }

    public func run(id: StepID, step: PipelineStep, input: StepInput) async -> StepResult {
        await runKeepingAdvice(id: id, step: step, input: input).result
    }

    /// `run`, with the guardrails' harmful-advice results on the output it kept, which
    /// the checks take instead of searching the same text again.
    func runKeepingAdvice(id: StepID, step: PipelineStep, input: StepInput) async -> (result: StepResult, advice: AdviceFindings?) {
        var advice: AdviceFindings?
        let (rendered, layout) = prompts.rendering(step, input: input)
        let prompt = prompts[step]
        var request = rendered.completionRequest
        request.context = CallContext(
            fixture: input.fixture.name, step: id.description, provenance: Provenance.of(step: step, prompt: prompts[step], input: input),
            repeatNumber: repeatNumber)
        var attempts: [Attempt] = []
        var result = StepResult(id: id, status: .invalid, prompt: rendered)
        if let options = prompts.optionLayout(step, input: input), options.slots.isEmpty {
            // Nothing for a model to write: the backend answers the feedback alone.
            result.status = .valid
            result.output = PlannedOptions.expanded(["options": []], layout: options)
            result.interventions = options.interventions
            result.note = "answered by the backend: no option is left for a model to write"
            return (result, nil)
        }
        for attemptNumber in 0...repairAttempts {
            request.context?.repair = attemptNumber
            let response: CompletionResponse
            do {
                response = try await provider.complete(request)
            } catch let error as ProviderError where error.kind == .repairDeclined {
                result.note = error.message
                break
            } catch let error as ProviderError where error.kind == .budgetExhausted && attemptNumber > 0 {
                // The step ran; only its repair was refused, so it stays invalid rather than not run.
                result.note = "repair not sent: \(error.message)"
                break
            } catch let error as ProviderError {
                result.status = .error
                result.failure = StepFailure(error)
                break
            } catch {
                result.status = .error
                result.failure = StepFailure(kind: .other, message: "\(error)")
                break
            }
            let judged = Self.judge(response, against: prompts.replySchema(step, document: rendered.schema), maxTokens: request.maxTokens)
            var finished = finishing(judged, step: step, prompt: prompt, input: input, layout: layout)
            if !finished.blocked.isEmpty, attemptNumber == repairAttempts,
               var neutral = neutralRetry(of: judged, step: step, prompt: prompt, input: input, layout: layout) {
                // The repair still said what must not be shown: the backend's own words take the place of the model's.
                neutral.blocked = finished.blocked
                finished = neutral
            }
            result.interventions += finished.blocked
            let blocked = finished.judged.output == nil ? finished.blocked : []
            let judgedOutput = finished.judged
            // A used reply's text is the step's output; only an unusable one is kept as it came.
            attempts.append(Attempt(
                responseText: judgedOutput.output == nil ? response.text : "", finishReason: response.finishReason, usage: response.usage,
                latency: response.latency, problems: judgedOutput.problems, retries: response.retries))
            if let output = judgedOutput.output {
                result.status = .valid
                result.output = output
                result.failure = nil
                result.interventions += finished.applied
                advice = finished.advice
                break
            }
            result.failure = StepFailure(kind: .invalidOutput, message: judgedOutput.problems.prefix(3).joined(separator: "; "))
            guard attemptNumber < repairAttempts else { break }
            request.messages.append(ChatMessage(role: .assistant, content: response.text))
            let guarded = step.writesProgram ? Guardrails.repairMessage(blocked) : Guardrails.optionRepairMessage(blocked)
            request.messages.append(ChatMessage(role: .user, content: blocked.isEmpty ? Self.repairMessage(judgedOutput.problems) : guarded))
        }
        if let contract = prompts.contracts[step] {
            judgeAgainst(contract, result: &result, attempts: &attempts, prompt: prompt)
        }
        result.attempts = attempts
        result.cost = prices.cost(model: provider.model, usage: result.usage)
        return (result, advice)
    }

    /// The app's contract has the last word on what the step hands on: an output the
    /// prompt set's schemas accepted but the app would not is invalid; a last reply the
    /// reply schema refused but the app accepts is used as it came, when the reply is
    /// the output (nothing the backend builds from it), and said to be (`reply-schema`).
    /// Neither sends another request: repairs answer the reply schema the request asked for.
    private func judgeAgainst(_ contract: AppContract, result: inout StepResult, attempts: inout [Attempt], prompt: StepPrompt) {
        switch result.status {
        case .valid:
            let problems = contract.problems(in: result.output ?? .null)
            guard !problems.isEmpty else { return }
            result.status = .invalid
            result.failure = StepFailure(
                kind: .invalidOutput, message: "breaks the app's contract (\(contract.file)): " + problems.prefix(3).joined(separator: "; "))
        case .invalid:
            guard !prompt.metadata.completesReply,
                  let last = attempts.last, !last.responseText.isEmpty,
                  case .success(let reply) = OutputExtraction.extract(from: last.responseText),
                  contract.problems(in: reply).isEmpty else { return }
            result.status = .valid
            result.output = reply
            result.failure = nil
            result.interventions.append(Intervention(
                kind: Intervention.replyOutsideSchema,
                detail: "the reply breaks \(prompt.schemaFile) (\(last.problems.prefix(3).joined(separator: "; "))); the app's contract accepts it, so it is used as it came"))
            attempts[attempts.count - 1].responseText = ""
        case .error, .skipped:
            return
        }
    }

    /// `output` with the backend's referral note in its program's safety notes when the
    /// intake owes one and the model left it out, and the intervention that says so.
    func withReferral(_ output: JSONValue, record: LocalIntakeData, schema: JSONValue) -> (JSONValue, Intervention?) {
        guard case .object(var object) = output, let program = object[ProgramMarkdown.programKey] else { return (output, nil) }
        let maxNotes = schema["$defs"]?["program"]?["properties"]?["safety_notes"]?["maxItems"]?.intValue ?? 4
        let language = record.writtenLanguage ?? "en"
        guard let appended = Guardrails.appendingReferral(to: program, record: record, language: language, knowledge: prompts.coaching, maxNotes: maxNotes)
        else { return (output, nil) }
        object[ProgramMarkdown.programKey] = appended.program
        return (.object(object), appended.intervention)
    }

    /// The output when the reply holds a schema-valid JSON value, otherwise every problem.
    static func judge(_ response: CompletionResponse, against schema: Schema, maxTokens: Int) -> (output: JSONValue?, problems: [String]) {
        let value: JSONValue
        switch OutputExtraction.extract(from: response.text) {
        case .failure(let problem):
            var problems = [problem.description]
            if response.wasCutOff {
                problems.append("the reply stopped at the token limit (max_tokens \(maxTokens)) before the JSON was complete")
            }
            return (nil, problems)
        case .success(let extracted):
            value = extracted
        }
        let errors = schema.validate(value).errors
        guard !errors.isEmpty else { return (value, []) }
        return (nil, errors.map(problem))
    }

    /// The reply with the parts the harness renders added (the progression's phases and
    /// each session's minutes, then the markdown in the person's language, which shows them),
    /// checked against the whole output schema (the markdown has a length limit too).
    static func withRenderedParts(
        _ reply: JSONValue, metadata: PromptMetadata, record: LocalIntakeData, schema: Schema
    ) -> (output: JSONValue?, problems: [String]) {
        guard case .object(var object) = reply, var program = object[ProgramMarkdown.programKey] else { return (reply, []) }
        if metadata.rendersProgression { program = ProgramProgression.stated(in: program, language: record.writtenLanguage) }
        if metadata.statesMinutes { program = ProgramMinutes.stated(in: program) }
        object[ProgramMarkdown.programKey] = program
        if metadata.rendersMarkdown {
            let firstName = record.name?.split(whereSeparator: \.isWhitespace).first.map(String.init)
            object[ProgramMarkdown.outputKey] = .string(ProgramMarkdown.render(program, language: record.writtenLanguage, firstName: firstName))
        }
        let output = JSONValue.object(object)
        let errors = schema.validate(output).errors
        // Spelled out: in `cond ? (output, []) : (nil, …)` the nil would be JSON null, a valid output.
        guard errors.isEmpty else { return (nil, errors.map(problem)) }
        return (output, [])
    }

    /// A schema error as one line: where in the output, then what is wrong.
    static func problem(_ error: ValidationError) -> String {
        error.instanceLocation.isRoot ? error.message : "\(error.instanceLocation): \(error.message)"
    }

    /// The follow-up message that asks the model to fix its reply.
    static func repairMessage(_ problems: [String]) -> String {
        let list = problems.prefix(12).map { "- \($0)" }.joined(separator: "\n")
        let more = problems.count > 12 ? "\n- …and \(problems.count - 12) more" : ""
        return """
            Your reply could not be used because it does not match the required JSON format:
            \(list)\(more)

            Reply again with only the complete, corrected JSON object, keeping everything that was already right.
            """
    }
}
