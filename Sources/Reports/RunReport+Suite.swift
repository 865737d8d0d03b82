import Checks

extension RunReport {
    /// Judges the run's programs side by side: each fixture's drafted program, as its
    /// report holds it (an edit repeats its draft, so it is left out).
    public mutating func judgeSuite(rules: AdviceRules.SuiteSamenessRules?) {
        let programs = fixtures.compactMap { fixture in
            fixture.draftStep?.output.map { SuiteChecks.Program(fixture: fixture.name, output: $0) }
        }
        judgeSuite(programs, rules: rules)
    }

    /// Sets `suiteChecks` from `programs`: nil when there are too few or no rules.
    public mutating func judgeSuite(_ programs: [SuiteChecks.Program], rules: AdviceRules.SuiteSamenessRules?) {
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

extension FixtureReport {
    /// The step that drafts the fixture's program, if the run planned one.
    public var draftStep: StepReport? {
        steps.first { $0.step?.draftsProgram ?? false }
    }
}
