/// Turns the parsed pattern into `SimpleRegex` instructions.
struct SimpleRegexCompiler {
    typealias Node = SimpleRegex.Node
    typealias Piece = SimpleRegex.Piece

    var program: [SimpleRegex.Instruction] = []
    var sets: [SimpleRegex.ScalarSet] = []
    /// Counted repetitions are unrolled; past this size the pattern goes to ICU.
    static let limit = 4_000

    /// Emits `alternatives`; false when the pattern is too large or loops on an empty match.
    mutating func emit(_ alternatives: [[Piece]]) -> Bool {
        var exits: [Int] = []
        for (index, sequence) in alternatives.enumerated() {
            var split: Int?
            if index < alternatives.count - 1 {
                split = program.count
                program.append(.split(program.count + 1, -1))
            }
            for piece in sequence where !emit(piece) { return false }
            if let split {
                exits.append(program.count)
                program.append(.jump(-1))
                program[split] = .split(split + 1, program.count)
            }
        }
        for exit in exits { program[exit] = .jump(program.count) }
        return program.count <= Self.limit
    }

    private mutating func emit(_ piece: Piece) -> Bool {
        for _ in 0..<piece.minimum where !emit(piece.node) { return false }
        if piece.maximum == .max {
            // A loop over something that can match nothing would never end.
            if Self.matchesEmpty(piece.node) { return false }
            let loop = program.count
            program.append(.split(-1, -1))
            guard emit(piece.node) else { return false }
            program.append(.jump(loop))
            program[loop] = piece.lazy ? .split(program.count, loop + 1) : .split(loop + 1, program.count)
            return true
        }
        var splits: [Int] = []
        for _ in piece.minimum..<piece.maximum {
            splits.append(program.count)
            program.append(.split(-1, -1))
            guard emit(piece.node), program.count <= Self.limit else { return false }
        }
        for split in splits {
            program[split] = piece.lazy ? .split(program.count, split + 1) : .split(split + 1, program.count)
        }
        return true
    }

    private mutating func emit(_ node: Node) -> Bool {
        guard program.count <= Self.limit else { return false }
        switch node {
        case .scalar(let value): program.append(.scalar(value))
        case .set(let set):
            sets.append(set)
            program.append(.set(sets.count - 1))
        case .any: program.append(.any)
        case .start: program.append(.start)
        case .end: program.append(.end)
        case .group(let alternatives): return emit(alternatives)
        }
        return true
    }

    private static func matchesEmpty(_ node: Node) -> Bool {
        switch node {
        case .scalar, .set, .any: return false
        case .start, .end: return true
        case .group(let alternatives):
            return alternatives.contains { sequence in
                sequence.allSatisfy { $0.minimum == 0 || matchesEmpty($0.node) }
            }
        }
    }
}
