import Checks
import Golden
import Intake
import JSONSchema
import Pipeline
import Providers

extension SettledFixtures {
    /// One step as a settled fixture's file keeps it: its result without output,
    /// prompt, valid replies' text or passed checks' messages, its verdict, whether each
    /// check passed in golden (nil without a golden entry) and its output's fingerprint.
    /// A report shows a passed check's message only in the texts kept beside it.
    ///
    /// Written and read member by member, in short keys: a large run reads ten
    /// thousand of these, and `Codable` took longer than everything else it does for them.
    struct Step: Hashable {
        var result: StepResult
        var verdict: StepVerdict?
        var passedInGolden: [Bool?]
        var outputFingerprint: String?

        func json() throws -> JSONValue {
            var members: [(String, JSONValue)] = [
                ("s", .string(result.status.rawValue)),
                ("a", .array(result.attempts.map { attempt in
                    .array([
                        .number(attempt.latency), .number(Double(attempt.usage.input)), .number(Double(attempt.usage.output)),
                        .number(Double(attempt.retries)), attempt.finishReason.map(JSONValue.string) ?? .null,
                        .array(attempt.problems.map(JSONValue.string)), .string(attempt.responseText), .number(Double(attempt.usage.reasoning)),
                    ])
                })),
                ("k", .array(zip(result.checks, passedInGolden).map { check, golden in
                    .array([.string(check.name), .bool(check.passed), .string(check.passed ? "" : check.message), golden.map(JSONValue.bool) ?? .null])
                })),
            ]
            if let note = result.note { members.append(("n", .string(note))) }
            if let cost = result.cost { members.append(("c", .number(cost))) }
            if let failure = result.failure { members.append(("f", try JSONValueEncoder().encode(failure))) }
            if !result.interventions.isEmpty { members.append(("i", try JSONValueEncoder().encode(result.interventions))) }
            if let outputFingerprint { members.append(("p", .string(outputFingerprint))) }
            if let verdict { members.append(("v", Self.json(verdict))) }
            return .object(JSONObject(members.map { JSONObject.Member(key: $0.0, value: $0.1) }))
        }

        /// The step `id` of `fixture` from its `json()`; nil when anything is missing or of the wrong type.
        init?(_ json: JSONValue, id: StepID, fixture: String) {
            guard let status = json["s"]?.stringValue.flatMap(StepStatus.init(rawValue:)),
                  let attempts = json["a"]?.arrayValue?.map(Self.attempt), !attempts.contains(nil),
                  let checks = json["k"]?.arrayValue
            else { return nil }
            var result = StepResult(id: id, status: status)
            result.attempts = attempts.compactMap { $0 }
            var golden: [Bool?] = []
            for check in checks {
                guard let name = check[0]?.stringValue, let passed = check[1]?.boolValue, let message = check[2]?.stringValue,
                      let mark = check[3]
                else { return nil }
                result.checks.append(CheckResult(name: name, passed: passed, message: message))
                golden.append(mark.boolValue)
            }
            result.note = json["n"]?.stringValue
            result.cost = json["c"]?.numberValue
            do {
                result.failure = try json["f"].map { try JSONValueDecoder().decode(StepFailure.self, from: $0) }
                result.interventions = try json["i"].map { try JSONValueDecoder().decode([Intervention].self, from: $0) } ?? []
            } catch {
                return nil
            }
            if let verdict = json["v"] {
                guard let decoded = Self.verdict(verdict, key: StepKey(fixture: fixture, id: id)) else { return nil }
                self.verdict = decoded
            }
            self.result = result
            passedInGolden = golden
            outputFingerprint = json["p"]?.stringValue
        }

        init(result: StepResult, verdict: StepVerdict?, passedInGolden: [Bool?], outputFingerprint: String?) {
            (self.result, self.verdict, self.passedInGolden, self.outputFingerprint) = (result, verdict, passedInGolden, outputFingerprint)
        }

        private static func attempt(_ json: JSONValue) -> Attempt? {
            guard let latency = json[0]?.numberValue, let input = json[1]?.intValue, let output = json[2]?.intValue,
                  let retries = json[3]?.intValue, let finishReason = json[4], let problems = json[5]?.arrayValue,
                  let responseText = json[6]?.stringValue, let reasoning = json[7]?.intValue
            else { return nil }
            let texts = problems.compactMap(\.stringValue)
            guard texts.count == problems.count else { return nil }
            return Attempt(
                responseText: responseText, finishReason: finishReason.stringValue, usage: TokenUsage(input: input, output: output, reasoning: reasoning),
                latency: latency, problems: texts, retries: retries)
        }

        private static func json(_ verdict: StepVerdict) -> JSONValue {
            var members: [(String, JSONValue)] = [
                ("s", .string(verdict.status.rawValue)), ("r", strings(verdict.reasons)), ("d", .bool(verdict.differsFromGolden)),
                ("sc", strings(verdict.staleCauses)), ("kf", strings(verdict.knownFailures)), ("uc", strings(verdict.unapprovedChecks)),
            ]
            for (key, text) in [("od", verdict.outputDiff), ("md", verdict.markdownDiff), ("rd", verdict.requestDiff)] {
                if let text { members.append((key, .string(text))) }
            }
            if let staleRepeat = verdict.staleRepeat { members.append(("sr", .number(Double(staleRepeat)))) }
            return .object(JSONObject(members.map { JSONObject.Member(key: $0.0, value: $0.1) }))
        }

        private static func verdict(_ json: JSONValue, key: StepKey) -> StepVerdict? {
            guard let status = json["s"]?.stringValue.flatMap(StepVerdict.Status.init(rawValue:)), let reasons = strings(json["r"]),
                  let differs = json["d"]?.boolValue, let staleCauses = strings(json["sc"]), let knownFailures = strings(json["kf"]),
                  let unapprovedChecks = strings(json["uc"])
            else { return nil }
            var verdict = StepVerdict(
                key: key, status: status, reasons: reasons, outputDiff: json["od"]?.stringValue, markdownDiff: json["md"]?.stringValue,
                requestDiff: json["rd"]?.stringValue, staleCauses: staleCauses, differsFromGolden: differs, knownFailures: knownFailures)
            verdict.unapprovedChecks = unapprovedChecks
            verdict.staleRepeat = json["sr"]?.intValue
            return verdict
        }

        private static func strings(_ texts: [String]) -> JSONValue {
            .array(texts.map(JSONValue.string))
        }

        private static func strings(_ json: JSONValue?) -> [String]? {
            guard let elements = json?.arrayValue else { return nil }
            let texts = elements.compactMap(\.stringValue)
            return texts.count == elements.count ? texts : nil
        }
    }
}
