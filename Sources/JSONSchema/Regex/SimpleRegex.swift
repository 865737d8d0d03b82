/// A small backtracking matcher for the ECMA-262 patterns schemas use most:
/// literals, `.`, classes (`[a-z]`, `\d`, `\w`, `\s`), groups, alternation,
/// greedy and lazy quantifiers and the `^`/`$` anchors. Patterns compile to a
/// short instruction list run by a loop with an explicit backtrack stack, which
/// avoids ICU's per-call overhead; the semantics are ECMA-262's. Anything it
/// does not parse (`\p{…}`, lookaround, back-references, ...) makes `init`
/// return nil, and the pattern goes to ICU.
struct SimpleRegex: Sendable {
    struct ScalarSet: Sendable {
        var ranges: [ClosedRange<UInt32>]
        var negated: Bool
    }

    indirect enum Node: Sendable {
        case scalar(UInt32)
        case set(ScalarSet)
        case any
        case start
        case end
        case group([[Piece]])
    }

    struct Piece: Sendable {
        var node: Node
        var minimum = 1
        var maximum = 1
        var lazy = false
    }

    enum Instruction: Sendable {
        case scalar(UInt32)
        case set(Int)
        case any
        case start
        case end
        /// Continue at the first target; on failure, backtrack to the second.
        case split(Int, Int)
        case jump(Int)
        case match
    }

    private let program: [Instruction]
    /// Every class's ranges, flattened: `lower, upper` pairs.
    private let bounds: [UInt32]
    /// Each class: where its pairs start in `bounds`, how many, and whether it is negated.
    private let classes: [(start: Int, count: Int, negated: Bool)]
    private let anchored: Bool

    /// Steps one match may take before giving up (the caller then asks ICU).
    static let stepBudget = 200_000

    init?(_ source: String) {
        var parser = SimpleRegexParser(Array(source.unicodeScalars).map(\.value))
        guard let alternatives = parser.parseAlternatives(), parser.isAtEnd else { return nil }
        var compiler = SimpleRegexCompiler()
        guard compiler.emit(alternatives) else { return nil }
        compiler.program.append(.match)
        program = compiler.program
        var bounds: [UInt32] = []
        var classes: [(start: Int, count: Int, negated: Bool)] = []
        for set in compiler.sets {
            classes.append((bounds.count / 2, set.ranges.count, set.negated))
            for range in set.ranges { bounds += [range.lowerBound, range.upperBound] }
        }
        self.bounds = bounds
        self.classes = classes
        anchored = alternatives.allSatisfy { if case .start = $0.first?.node { return true } else { return false } }
    }

    /// Whether the pattern matches somewhere in `text`; nil when the match
    /// backtracked past the step budget.
    func matches(_ text: String) -> Bool? {
        var text = text
        return text.withUTF8 { bytes -> Bool? in
            if !bytes.contains(where: { $0 >= 0x80 }) { return search(Input(bytes: bytes, scalars: nil)) }
            let scalars = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars).map(\.value)
            return scalars.withUnsafeBufferPointer { search(Input(bytes: nil, scalars: $0)) }
        }
    }

    fileprivate struct Input {
        let bytes: UnsafeBufferPointer<UInt8>?
        let scalars: UnsafeBufferPointer<UInt32>?

        var count: Int { bytes?.count ?? scalars!.count }

        @inline(__always)
        subscript(_ index: Int) -> UInt32 {
            if let bytes { return UInt32(bytes[index]) }
            return scalars![index]
        }
    }

    private func search(_ input: Input) -> Bool? {
        program.withUnsafeBufferPointer { program in
            bounds.withUnsafeBufferPointer { bounds in
                classes.withUnsafeBufferPointer { classes in
                    var stack: [(pc: Int, position: Int)] = []
                    stack.reserveCapacity(16)
                    var budget = Self.stepBudget
                    for start in 0...input.count {
                        let found = Self.run(program, bounds, classes, input, from: start, &stack, &budget)
                        guard let found else { return nil }
                        if found { return true }
                        if anchored { return false }
                    }
                    return false
                }
            }
        }
    }

    @inline(__always)
    private static func isMember(
        _ value: UInt32, of set: (start: Int, count: Int, negated: Bool), _ bounds: UnsafeBufferPointer<UInt32>
    ) -> Bool {
        var index = set.start * 2
        let end = index + set.count * 2
        while index < end {
            if value >= bounds[index] && value <= bounds[index + 1] { return !set.negated }
            index += 2
        }
        return set.negated
    }

    private static func run(
        _ program: UnsafeBufferPointer<Instruction>, _ bounds: UnsafeBufferPointer<UInt32>,
        _ classes: UnsafeBufferPointer<(start: Int, count: Int, negated: Bool)>, _ input: Input, from start: Int,
        _ stack: inout [(pc: Int, position: Int)], _ budget: inout Int
    ) -> Bool? {
        let count = input.count
        var pc = 0
        var position = start
        stack.removeAll(keepingCapacity: true)
        while true {
            budget -= 1
            if budget == 0 { return nil }
            var advance = false
            switch program[pc] {
            case .scalar(let expected):
                advance = position < count && input[position] == expected
                if advance { position += 1 }
            case .set(let index):
                advance = position < count && isMember(input[position], of: classes[index], bounds)
                if advance { position += 1 }
            case .any:
                if position < count {
                    let value = input[position]
                    advance = value != 0x0A && value != 0x0D && value != 0x2028 && value != 0x2029
                    if advance { position += 1 }
                }
            case .start:
                advance = position == 0
            case .end:
                advance = position == count
            case .split(let first, let second):
                stack.append((second, position))
                pc = first
                continue
            case .jump(let target):
                pc = target
                continue
            case .match:
                return true
            }
            if advance {
                pc += 1
            } else {
                guard let resume = stack.popLast() else { return false }
                pc = resume.pc
                position = resume.position
            }
        }
    }
}
