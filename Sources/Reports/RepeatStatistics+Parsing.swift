import Intake

extension RepeatStatistics.PassRateGate {
    /// The gate `--min-pass-rate` and `--gate-on` ask for: each value `STEP=RATE` or
    /// `RATE` (every step), a fraction or a percentage. Throws a message naming the
    /// value and what is wrong with it, or why the gate could never pass.
    public init(parsing values: [String], basis: RepeatStatistics.GateBasis?) throws(PassRateGateError) {
        var rates: [String: Double] = [:]
        for value in values {
            let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
            let step = parts.count == 2 ? parts[0] : "*"
            guard step == "*" || PipelineStep(rawValue: step) != nil else {
                throw PassRateGateError(
                    "--min-pass-rate \(value): `\(step)` is not a step; use one of \(PipelineStep.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            let text = parts.last ?? ""
            let rate = text.hasSuffix("%") ? Double(text.dropLast()).map { $0 / 100 } : Double(text)
            guard let rate, (0...1).contains(rate) else {
                throw PassRateGateError("--min-pass-rate \(value): the rate must be between 0 and 1 (or 0% and 100%).")
            }
            rates[step] = rate
        }
        if let basis, rates.isEmpty {
            throw PassRateGateError("--gate-on \(basis.rawValue) judges --min-pass-rate; add one, e.g. --min-pass-rate program-draft=0.8.")
        }
        if basis == .lowerBound, let (step, rate) = rates.first(where: { $0.value >= 1 }) {
            throw PassRateGateError(
                "--min-pass-rate \(step == "*" ? "" : step + "=")\(rate) with --gate-on lower-bound can never pass: the Wilson lower bound stays below 100% however many runs pass; ask for less, e.g. 0.95.")
        }
        self.init(requiredRates: rates, basis: basis ?? .mean)
    }
}

/// Why `--min-pass-rate` or `--gate-on` cannot be used as given.
public struct PassRateGateError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
