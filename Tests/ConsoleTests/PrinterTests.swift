import Console
import Evaluation
import Foundation
@testable import Golden
import Intake
import JSONSchema
import Pipeline
import Providers
import Testing

/// What the printers write, read back from a real file: the run's progress, the
/// comparison with golden and what `accept` did, as a user reads them.
struct PrinterTests {
    /// A terminal on a temporary file, and what was written to it once `body` is done.
    static func printed(usesColor: Bool = false, isInteractive: Bool = false, _ body: (Terminal) -> Void) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("printed-\(UUID().uuidString).txt")
        FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forWritingTo: file)
        body(Terminal(handle: handle, usesColor: usesColor, isInteractive: isInteractive))
        try handle.close()
        return try String(contentsOf: file, encoding: .utf8)
    }

    static func known(_ fixture: String, _ checks: [String]) -> StepVerdict {
        var verdict = StepVerdict(key: StepKey(fixture: fixture, step: "goal-options"), status: .knownFailure, reasons: [])
        verdict.knownFailures = checks
        return verdict
    }

    @Test func knownFailuresTakeOneLineNamingTheirMostFrequentChecks() throws {
        let report = GoldenReport(verdicts: [
            Self.known("ana", ["options.distinct", "output.not-cut-off", "assertion.regex (?i)wedding"]),
            Self.known("ben", ["options.distinct", "output.script", "options.unique-ids", "program.fits-timeline"]),
            StepVerdict(key: StepKey(fixture: "cy", step: "goal-options"), status: .matches, reasons: []),
        ], orphans: [])
        let text = try Self.printed { GoldenReportPrinter(terminal: $0, ci: true).print(report, statusLine: "gate passes · 3 steps: known failure 2 · pass 1") }
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines == [
            "known-failure 2 steps fail only checks that failed in golden too: options.distinct ×2, assertion.regex ×1, "
                + "options.unique-ids ×1, output.not-cut-off ×1 and 2 more checks (the report lists every step)",
            "gate passes · 3 steps: known failure 2 · pass 1",
        ])
    }

    @Test func aRegressionShowsItsReasonsAndDiffAndTheRerecordingKeepsTheRunsScope() throws {
        var regression = StepVerdict(key: StepKey(fixture: "ana", step: "program-draft"), status: .regression, reasons: ["check program.safe-for: passes → fails"])
        regression.outputDiff = "~ /title: \"A\" → \"B\""
        var stale = StepVerdict(key: StepKey(fixture: "ben", step: "goal-options"), status: .stale, reasons: ["stale-recording: …"])
        stale.staleCauses = ["prompt template (prompts/goal-options/variants/terse/user.mustache)"]
        stale.requestDiff = "@@ -1 +1 @@\n-Write 3 options\n+Write three options"
        let text = try Self.printed { terminal in
            GoldenReportPrinter(terminal: terminal, ci: false, variantArguments: " --variant goal-options=terse", scopeArguments: " --fixture ben --until goal-options")
                .print(GoldenReport(verdicts: [regression, stale], orphans: []), statusLine: "gate fails · 2 steps: regression 1 · stale 1")
        }
        #expect(text.hasPrefix("regression ana/program-draft\n    check program.safe-for: passes → fails\n      ~ /title: \"A\" → \"B\"\n"), "\(text)")
        #expect(text.contains("stale 1 recording is stale because the prompt template (prompts/goal-options/variants/terse/user.mustache) changed\n"))
        #expect(text.contains("      +Write three options\n"))
        #expect(text.contains("`\(Invocation.command) run --provider local --record-missing --fixture ben --until goal-options --variant goal-options=terse`"), "\(text)")
        #expect(text.hasSuffix("gate fails · 2 steps: regression 1 · stale 1\n"))
    }

    @Test func colourIsAddedOnlyWhenTheTerminalWantsIt() throws {
        var new = StepVerdict(key: StepKey(fixture: "ana", step: "goal-options"), status: .new, reasons: ["no golden output yet"])
        new.differsFromGolden = true
        let report = GoldenReport(verdicts: [new], orphans: [])
        let plain = try Self.printed { GoldenReportPrinter(terminal: $0, ci: false).print(report, statusLine: "gate fails · 1 step: new 1") }
        let coloured = try Self.printed(usesColor: true) { GoldenReportPrinter(terminal: $0, ci: false).print(report, statusLine: "gate fails · 1 step: new 1") }
        #expect(!plain.contains("\u{1B}["))
        #expect(plain.hasPrefix("new ana/goal-options\n"))
        #expect(coloured.hasPrefix("\u{1B}[33mnew\u{1B}[0m ana/goal-options\n"))
        #expect(plain.contains("1 pending output to review: `\(Invocation.command) pending --fixture ana`, then `\(Invocation.command) accept --fixture ana`"))
    }

    @Test func replayPrintsOnlyTheStepsThatFailedWhileALiveRunPrintsEach() throws {
        let attempt = Attempt(responseText: "{", finishReason: "length", usage: TokenUsage(input: 900, output: 600), latency: 41.5, problems: ["truncated"])
        var invalid = StepResult(id: .programEdit, status: .invalid, attempts: [attempt])
        invalid.failure = StepFailure(kind: .invalidOutput, message: "the reply stopped at the token limit")
        var error = StepResult(id: .programDraft, status: .error)
        error.failure = StepFailure(kind: .other, message: "cannot read golden/ana/program-draft.cassette.json")
        let valid = StepResult(id: .goalOptions, status: .valid, attempts: [Attempt(
            responseText: "{}", finishReason: "stop", usage: TokenUsage(input: 500, output: 90), latency: 12.25, problems: [])])
        // A step past `--until` is not news; one skipped for want of its input is.
        let unselected = StepResult(id: .programEdit, status: .skipped, note: "not selected (--until program-draft)")
        let inputless = StepResult(id: .programEdit, status: .skipped, note: "program-draft produced no output")
        let events = [valid, invalid, error, unselected, inputless].map { Evaluation.Event.pipeline(.stepFinished(fixture: "ana", result: $0)) }

        let replay = try Self.printed { terminal in
            let printer = ProgressPrinter(terminal: terminal, printsValidSteps: false, replaying: true)
            events.forEach(printer.handle)
            printer.finish()
        }
        #expect(replay == "✗ error ana program-draft: error: cannot read golden/ana/program-draft.cassette.json\n")

        let live = try Self.printed { terminal in
            let printer = ProgressPrinter(terminal: terminal, printsValidSteps: true)
            events.forEach(printer.handle)
            printer.finish()
        }
        #expect(live.split(separator: "\n").map(String.init) == [
            "✓ ana goal-options 12.2s 500→90 tok",
            "✗ invalid ana program-edit 41.5s 900→600 tok: invalid-output: the reply stopped at the token limit",
            "✗ error ana program-draft: error: cannot read golden/ana/program-draft.cassette.json",
            "- skipped ana program-edit: program-draft produced no output",
        ])
    }

    @Test func acceptSaysWhatItDidAndHowMuch() throws {
        let text = try Self.printed { terminal in
            let printer = AcceptancePrinter(terminal: terminal, selectsEverything: false)
            printer.print(.accepted(StepKey(fixture: "ana", step: "goal-options")))
            printer.print(.acceptedAll([StepKey(fixture: "ana", step: "goal-options")]))
            printer.print(.acceptedAll([]))
        }
        #expect(text == "accepted ana/goal-options\n1 accepted.\nNothing pending for that selection.\n")
    }
}
