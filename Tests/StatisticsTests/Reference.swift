import Foundation
import Testing

/// SciPy's answers, written by make-reference.py next to this file.
struct Reference: Decodable {
    struct McNemar: Decodable { let onlyA, onlyB: Int; let p: Double }
    struct Wilson: Decodable { let passes, runs: Int; let confidence, lower, upper: Double }
    struct NormalQuantile: Decodable { let p, x: Double }
    struct PassAtK: Decodable { let runs, passes, k: Int; let anyPass, allPass: Double }
    struct Wilcoxon: Decodable { let name: String; let differences: [Double]; let statistic, p: Double }
    struct SplitMix: Decodable { let seed: UInt64; let outputs: [String] }

    let mcnemar: [McNemar]
    let wilson: [Wilson]
    let normalQuantile: [NormalQuantile]
    let passAtK: [PassAtK]
    let wilcoxon: [Wilcoxon]
    let splitMix64: SplitMix

    static let shared: Reference = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("reference.json")
        do {
            return try JSONDecoder().decode(Reference.self, from: Data(contentsOf: file))
        } catch {
            fatalError("cannot read \(file.lastPathComponent): \(error)")
        }
    }()
}

/// Tolerance for values both sides compute exactly up to rounding.
let exact = 1e-9
/// Tolerance for values that rest on an approximation (the normal distribution).
let approximate = 1e-6

func close(_ actual: Double, _ expected: Double, relative tolerance: Double) -> Bool {
    if actual == expected { return true }
    return abs(actual - expected) <= tolerance * max(abs(expected), Double.leastNormalMagnitude)
}
