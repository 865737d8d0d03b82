import Foundation

/// Validations per second of one schema on one instance, JSON parsing included, in CPU
/// time (a busy machine skews CPU time less than wall time). `scripts/bench-validator`
/// reads what `trainer-eval bench-validate` prints from it.
public struct ValidationBenchmark: Sendable {
    /// What a phase measures: parsing and `isValid` together, or one part alone (for profiling).
    public enum Phase: String, CaseIterable, Sendable {
        case parseAndIsValid = "parse+isValid"
        case parse
        case isValid = "is-valid"
        case validate
    }

    public enum Failure: Error, CustomStringConvertible {
        case invalidInstance
        case stoppedValidating

        public var description: String {
            switch self {
            case .invalidInstance: "the instance is not valid against the schema; the benchmark needs a valid document"
            case .stoppedValidating: "the benchmark document stopped validating"
            }
        }
    }

    let schema: Schema
    let bytes: [UInt8]
    let document: JSONValue
    public let iterations: Int

    /// Reads both files and checks the instance is valid, so every iteration does the same work.
    public init(schemaFile: String, instanceFile: String, iterations: Int) throws {
        schema = try Schema(jsonText: try String(contentsOfFile: schemaFile, encoding: .utf8))
        bytes = Array(try Data(contentsOf: URL(fileURLWithPath: instanceFile)))
        document = try JSONParser.parse(bytes)
        guard schema.isValid(document) else { throw Failure.invalidInstance }
        self.iterations = iterations
    }

    /// Validations per second for each phase asked for, in `Phase` order, after a warm-up.
    public func rates(of phases: [Phase] = Phase.allCases) throws -> [(phase: Phase, perSecond: Double)] {
        for _ in 0..<min(iterations, 2_000) { _ = try schema.isValid(JSONParser.parse(bytes)) }
        return try phases.map { phase in
            let start = Self.cpuSeconds()
            guard try run(phase) == iterations else { throw Failure.stoppedValidating }
            return (phase, Double(iterations) / (Self.cpuSeconds() - start))
        }
    }

    /// How many of the iterations came out valid (or, for parsing alone, as an object).
    private func run(_ phase: Phase) throws -> Int {
        var count = 0
        switch phase {
        case .parseAndIsValid: for _ in 0..<iterations where try schema.isValid(JSONParser.parse(bytes)) { count += 1 }
        case .parse: for _ in 0..<iterations { if case .object = try JSONParser.parse(bytes) { count += 1 } }
        case .isValid: for _ in 0..<iterations where schema.isValid(document) { count += 1 }
        case .validate: for _ in 0..<iterations where schema.validate(document).isValid { count += 1 }
        }
        return count
    }

    private static func cpuSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
