import ArgumentParser
import Console
import Evaluation
import Foundation
import Intake
import Pipeline
import Reports

extension RunCommand {
    /// `--min-pass-rate` and `--gate-on` as the gate they ask for, or a usage error.
    func passRateGate() throws -> RepeatStatistics.PassRateGate {
        do { return try RepeatStatistics.PassRateGate(parsing: minPassRates, basis: gateOn) } catch { throw ValidationError(error.description) }
    }

    /// The run's options as the evaluation takes them, with the provider's schema warnings.
    func evaluationOptions(prompts: PromptLibrary) throws -> Evaluation.Options {
        var options = Evaluation.Options()
        options.lastStep = until
        options.jobs = effectiveJobs
        options.repairs = repairs
        options.runsChecks = !skipChecks
        options.ci = ci
        options.repeats = `repeat`
        let gate = try passRateGate()
        (options.requiredPassRates, options.gateOn) = (gate.requiredRates, gate.basis)
        options.findsOrphans = fixture.isEmpty && tag.isEmpty && until == nil
        options.providerName = providerOptions.provider.rawValue
        options.keptReports = keepReports == 0 ? nil : keepReports
        options.warnings = providerOptions.configuration.map { SchemaWarnings.forRun(prompts: prompts, configuration: $0, through: until) } ?? []
        return options
    }

    /// Replay is CPU-bound and spreads over every core; a live provider gets one request at a time unless asked.
    var effectiveJobs: Int {
        jobs ?? (providerOptions.configuration == nil ? max(1, ProcessInfo.processInfo.activeProcessorCount) : 1)
    }

    /// What prints the run's end, with the commands it may suggest in this run's own terms.
    func outcomePrinter(layout: ProjectLayout, err: Terminal) -> RunOutcomePrinter {
        let arguments = Array(CommandLine.arguments.dropFirst())
        return RunOutcomePrinter(
            out: .standardOutput, err: err, layout: layout, replaying: providerOptions.provider == .replay, ci: ci,
            unreachableHint: providerOptions.provider == .local ? "Start the local model with `scripts/local-model serve qwen`, then run again." : nil,
            resumeLine: ResumeCommand(arguments: arguments).line, scopeArguments: ResumeCommand.scope(of: arguments))
    }
}
