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
        /// Worked out once: a large run's matrix has tens of thousands of cells.
        let state: State

        init(fixture: String, runs: [Run]) {
            self.fixture = fixture
            self.runs = runs
            state = ChecksMatrix.state(of: runs.map(\.check))
        }

        /// The first step that failed the check, for a link to it.
        var firstFailure: Run? { runs.first { !$0.check.passed } }
    }

    /// One check across the fixtures.
    struct Row: Sendable {
        var name: String
        /// One per fixture, in the matrix's fixture order.
        var cells: [Cell]
        /// Fixtures where a step failed the check, known failures included.
        let failing: Int
        /// Fixtures where it failed anew.
        let newFailures: Int
        /// Fixtures where it ran at all.
        let ran: Int

        init(name: String, cells: [Cell]) {
            self.name = name
            self.cells = cells
            failing = cells.filter { $0.state == .fail || $0.state == .known }.count
            newFailures = cells.filter { $0.state == .fail }.count
            ran = cells.filter { $0.state != .notRun }.count
        }
    }

    /// Fixture names in the report's order.
    var fixtures: [String]
    /// The most failing fixtures first, then by name.
    var rows: [Row]

    init(_ report: RunReport) {
        fixtures = report.fixtures.map(\.name)
        // A large run has tens of thousands of cells: each fixture's checks are gathered,
        // and each check's row made, on every core.
        let runsByFixture = report.fixtures.concurrentMap { fixture in
            var runs: [String: [Run]] = [:]
            for step in fixture.steps {
                for check in step.checks { runs[check.name, default: []].append(Run(step: step.id, check: check)) }
            }
            return runs
        }
        let names = Set(runsByFixture.flatMap(\.keys)).sorted()
        let fixtures = self.fixtures
        rows = names.concurrentMap { name in
            Row(name: name, cells: zip(fixtures, runsByFixture).map { fixture, runs in Cell(fixture: fixture, runs: runs[name] ?? []) })
        }
        .sorted { $0.failing != $1.failing ? $0.failing > $1.failing : $0.name < $1.name }
    }

    /// Some check failed anew in some fixture.
    var hasNewFailures: Bool { rows.contains { $0.newFailures > 0 } }

    /// How one check did in one fixture, from its results in the fixture's steps.
    static func state(of checks: [CheckReport]) -> State {
        guard !checks.isEmpty else { return .notRun }
        let failed = checks.filter { !$0.passed }
        if failed.isEmpty { return .pass }
        return failed.contains { $0.passedInGolden != false } ? .fail : .known
    }
}
