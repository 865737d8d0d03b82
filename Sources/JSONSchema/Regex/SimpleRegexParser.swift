/// Parses the subset `SimpleRegex` runs; nil for anything else.
struct SimpleRegexParser {
    typealias Node = SimpleRegex.Node
    typealias Piece = SimpleRegex.Piece
    typealias ScalarSet = SimpleRegex.ScalarSet

    static let digits: [ClosedRange<UInt32>] = [0x30...0x39]
    static let word: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
    static let space: [ClosedRange<UInt32>] = [
        0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A, 0x2028...0x2029,
        0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF,
    ]

    let scalars: [UInt32]
    var index = 0
    var depth = 0

    init(_ scalars: [UInt32]) {
        self.scalars = scalars
    }

    var isAtEnd: Bool { index == scalars.count }

    private var current: UInt32? { index < scalars.count ? scalars[index] : nil }

    mutating func parseAlternatives() -> [[Piece]]? {
        var alternatives: [[Piece]] = []
        var sequence: [Piece] = []
        while let scalar = current {
            switch scalar {
            case 0x7C:  // |
                index += 1
                alternatives.append(sequence)
                sequence = []
            case 0x29:  // )
                guard depth > 0 else { return nil }
                alternatives.append(sequence)
                return alternatives
            default:
                guard let piece = parsePiece() else { return nil }
                sequence.append(piece)
            }
        }
        guard depth == 0 else { return nil }
        alternatives.append(sequence)
        return alternatives
    }

    private mutating func parsePiece() -> Piece? {
        guard let node = parseNode() else { return nil }
        var piece = Piece(node: node)
        guard let scalar = current else { return piece }
        switch scalar {
        case 0x2A: piece.minimum = 0; piece.maximum = .max; index += 1  // *
        case 0x2B: piece.maximum = .max; index += 1  // +
        case 0x3F: piece.minimum = 0; index += 1  // ?
        case 0x7B:  // {
            guard let (minimum, maximum) = parseBraces() else { return nil }
            piece.minimum = minimum
            piece.maximum = maximum
        default:
            return piece
        }
        if case .start = node { return nil }
        if case .end = node { return nil }
        if current == 0x3F {  // lazy
            piece.lazy = true
            index += 1
        }
        if let next = current, [0x2A, 0x2B, 0x3F, 0x7B].contains(next) { return nil }
        return piece
    }

    private mutating func parseNode() -> Node? {
        guard let scalar = current else { return nil }
        index += 1
        switch scalar {
        case 0x5E: return .start  // ^
        case 0x24: return .end  // $
        case 0x2E: return .any  // .
        case 0x28:  // (
            if current == 0x3F {  // (? — only (?: is supported
                guard index + 1 < scalars.count, scalars[index + 1] == 0x3A else { return nil }
                index += 2
            }
            depth += 1
            guard let alternatives = parseAlternatives(), current == 0x29 else { return nil }
            index += 1
            depth -= 1
            return .group(alternatives)
        case 0x5B: return parseClass().map(Node.set)  // [
        case 0x5C:  // backslash
            guard let code = current else { return nil }
            index += 1
            switch code {
            case 0x64: return .set(ScalarSet(ranges: Self.digits, negated: false))  // d
            case 0x44: return .set(ScalarSet(ranges: Self.digits, negated: true))  // D
            case 0x77: return .set(ScalarSet(ranges: Self.word, negated: false))  // w
            case 0x57: return .set(ScalarSet(ranges: Self.word, negated: true))  // W
            case 0x73: return .set(ScalarSet(ranges: Self.space, negated: false))  // s
            case 0x53: return .set(ScalarSet(ranges: Self.space, negated: true))  // S
            default: return escapedScalar(code).map(Node.scalar)
            }
        case 0x29, 0x7C, 0x2A, 0x2B, 0x3F, 0x7B, 0x7D, 0x5D:  // ) | * + ? { } ]
            return nil
        default:
            return .scalar(scalar)
        }
    }

    /// `\n`, `\t`, ... and escaped punctuation; letters and digits with other
    /// meanings (`\b`, `\p`, `\1`, `\u`, ...) are left to ICU.
    private func escapedScalar(_ code: UInt32) -> UInt32? {
        switch code {
        case 0x6E: return 0x0A  // n
        case 0x74: return 0x09  // t
        case 0x72: return 0x0D  // r
        case 0x66: return 0x0C  // f
        case 0x76: return 0x0B  // v
        default:
            guard code < 0x80, !(0x30...0x39).contains(code), !(0x41...0x5A).contains(code),
                  !(0x61...0x7A).contains(code) else { return nil }
            return code
        }
    }

    private mutating func parseClass() -> ScalarSet? {
        var set = ScalarSet(ranges: [], negated: false)
        if current == 0x5E {
            set.negated = true
            index += 1
        }
        if current == 0x5D { return nil }  // [] and [^]
        while let scalar = current {
            index += 1
            if scalar == 0x5D { return set }
            let low: UInt32
            switch classMember(scalar, into: &set) {
            case .scalar(let value): low = value
            case .shorthand: continue
            case .unsupported: return nil
            }
            if current == 0x2D, index + 1 < scalars.count, scalars[index + 1] != 0x5D {
                index += 1
                let next = scalars[index]
                index += 1
                var ignored = ScalarSet(ranges: [], negated: false)
                guard case .scalar(let high) = classMember(next, into: &ignored), low <= high else { return nil }
                set.ranges.append(low...high)
            } else {
                set.ranges.append(low...low)
            }
        }
        return nil
    }

    private enum ClassMember {
        case scalar(UInt32)
        /// `\d`, `\w` or `\s`, added to the set.
        case shorthand
        case unsupported
    }

    private mutating func classMember(_ scalar: UInt32, into set: inout ScalarSet) -> ClassMember {
        if scalar == 0x5B { return .unsupported }
        guard scalar == 0x5C else { return .scalar(scalar) }
        guard let code = current else { return .unsupported }
        index += 1
        switch code {
        case 0x64: set.ranges += Self.digits; return .shorthand
        case 0x77: set.ranges += Self.word; return .shorthand
        case 0x73: set.ranges += Self.space; return .shorthand
        default: return escapedScalar(code).map(ClassMember.scalar) ?? .unsupported
        }
    }

    private mutating func parseBraces() -> (Int, Int)? {
        index += 1
        func number() -> Int? {
            var value = 0, digits = 0
            while let scalar = current, (0x30...0x39).contains(scalar), digits < 9 {
                value = value * 10 + Int(scalar - 0x30)
                index += 1
                digits += 1
            }
            return digits > 0 ? value : nil
        }
        guard let minimum = number() else { return nil }
        if current == 0x7D {
            index += 1
            return (minimum, minimum)
        }
        guard current == 0x2C else { return nil }
        index += 1
        let maximum = number() ?? .max
        guard current == 0x7D, minimum <= maximum else { return nil }
        index += 1
        return (minimum, maximum)
    }
}
