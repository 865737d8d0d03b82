import ArgumentParser
import Foundation
import JSONSchema

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
    var only: String?

    @Argument(help: "The instance file.")
    var instance: String

    func run() throws {
        let schemaText = try String(contentsOfFile: schema, encoding: .utf8)
        let compiled = try Schema(jsonText: schemaText)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: instance)))
        let document = try JSONParser.parse(bytes)
        guard compiled.isValid(document) else {
            throw ArgumentParser.ValidationError("\(instance) is not valid against \(schema); the benchmark needs a valid document")
        }
        for _ in 0..<min(iterations, 2_000) { _ = try compiled.isValid(JSONParser.parse(bytes)) }

        let phases: [(String, () throws -> Int)] = [
            ("parse+isValid", {
                var valid = 0
                for _ in 0..<iterations where try compiled.isValid(JSONParser.parse(bytes)) { valid += 1 }
                return valid
            }),
            ("parse", {
                var count = 0
                for _ in 0..<iterations { if case .object = try JSONParser.parse(bytes) { count += 1 } }
                return count
            }),
            ("is-valid", {
                var valid = 0
                for _ in 0..<iterations where compiled.isValid(document) { valid += 1 }
                return valid
            }),
            ("validate", {
                var valid = 0
                for _ in 0..<iterations where compiled.validate(document).isValid { valid += 1 }
                return valid
            }),
        ]
        for (name, body) in phases where only == nil || only == name {
            print("swift \(name) \(rate(try measure(body)))")
        }
    }

    /// CPU seconds `body` takes (CPU time, not wall time, so a busy machine
    /// skews the figures less).
    private func measure(_ body: () throws -> Int) throws -> Double {
        let start = Self.cpuSeconds()
        let count = try body()
        let elapsed = Self.cpuSeconds() - start
        guard count == iterations else { throw ArgumentParser.ValidationError("the benchmark document stopped validating") }
        return elapsed
    }

    private static func cpuSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private func rate(_ seconds: Double) -> String {
        String(format: "%.0f", Double(iterations) / seconds)
    }
}
