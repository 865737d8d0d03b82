import Golden
import Testing

/// The one pass/fail rule: what passes under `--ci` and in a working run, and the exit status that follows.
struct GateTests {
    @Test(arguments: StepVerdict.Status.allCases)
    func aStepPassesUnderCIOnlyWhenNothingDiffersFromGolden(status: StepVerdict.Status) {
        let ci = Gate.passes(status, mode: .ci)
        let development = Gate.passes(status, mode: .development)
        #expect(ci == [.matches, .knownFailure, .unapprovedCheck, .skipped].contains(status))
        #expect(development == ![.regression, .stale, .error].contains(status), "a working run fails only on what no approval can fix")
        #expect(!ci || development, "whatever CI passes, a working run passes")
    }

    @Test func orphansFailOnlyUnderCIAndAMissedPassRateFailsBoth() {
        #expect(!Gate.passes([.matches], orphans: 1, mode: .ci))
        #expect(Gate.passes([.matches], orphans: 1, mode: .development))
        #expect(!Gate.passes([.matches], orphans: 0, meetsPassRates: false, mode: .development))
        #expect(Gate.passes([StepVerdict.Status](), orphans: 0, mode: .ci))
        #expect(!Gate.passes([.matches, .changed], orphans: 0, mode: .ci))
        #expect(Gate.passes([.matches, .changed], orphans: 0, mode: .development))
    }

    @Test func theExitStatusFollowsTheVerdictHowTheRunEndedAndBadInput() {
        #expect(Gate.exitStatus(passes: true) == .passed)
        #expect(Gate.exitStatus(passes: false) == .failed)
        #expect(Gate.exitStatus(passes: true, badInput: true) == .badInput)
        #expect(Gate.exitStatus(passes: true, mode: .ci, ending: .interrupted, badInput: true) == .interrupted, "Ctrl-C wins")
        #expect(Gate.exitStatus(passes: true, mode: .ci, ending: .budgetSpent) == .failed, "CI cannot pass steps left undone")
        #expect(Gate.exitStatus(passes: true, mode: .development, ending: .budgetSpent) == .passed, "judged on what finished")
        #expect([Gate.ExitStatus.passed, .failed, .badInput, .interrupted].map(\.rawValue) == [0, 1, 2, 130])
    }
}
