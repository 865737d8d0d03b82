import Checks

extension RunReport {
    /// Judges the run's programs side by side: each fixture's drafted program (an
    /// edit repeats its draft, so it is left out). Sets `suiteChecks`, nil when there
    /// are too few programs or no rules.
    public mutating func judgeSuite(rules: AdviceRules.SuiteSamenessRules?) {
        let programs = fixtures.compactMap { fixture -> SuiteChecks.Program? in
            let draft = fixture.steps.first { report in report.step.map { $0.writesProgram && !$0.edits } ?? false }
            return draft?.output.map { SuiteChecks.Program(fixture: fixture.name, output: $0) }
        }
        let results = SuiteChecks.check(programs, rules: rules)
        suiteChecks = results.isEmpty ? nil : results
    }

    /// What the suite checks are, for a report's reader.
    public static let suiteNote = "Each program on its own can pass every check while the run gives many people the same day or one dose for everything: these checks read the run's drafted programs together (advice.yaml's suite_sameness). They are reported, not gated: a small run cannot show them."

    /// The suite checks the run fails.
    public var failingSuiteChecks: [CheckResult] {
        (suiteChecks ?? []).filter { !$0.passed }
    }
}
