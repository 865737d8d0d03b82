/// Every check's result per fixture: checks as rows, fixtures as columns, the
/// checks failed in the most fixtures first. The model behind the checks matrix
/// of `index.html`.
///
/// A cell sums up one check over the steps of one fixture where it ran: a check
/// such as `program.days-per-week` runs on the draft and on the edit.
struct ChecksMatrix: Sendable {
    /// What one check did in one fixture, worst first when its steps disagree.
    enum State: String, CaseIterable, Sendable {
        /// A step failed it, and that step passed it in golden or has no golden
        /// result for it: a regression or a new failure.
        case fail
        /// It failed, and every step that failed it failed it in golden too.
        case known
        /// Every step where it ran passed it.
        case pass
        /// No step of the fixture produced it.
        case notRun = "not-run"

        /// How the legend and the tooltips name the state.
        var label: String {
            switch self {
            case .fail: "fail"
            case .known: "known failure"
            case .pass: "pass"
            case .notRun: "not run"
            }
        }
    }

    /// One check in one fixture's steps.
    struct Run: Sendable, Hashable {
        /// The step's id, such as `program-draft`.
        var step: String
        var check: CheckReport
    }

    /// One check in one fixture.
    struct Cell: Sendable {
        var fixture: String
        /// In step order.
        var runs: [Run]
        var state: State

        /// The first step that failed the check, for a link to it.
        var firstFailure: Run? { runs.first { !$0.check.passed } }
    }

    /// One check across the fixtures.
    struct Row: Sendable {
        var name: String
        /// The check's state in each fixture, in the matrix's fixture order.
        var states: [State]
        /// Fixtures where a step failed the check, known failures included.
        let failing: Int
        /// Fixtures where it failed anew.
        let newFailures: Int
        /// Fixtures where it ran at all.
        let ran: Int

        init(name: String, states: [State]) {
            self.name = name
            self.states = states
            failing = states.filter { $0 == .fail || $0 == .known }.count
            newFailures = states.filter { $0 == .fail }.count
            ran = states.filter { $0 != .notRun }.count
        }
    }

    /// Fixture names in the report's order.
    var fixtures: [String]
    /// The most failing fixtures first, then by name.
    var rows: [Row]
    /// The fixtures' steps, for the cells shown: a large run's matrix has tens of
    /// thousands of cells, and a page shows at most a few thousand.
    private let reports: [FixtureReport]

    init(_ report: RunReport) {
        reports = report.fixtures
        fixtures = report.fixtures.map(\.name)
        // Each fixture's checks are summed up, and each check's row made, on every core.
        let statesByFixture = report.fixtures.concurrentMap { fixture in
            var states: [String: State] = [:]
            for step in fixture.steps {
                for check in step.checks { states[check.name] = Self.state(states[check.name] ?? .notRun, adding: check) }
            }
            return states
        }
        let names = Set(statesByFixture.flatMap(\.keys)).sorted()
        rows = names.concurrentMap { name in Row(name: name, states: statesByFixture.map { $0[name] ?? .notRun }) }
            .sorted { $0.failing != $1.failing ? $0.failing > $1.failing : $0.name < $1.name }
    }

    /// Check `row` in the fixture at `column`, with the steps where it ran.
    func cell(_ row: Row, _ column: Int) -> Cell {
        let fixture = reports[column]
        let runs = fixture.steps.flatMap { step in step.checks.filter { $0.name == row.name }.map { Run(step: step.id, check: $0) } }
        return Cell(fixture: fixture.name, runs: runs, state: row.states[column])
    }

    /// Some check failed anew in some fixture.
    var hasNewFailures: Bool { rows.contains { $0.newFailures > 0 } }

    /// How one check did in one fixture, from its results in the fixture's steps.
    static func state(of checks: [CheckReport]) -> State {
        checks.reduce(.notRun, state(_:adding:))
    }

    /// The state of a check once one more of its results is added: any new failure
    /// makes it `fail`, failures all known `known`, passes alone `pass`.
    static func state(_ state: State, adding check: CheckReport) -> State {
        if check.passed { return state == .notRun ? .pass : state }
        if check.passedInGolden != false { return .fail }
        return state == .fail ? .fail : .known
    }
}
