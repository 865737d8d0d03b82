import Intake
import JSONSchema

/// Deterministic checks of one step's output against the brief's rules and the
/// fixture's scenario. They run on every valid output, before any golden diff.
public enum DomainChecks {
    /// What a check needs to know besides the output.
    public struct Context: Sendable {
        public var fixture: Fixture
        /// For `goal-options-edit`, the 1-based feedback round.
        public var editRound: Int?
        /// The previous version for an edit: options before the feedback, or the drafted program.
        public var before: JSONValue?

        public init(fixture: Fixture, editRound: Int? = nil, before: JSONValue? = nil) {
            self.fixture = fixture
            self.editRound = editRound
            self.before = before
        }
    }

    public static func check(_ step: PipelineStep, output: JSONValue, context: Context) -> [CheckResult] {
        let scenario = context.fixture.scenario
        var results: [CheckResult]
        switch step {
        case .goalOptions:
            results = GoalOptionChecks.check(output, edit: nil, before: nil)
        case .goalOptionsEdit:
            let edit = context.editRound.flatMap { scenario.optionEdits.indices.contains($0 - 1) ? scenario.optionEdits[$0 - 1] : nil }
            results = GoalOptionChecks.check(output, edit: edit, before: context.before)
        case .programDraft:
            results = ProgramChecks.check(output, expectations: scenario.expect)
        case .programEdit:
            let expectations = scenario.expect.overlaid(with: scenario.programEdit.expect)
            results = ProgramChecks.check(output, expectations: expectations)
            if let before = context.before { results.append(ProgramEditChecks.keepsTheRest(before: before, after: output)) }
        }
        return results + AssertionChecks.check(output, assertions: scenario.assertions.filter { $0.step == step })
    }
}

extension Expectations {
    /// These expectations with `other`'s set values taking precedence; word lists are merged.
    func overlaid(with other: Expectations?) -> Expectations {
        guard let other else { return self }
        func merged(_ base: [String]?, _ extra: [String]?) -> [String]? {
            guard base != nil || extra != nil else { return nil }
            var seen = Set<String>()
            return ((base ?? []) + (extra ?? [])).filter { seen.insert($0.lowercased()).inserted }
        }
        return Expectations(
            maxDaysPerWeek: other.maxDaysPerWeek ?? maxDaysPerWeek,
            maxSessionMinutes: other.maxSessionMinutes ?? maxSessionMinutes,
            equipment: other.equipment ?? equipment,
            avoid: merged(avoid, other.avoid),
            mention: merged(mention, other.mention),
            professionalReferral: other.professionalReferral ?? professionalReferral,
            language: other.language ?? language)
    }
}
