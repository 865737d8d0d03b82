import Foundation
import Golden
import Intake
import Storage
import Testing

/// The checks measured against reviewers' labels, on a small hand-made set whose
/// figures are known.
@Suite("Agreement with reviewers")
struct AgreementTests {
    static func digest(_ n: Int) -> String { String(repeating: String(n % 10), count: 64) }

    static func label(_ verdict: ReviewLabel.Verdict, _ reasons: [String] = [], output n: Int) -> ReviewLabel {
        ReviewLabel(verdict: verdict, reasons: reasons, note: nil, reviewer: "coach", date: "2026-12-01", outputDigest: digest(n))
    }

    /// Ten programs: 4 rejected and caught, 1 rejected and missed (a blind spot),
    /// 2 signed and flagged (false alarms), 3 signed and passed. p_o = 0.7, p_e = 0.5, κ = 0.4.
    static func tenPrograms() -> (labelled: [Labelled], judged: [StepKey: Agreement.Judged]) {
        var labelled: [Labelled] = []
        var judged: [StepKey: Agreement.Judged] = [:]
        let cases: [(ReviewLabel.Verdict, [String], [String])] = [
            (.reject, ["equipment"], ["program.equipment"]),
            (.reject, ["unsafe-for-condition"], ["program.safety", "program.equipment"]),
            (.reject, ["too-many-days"], ["program.days"]),
            (.reject, ["too-many-days"], ["program.days"]),
            (.reject, ["too-short-for-time", "goal-not-served"], []),
            (.sign, [], ["program.days"]),
            (.sign, [], ["program.mentions-name"]),
            (.sign, [], []),
            (.sign, [], []),
            (.sign, [], []),
        ]
        for (index, (verdict, reasons, failed)) in cases.enumerated() {
            let key = StepKey(fixture: "person-\(index)", step: "program-draft")
            labelled.append(Labelled(key: key, label: label(verdict, reasons, output: index), approvedDigest: digest(index)))
            judged[key] = Agreement.Judged(key: key, kind: "program", failedChecks: failed, isApprovedOutput: true)
        }
        return (labelled, judged)
    }

    @Test func theMatrixAndKappaOfAKnownSet() throws {
        let (labelled, judged) = Self.tenPrograms()
        let agreement = Agreement(labelled: labelled, judged: judged)
        let program = try #require(agreement.matrices.first { $0.kind == "program" })
        #expect(agreement.matrices.map(\.kind) == ["program", "all"], "no options were labelled")
        #expect((program.caught, program.blindSpots, program.falseAlarms, program.passed) == (4, 1, 2, 3))
        #expect(abs(try #require(program.agreement) - 0.7) < 1e-12)
        #expect(abs(try #require(program.kappa) - 0.4) < 1e-12)
        // The textbook table's shares (CohenKappaTests) at a fifth of its 50 cases: the
        // standard error grows by √5, to 0.28397.
        #expect(abs(try #require(program.kappaLower) - -0.15657455861795744) < 1e-9)
        #expect(abs(try #require(program.kappaUpper) - 0.9565745586179575) < 1e-9)
        #expect(abs(try #require(program.falseAlarmShare) - 0.2) < 1e-12)
        #expect(agreement.overall == program.withKind("all"))
    }

    @Test func blindSpotsByReasonFalseAlarmsByCheckAndEachChecksPrecision() {
        let (labelled, judged) = Self.tenPrograms()
        let agreement = Agreement(labelled: labelled, judged: judged)
        #expect(agreement.blindSpots == [
            Agreement.Group(name: "goal-not-served", outputs: ["person-4/program-draft"]),
            Agreement.Group(name: "too-short-for-time", outputs: ["person-4/program-draft"]),
        ])
        #expect(agreement.falseAlarms == [
            Agreement.Group(name: "program.days", outputs: ["person-5/program-draft"]),
            Agreement.Group(name: "program.mentions-name", outputs: ["person-6/program-draft"]),
        ])
        let days = agreement.checks.first { $0.check == "program.days" }
        #expect(days?.failed == 3 && days?.rejected == 2)
        #expect(abs((days?.precision ?? 0) - 2.0 / 3.0) < 1e-12)
        #expect(agreement.checks.first { $0.check == "program.equipment" }?.precision == 1)
    }

    @Test func aStaleLabelIsListedAndNeverCounted() {
        var (labelled, judged) = Self.tenPrograms()
        // The approved output changed after the label was given: the blind spot's label is stale.
        labelled[4].approvedDigest = Self.digest(9) + "x"
        let agreement = Agreement(labelled: labelled, judged: judged)
        #expect(agreement.stale == ["person-4/program-draft"])
        #expect(agreement.overall.count == 9)
        #expect(agreement.overall.blindSpots == 0)
        #expect(agreement.blindSpots.isEmpty)
        // A run whose output is not the approved one does not judge the label either.
        judged[StepKey(fixture: "person-0", step: "program-draft")]?.isApprovedOutput = false
        let unjudged = Agreement(labelled: labelled, judged: judged)
        #expect(unjudged.notJudged == ["person-0/program-draft"])
        #expect(unjudged.overall.count == 8)
    }

    @Test func labelsOutsideTheRunAreLeftOut() {
        let (labelled, judged) = Self.tenPrograms()
        let partial = judged.filter { $0.key.fixture == "person-0" }
        let agreement = Agreement(labelled: labelled, judged: partial)
        #expect(agreement.overall.count == 1)
        #expect(agreement.stale.isEmpty && agreement.notJudged.isEmpty)
    }

    @Test func optionsAndProgramsAreCountedApartAndTogether() throws {
        var (labelled, judged) = Self.tenPrograms()
        let key = StepKey(fixture: "person-0", step: "goal-options")
        labelled.append(Labelled(key: key, label: Self.label(.reject, ["cut-text"], output: 42), approvedDigest: Self.digest(42)))
        judged[key] = Agreement.Judged(key: key, kind: "options", failedChecks: [], isApprovedOutput: true)
        let agreement = Agreement(labelled: labelled, judged: judged)
        #expect(agreement.matrices.map(\.kind) == ["options", "program", "all"])
        let options = try #require(agreement.matrices.first)
        #expect((options.caught, options.blindSpots, options.count) == (0, 1, 1))
        #expect(options.kappa == 0, "the reviewer rejects all, the checks pass all: no agreement beyond chance")
        #expect(agreement.overall.count == 11)
        #expect(agreement.blindSpots.first { $0.name == "cut-text" }?.outputs == ["person-0/goal-options"])
    }
}

extension Agreement.Matrix {
    /// The same figures under another kind's name.
    func withKind(_ kind: String) -> Agreement.Matrix {
        var copy = self
        copy.kind = kind
        return copy
    }
}
