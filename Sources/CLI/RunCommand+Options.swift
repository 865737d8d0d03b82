import ArgumentParser
import Evaluation
import Intake
import Pipeline

extension RunCommand {
    /// `--min-pass-rate` values by step name, `*` for every step.
    func requiredPassRates() throws -> [String: Double] {
        var rates: [String: Double] = [:]
        for value in minPassRates {
            let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
            let step = parts.count == 2 ? parts[0] : "*"
            guard step == "*" || PipelineStep(rawValue: step) != nil else {
                throw ValidationError("--min-pass-rate \(value): `\(step)` is not a step; use one of \(PipelineStep.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            let text = parts.last ?? ""
            let rate = text.hasSuffix("%") ? Double(text.dropLast()).map { $0 / 100 } : Double(text)
            guard let rate, (0...1).contains(rate) else {
                throw ValidationError("--min-pass-rate \(value): the rate must be between 0 and 1 (or 0% and 100%).")
            }
            rates[step] = rate
        }
        return rates
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
        options.requiredPassRates = try requiredPassRates()
        options.gateOn = gateOn ?? .mean
        options.findsOrphans = fixture.isEmpty && tag.isEmpty && until == nil
        options.providerName = providerOptions.provider.rawValue
        options.keptReports = keepReports == 0 ? nil : keepReports
        options.warnings = providerOptions.configuration.map { SchemaWarnings.forRun(prompts: prompts, configuration: $0, through: until) } ?? []
        return options
    }
}
