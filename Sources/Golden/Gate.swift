/// The one pass/fail rule and the exit status that follows from it: for a step,
/// a run, a merged run and a repeat gate. Everything that passes or fails asks here.
public enum Gate {
    /// How a run is judged.
    public enum Mode: Sendable {
        /// `--ci`: anything that differs from golden fails (a change, a new output, an
        /// orphaned golden file), since nothing can be approved on the way.
        case ci
        /// A working run: only what no approval can fix fails (a regression, a stale
        /// recording, an error); changes are left pending for review.
        case development

        public init(ci: Bool) { self = ci ? .ci : .development }
    }

    /// How a run ended, besides its results.
    public enum Ending: Sendable {
        case finished
        /// A budget stopped new calls: judged on what finished, except under CI,
        /// where the steps left undone keep the gate from passing.
        case budgetSpent
        /// Ctrl-C or SIGTERM: what finished is written and the run exits 130.
        case interrupted
    }

    /// The exit statuses every command uses.
    public enum ExitStatus: Int32, Sendable {
        case passed = 0
        case failed = 1
        /// Bad input: a usage error, a broken fixture, prompt or recording file, a provider that cannot be reached.
        case badInput = 2
        case interrupted = 130
    }

    /// Whether a step with `status` passes in `mode`.
    public static func passes(_ status: StepVerdict.Status, mode: Mode) -> Bool {
        switch mode {
        // A known failure was approved failing; a check added since the output was
        // approved has never passed on it; a skipped step is judged by the one before it.
        case .ci: [.matches, .knownFailure, .unapprovedCheck, .skipped].contains(status)
        case .development: ![.regression, .stale, .error].contains(status)
        }
    }

    /// Whether a run passes in `mode`: every step, no orphaned golden file under CI,
    /// and, for a run with repeats and `--min-pass-rate`, every step's required pass rate.
    public static func passes(
        _ statuses: some Sequence<StepVerdict.Status>, orphans: Int, meetsPassRates: Bool = true, mode: Mode
    ) -> Bool {
        statuses.allSatisfy { passes($0, mode: mode) } && (mode == .development || orphans == 0) && meetsPassRates
    }

    /// The exit status of a command whose verdict is `passes`.
    public static func exitStatus(passes: Bool, mode: Mode = .development, ending: Ending = .finished, badInput: Bool = false) -> ExitStatus {
        if ending == .interrupted { return .interrupted }
        if badInput { return .badInput }
        if ending == .budgetSpent, mode == .ci { return .failed }
        return passes ? .passed : .failed
    }
}
