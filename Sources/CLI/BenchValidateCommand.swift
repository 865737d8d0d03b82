import ArgumentParser
import Foundation
import JSONSchema

extension ValidationBenchmark.Phase: ExpressibleByArgument {}

/// Measures validations per second, JSON parsing included (hidden; used by
/// `scripts/bench-validator`).
struct BenchValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-validate",
        abstract: "Measure schema validations per second, parsing included.",
        shouldDisplay: false)

    @Option(name: .long, help: "The JSON Schema file.")
    var schema: String

    @Option(name: .long, help: "How many times to parse and validate the instance.")
    var iterations: Int = 100_000

    @Option(name: .long, help: "Measure only one phase (for profiling): parse, is-valid or validate.")
    var only: ValidationBenchmark.Phase?

    @Argument(help: "The instance file.")
    var instance: String

    func run() throws {
        let benchmark = try Failure.exitingOnError {
            try ValidationBenchmark(schemaFile: schema, instanceFile: instance, iterations: iterations)
        }
        for (phase, rate) in try benchmark.rates(of: only.map { [$0] } ?? ValidationBenchmark.Phase.allCases) {
            print("swift \(phase.rawValue) \(String(format: "%.0f", rate))")
        }
    }
}
