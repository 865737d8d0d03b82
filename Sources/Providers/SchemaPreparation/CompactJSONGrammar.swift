import JSONSchema

/// A llama.cpp grammar (GBNF) for the JSON a schema allows, with no whitespace
/// between tokens.
///
/// llama.cpp's own schema conversion lets whitespace in after every token, and a
/// model asked for JSON always takes it: pretty-printing is about a third of a
/// program's tokens. This grammar leaves no room for it, so the reply is minified
/// JSON and every token the model writes is content.
///
/// It enforces what a grammar can: properties in the schema's order, `required`,
/// `enum` and `const`, string lengths, simple anchored `pattern`s, integer ranges,
/// item counts, tuples (`prefixItems` of a fixed count), `$ref` into the document,
/// `anyOf`/`oneOf`, and `uniqueItems` over an
/// enum (its values in the enum's order, each at most once; `maxItems` is then left
/// to the validator). Other `uniqueItems` and
/// patterns it cannot read are left to the validator, which checks every reply.
/// Optional properties are not offered (the reply is valid without them, and a
/// grammar that allowed every subset would be large), nor are properties
/// `additionalProperties` would allow.
public struct CompactJSONGrammar: Sendable {
    /// The grammar's text, as llama.cpp's `grammar` request field takes it.
    public let text: String
    private let root: Expression
    private let rules: [String: Expression]

    public init(schema: JSONValue) throws(CompactGrammarError) {
        var builder = Builder(document: schema)
        root = try builder.expression(for: schema, at: JSONPointer(tokens: []))
        rules = builder.rules
        var lines = ["root ::= " + root.gbnf]
        for name in builder.ruleOrder {
            lines.append("\(name) ::= \(builder.rules[name]!.gbnf)")
        }
        lines.append("char ::= \(Expression.jsonCharacter.gbnf)")
        text = lines.joined(separator: "\n") + "\n"
    }

    /// The same language as one regular expression (ICU syntax), for tests.
    var regularExpression: String { root.regex(rules: rules) }
}

/// A schema the compact grammar cannot express; the message names where and what.
public struct CompactGrammarError: Error, CustomStringConvertible, Sendable {
    public let location: JSONPointer
    public let problem: String

    public var description: String {
        "the compact JSON grammar cannot express the reply schema at \(location.isRoot ? "its root" : location.description): \(problem); "
            + "change the schema or take `compact_json` out of the step's prompt.yaml"
    }
}

// MARK: - Building

extension CompactJSONGrammar {
    private struct Builder {
        let document: JSONValue
        var rules: [String: Expression] = [:]
        var ruleOrder: [String] = []
        /// References being expanded, to refuse recursion (a regular grammar has none).
        var expanding: Set<String> = []
        /// Lists of distinct enum values so far, to name their rules.
        var uniqueLists = 0
        /// Array item rules so far, to name them.
        var itemRules = 0

        init(document: JSONValue) { self.document = document }

        mutating func expression(for schema: JSONValue, at location: JSONPointer) throws(CompactGrammarError) -> Expression {
            if schema == .bool(true) || schema == .object(JSONObject()) {
                throw CompactGrammarError(location: location, problem: "it allows any JSON value")
            }
            guard case .object(let object) = schema else {
                throw CompactGrammarError(location: location, problem: "a schema must be an object, got \(schema.typeName)")
            }
            if let reference = object["$ref"]?.stringValue { return try self.reference(reference, at: location.appending("$ref")) }
            if let constant = object["const"] { return .literal(constant.serialized(.compact)) }
            if let values = object["enum"]?.arrayValue {
                return .choice(values.map { .literal($0.serialized(.compact)) })
            }
            for keyword in ["anyOf", "oneOf"] {
                if let alternatives = object[keyword]?.arrayValue {
                    var choices: [Expression] = []
                    for (index, alternative) in alternatives.enumerated() {
                        choices.append(try expression(for: alternative, at: location.appending(keyword).appending(String(index))))
                    }
                    return .choice(choices)
                }
            }
            if object["allOf"] != nil { throw CompactGrammarError(location: location.appending("allOf"), problem: "`allOf` is not supported") }
            switch object["type"] {
            case .string(let type)?:
                return try typed(type, object, at: location)
            case .array(let types)?:
                var choices: [Expression] = []
                for type in types { choices.append(try typed(type.stringValue ?? "", object, at: location)) }
                return .choice(choices)
            default:
                throw CompactGrammarError(location: location, problem: "it has no `type`, `enum`, `const` or `$ref`")
            }
        }

        private mutating func typed(_ type: String, _ object: JSONObject, at location: JSONPointer) throws(CompactGrammarError) -> Expression {
            switch type {
            case "object": return try self.object(object, at: location)
            case "array": return try array(object, at: location)
            case "string": return string(object)
            case "integer": return integer(minimum: object["minimum"]?.intValue, maximum: object["maximum"]?.intValue)
            case "number": return .number
            case "boolean": return .choice([.literal("true"), .literal("false")])
            case "null": return .literal("null")
            default: throw CompactGrammarError(location: location.appending("type"), problem: "unknown type \"\(type)\"")
            }
        }

        private mutating func reference(_ reference: String, at location: JSONPointer) throws(CompactGrammarError) -> Expression {
            guard reference.hasPrefix("#"), let pointer = JSONPointer.fromURIFragment(String(reference.dropFirst())),
                  let target = pointer.resolve(in: document)
            else {
                throw CompactGrammarError(location: location, problem: "\"\(reference)\" does not point into the schema")
            }
            let name = Self.ruleName(for: pointer)
            if rules[name] != nil { return .rule(name) }
            guard !expanding.contains(name) else {
                throw CompactGrammarError(location: location, problem: "\"\(reference)\" refers back to itself")
            }
            expanding.insert(name)
            let body = try expression(for: target, at: pointer)
            expanding.remove(name)
            rules[name] = body
            ruleOrder.append(name)
            return .rule(name)
        }

        static func ruleName(for pointer: JSONPointer) -> String {
            let words = pointer.tokens.filter { $0 != "$defs" && $0 != "definitions" }.joined(separator: "-")
            let name = String(words.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
            return "def-" + (name.isEmpty ? "root" : name)
        }

        private mutating func object(_ object: JSONObject, at location: JSONPointer) throws(CompactGrammarError) -> Expression {
            let required = Set((object["required"]?.arrayValue ?? []).compactMap(\.stringValue))
            var parts: [Expression] = [.literal("{")]
            for member in object["properties"]?.objectValue?.members ?? [] where required.contains(member.key) {
                if parts.count > 1 { parts.append(.literal(",")) }
                parts.append(.literal(JSONValue.string(member.key).serialized(.compact) + ":"))
                parts.append(try expression(for: member.value, at: location.appending("properties").appending(member.key)))
            }
            let declared = Set((object["properties"]?.objectValue?.members ?? []).map(\.key))
            if let missing = required.subtracting(declared).sorted().first {
                throw CompactGrammarError(location: location.appending("required"), problem: "\"\(missing)\" is required but has no schema in `properties`")
            }
            parts.append(.literal("}"))
            return .sequence(parts)
        }

        private mutating func array(_ object: JSONObject, at location: JSONPointer) throws(CompactGrammarError) -> Expression {
            if let prefix = object["prefixItems"]?.arrayValue {
                // A tuple: exactly its items, in order (llama.cpp refuses `"items": false`, so the count bounds it).
                guard object["items"] == nil, object["minItems"]?.intValue == prefix.count, object["maxItems"]?.intValue == prefix.count else {
                    throw CompactGrammarError(
                        location: location.appending("prefixItems"), problem: "`prefixItems` needs `minItems` and `maxItems` equal to their count, and no `items`")
                }
                var parts: [Expression] = [.literal("[")]
                for (index, item) in prefix.enumerated() {
                    if index > 0 { parts.append(.literal(",")) }
                    parts.append(try expression(for: item, at: location.appending("prefixItems").appending(String(index))))
                }
                parts.append(.literal("]"))
                return .sequence(parts)
            }
            guard let items = object["items"] else {
                throw CompactGrammarError(location: location, problem: "an array needs an `items` schema")
            }
            let low = max(object["minItems"]?.intValue ?? 0, 0)
            let high = object["maxItems"]?.intValue
            if high == 0 { return .literal("[]") }
            if object["uniqueItems"] == .bool(true), let values = CompactJSONGrammar.enumValues(of: items, in: document), low <= values.count {
                return uniqueSubsequence(of: values, atLeast: low, atMost: high.flatMap { $0 < values.count ? $0 : nil })
            }
            var item = try expression(for: items, at: location.appending("items"))
            // llama.cpp copies a repeated expression once per repetition and refuses a
            // grammar that grows past its limit ("exceeds sane defaults"); a rule is copied
            // as its name alone.
            if case .rule = item {} else if case .literal = item {} else {
                let name = "items\(itemRules)"
                itemRules += 1
                rules[name] = item
                ruleOrder.append(name)
                item = .rule(name)
            }
            let rest = Expression.repeating(.sequence([.literal(","), item]), min: max(low - 1, 0), max: high.map { $0 - 1 })
            let elements = high == 1 ? item : Expression.sequence([item, rest])
            return .sequence([.literal("["), low == 0 ? .repeating(elements, min: 0, max: 1) : elements, .literal("]")])
        }

        /// Distinct values of an enum, as a grammar can require them: in the enum's order,
        /// each at most once, at least `minimum` and at most `limit` of them. A small
        /// model otherwise repeats a word (`uniqueItems` is beyond llama.cpp's own
        /// grammar); the order costs a reply nothing. With a bound on the count, each value
        /// is followed by a rule that knows how many came before it, and a value is only
        /// offered where enough later ones remain to reach the minimum.
        private mutating func uniqueSubsequence(of values: [JSONValue], atLeast minimum: Int, atMost limit: Int?) -> Expression {
            let literals = values.map { Expression.literal($0.serialized(.compact)) }
            let prefix = "unique\(uniqueLists)"
            uniqueLists += 1
            var built: Set<String> = []
            let counted = limit != nil || minimum > 1
            /// Whether the value at `index` may be the `count`th, leaving enough after it.
            func reaches(_ index: Int, asNumber count: Int) -> Bool { values.count - 1 - index >= minimum - count }
            /// What may follow the value at `index`, the `count`th in the list.
            func tail(after index: Int, count: Int) -> Expression {
                let later = literals.indices.filter { $0 > index && reaches($0, asNumber: count + 1) }
                if later.isEmpty || count == limit { return .sequence([]) }
                guard counted else {
                    return .sequence(later.map { .repeating(.sequence([.literal(","), literals[$0]]), min: 0, max: 1) })
                }
                let name = "\(prefix)-\(index)-\(count)"
                if !built.contains(name) {
                    built.insert(name)
                    let next = Expression.choice(later.map { .sequence([.literal(","), literals[$0], tail(after: $0, count: count + 1)]) })
                    rules[name] = count >= minimum ? .repeating(next, min: 0, max: 1) : next
                    ruleOrder.append(name)
                }
                return .rule(name)
            }
            let unbounded = Expression.choice(literals.indices.map { first in
                .sequence([literals[first]] + literals[(first + 1)...].map { .repeating(.sequence([.literal(","), $0]), min: 0, max: 1) })
            })
            let grammar = !counted ? unbounded : Expression.choice(literals.indices.filter { reaches($0, asNumber: 1) }.map {
                .sequence([literals[$0], tail(after: $0, count: 1)])
            })
            // The regular expression counts the commas ahead instead: the values hold none.
            let countAhead = counted ? "(?=(?:[^,\\]]*,){\(max(minimum, 1) - 1),\(limit.map { "\($0 - 1)" } ?? "")}[^,\\]]*\\])" : ""
            let elements = Expression.written(grammar: grammar, regex: countAhead + unbounded.regex(rules: [:]))
            return .sequence([.literal("["), minimum == 0 ? .repeating(elements, min: 0, max: 1) : elements, .literal("]")])
        }

        private func string(_ object: JSONObject) -> Expression {
            if let pattern = object["pattern"]?.stringValue, let body = PatternReader.expression(for: pattern) {
                return .sequence([.literal("\""), body, .literal("\"")])
            }
            let low = max(object["minLength"]?.intValue ?? 0, 0)
            let high = object["maxLength"]?.intValue
            return .sequence([.literal("\""), .repeating(.rule("char"), min: low, max: high), .literal("\"")])
        }

        private func integer(minimum: Int?, maximum: Int?) -> Expression {
            guard CompactJSONGrammar.writesRange(minimum: minimum, maximum: maximum), let minimum, let maximum else { return .integer }
            return .choice(NumberRange.expressions(from: minimum, through: maximum))
        }
    }
}

// MARK: - Expressions

/// One piece of a grammar, written out as GBNF or as a regular expression.
indirect enum Expression: Sendable, Equatable {
    case literal(String)
    /// A character class: `ranges` of scalars, or everything but them when `negated`.
    case characters(ranges: [ClosedRange<Unicode.Scalar>], negated: Bool)
    case sequence([Expression])
    case choice([Expression])
    case repeating(Expression, min: Int, max: Int?)
    case rule(String)
    /// A grammar whose rules would blow up once inlined into one regular expression,
    /// with an equivalent regular expression written by hand.
    case written(grammar: Expression, regex: String)
    /// Any JSON integer.
    case integer
    /// Any JSON number.
    case number

    /// One character of a JSON string: anything but a quote, a backslash or a control
    /// character, or an escape.
    static let jsonCharacter = Expression.choice([
        .characters(ranges: ["\"" ... "\"", "\\" ... "\\", "\u{0}" ... "\u{1F}", "\u{7F}" ... "\u{7F}"], negated: true),
        .sequence([.literal("\\"), .choice([
            .characters(ranges: ["\"" ... "\"", "\\" ... "\\", "/" ... "/", "b" ... "b", "f" ... "f", "n" ... "n", "r" ... "r", "t" ... "t"], negated: false),
            .sequence([.literal("u"), .repeating(.hexDigit, min: 4, max: 4)]),
        ])]),
    ])
    static let digit = Expression.characters(ranges: ["0" ... "9"], negated: false)
    static let hexDigit = Expression.characters(ranges: ["0" ... "9", "a" ... "f", "A" ... "F"], negated: false)
    private static let unboundedInteger = Expression.sequence([
        .repeating(.literal("-"), min: 0, max: 1),
        .choice([.literal("0"), .sequence([.characters(ranges: ["1" ... "9"], negated: false), .repeating(.digit, min: 0, max: 15)])]),
    ])
    private static let unboundedNumber = Expression.sequence([
        unboundedInteger,
        .repeating(.sequence([.literal("."), .repeating(.digit, min: 1, max: 15)]), min: 0, max: 1),
        .repeating(.sequence([.characters(ranges: ["e" ... "e", "E" ... "E"], negated: false),
                              .repeating(.characters(ranges: ["+" ... "+", "-" ... "-"], negated: false), min: 0, max: 1),
                              .repeating(.digit, min: 1, max: 3)]), min: 0, max: 1),
    ])

    var gbnf: String {
        switch self {
        case .literal(let text):
            return "\"" + text.unicodeScalars.map(Self.gbnfEscaped).joined() + "\""
        case .characters(let ranges, let negated):
            return Self.characterClass(ranges, negated: negated, escaping: Self.classEscaped)
        case .sequence(let parts):
            let written = parts.filter { $0 != .sequence([]) }
            return written.isEmpty ? "\"\"" : written.map { $0.isChoice ? "(\($0.gbnf))" : $0.gbnf }.joined(separator: " ")
        case .choice(let alternatives):
            return alternatives.map(\.gbnf).joined(separator: " | ")
        case .repeating(let body, let min, let max):
            let inner = body.isAtom ? body.gbnf : "(\(body.gbnf))"
            switch (min, max) {
            case (0, 1?): return inner + "?"
            case (0, nil): return inner + "*"
            case (1, nil): return inner + "+"
            case (let low, let high?) where low == high: return inner + "{\(low)}"
            case (let low, let high?): return inner + "{\(low),\(high)}"
            case (let low, nil): return inner + "{\(low),}"
            }
        case .rule(let name):
            return name
        case .written(let grammar, _):
            return grammar.gbnf
        case .integer:
            return Self.unboundedInteger.gbnf
        case .number:
            return Self.unboundedNumber.gbnf
        }
    }

    func regex(rules: [String: Expression]) -> String {
        switch self {
        case .literal(let text):
            return text.unicodeScalars.map { Self.regexEscaped($0) }.joined()
        case .characters(let ranges, let negated):
            return Self.characterClass(ranges, negated: negated, escaping: Self.regexEscaped)
        case .sequence(let parts):
            return parts.map { $0.regex(rules: rules) }.joined()
        case .choice(let alternatives):
            return "(?:" + alternatives.map { $0.regex(rules: rules) }.joined(separator: "|") + ")"
        case .repeating(let body, let min, let max):
            return "(?:" + body.regex(rules: rules) + ")" + "{\(min),\(max.map(String.init) ?? "")}"
        case .rule(let name):
            return "(?:" + (name == "char" ? Self.jsonCharacter : rules[name]!).regex(rules: rules) + ")"
        case .written(_, let regex):
            return "(?:" + regex + ")"
        case .integer:
            return Self.unboundedInteger.regex(rules: rules)
        case .number:
            return Self.unboundedNumber.regex(rules: rules)
        }
    }

    private var isChoice: Bool {
        switch self {
        case .choice(let alternatives): alternatives.count > 1
        case .written(let grammar, _): grammar.isChoice
        default: false
        }
    }
    private var isAtom: Bool {
        switch self {
        case .literal, .characters, .rule: true
        default: false
        }
    }

    /// `[a-z0-9]`, or `[^…]` when `negated`: the same syntax in GBNF and ICU, each
    /// scalar escaped its own way.
    private static func characterClass(
        _ ranges: [ClosedRange<Unicode.Scalar>], negated: Bool, escaping escaped: (Unicode.Scalar) -> String
    ) -> String {
        "[" + (negated ? "^" : "") + ranges.map { range in
            range.lowerBound == range.upperBound ? escaped(range.lowerBound) : escaped(range.lowerBound) + "-" + escaped(range.upperBound)
        }.joined() + "]"
    }

    private static func gbnfEscaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\"": "\\\""
        case "\\": "\\\\"
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        default: scalar.value < 0x20 || scalar.value == 0x7F ? "\\x" + hex(scalar.value, digits: 2) : String(scalar)
        }
    }

    /// llama.cpp's grammar parser knows the escapes `\\`, `\"`, `\[`, `\]`, `\t`,
    /// `\r`, `\n` and `\xNN`; a `-` or `^` that is a member of a class is written in hex.
    private static func classEscaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "]", "[": "\\" + String(scalar)
        case "-", "^": "\\x" + hex(scalar.value, digits: 2)
        default: gbnfEscaped(scalar)
        }
    }

    /// A scalar as an ICU regular expression writes it: ASCII letters, digits and
    /// spaces as they are, anything else in hex.
    private static func regexEscaped(_ scalar: Unicode.Scalar) -> String {
        if scalar.properties.isAlphabetic && scalar.isASCII || ("0"..."9").contains(scalar) || scalar == " " { return String(scalar) }
        return "\\x{" + hex(scalar.value, digits: 1) + "}"
    }

    static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(digits - text.count, 0)) + text
    }
}

// MARK: - Integer ranges

/// The digit patterns of every whole number from one bound to another.
enum NumberRange {
    static func expressions(from low: Int, through high: Int) -> [Expression] {
        var result: [Expression] = []
        var start = low
        while start <= high {
            let digits = String(start).count
            let end = min(high, digits >= 18 ? Int.max : Int(pow10(digits)) - 1)
            result += sameLength(Array(String(start)), Array(String(end)))
            if end == Int.max { break }
            start = end + 1
        }
        return result
    }

    private static func pow10(_ exponent: Int) -> Int { (0..<exponent).reduce(1) { value, _ in value * 10 } }

    /// The numbers from `low` to `high`, both written with the same number of digits.
    private static func sameLength(_ low: [Character], _ high: [Character]) -> [Expression] {
        if low == high { return [.literal(String(low))] }
        if low.count == 1 { return [digitRange(low[0], high[0])] }
        if low[0] == high[0] {
            return sameLength(Array(low.dropFirst()), Array(high.dropFirst())).map { .sequence([.literal(String(low[0])), $0]) }
        }
        let restLength = low.count - 1
        let lowRest = Array(low.dropFirst()), highRest = Array(high.dropFirst())
        let allZeros = Array(repeating: Character("0"), count: restLength)
        let allNines = Array(repeating: Character("9"), count: restLength)
        let anyRest = Expression.repeating(.digit, min: restLength, max: restLength)
        if lowRest == allZeros && highRest == allNines {
            return [.sequence([digitRange(low[0], high[0]), anyRest])]
        }
        var result: [Expression] = []
        var first = low[0], last = high[0]
        if lowRest != allZeros {
            result += sameLength(low, [low[0]] + allNines)
            first = Character(Unicode.Scalar(low[0].asciiValue! + 1))
        }
        if highRest != allNines {
            last = Character(Unicode.Scalar(high[0].asciiValue! - 1))
        }
        if first <= last { result.append(.sequence([digitRange(first, last), anyRest])) }
        if highRest != allNines { result += sameLength([high[0]] + allZeros, high) }
        return result
    }

    private static func digitRange(_ low: Character, _ high: Character) -> Expression {
        low == high ? .literal(String(low)) : .characters(ranges: [low.unicodeScalars.first! ... high.unicodeScalars.first!], negated: false)
    }
}

// MARK: - Patterns

/// Reads the small regular expressions schemas use for ids and week ranges
/// (`^[a-z0-9]{1,11}(-[a-z0-9]{1,11}){1,3}$`) into grammar expressions. A pattern
/// it cannot read whole (no anchors, escapes, lookarounds...) gives nil, and the
/// string is then constrained by its length alone.
enum PatternReader {
    static func expression(for pattern: String) -> Expression? {
        let scalars = Array(pattern.unicodeScalars)
        guard scalars.first == "^", scalars.last == "$", scalars.count >= 2 else { return nil }
        var reader = Reader(scalars: Array(scalars.dropFirst().dropLast()))
        guard let expression = reader.alternation(), reader.isAtEnd else { return nil }
        return expression
    }

    private struct Reader {
        let scalars: [Unicode.Scalar]
        var position = 0
        var isAtEnd: Bool { position == scalars.count }
        var next: Unicode.Scalar? { isAtEnd ? nil : scalars[position] }

        mutating func alternation() -> Expression? {
            var alternatives: [Expression] = []
            repeat {
                if next == "|" { position += 1 }
                guard let sequence = sequence() else { return nil }
                alternatives.append(sequence)
            } while next == "|"
            return alternatives.count == 1 ? alternatives[0] : .choice(alternatives)
        }

        mutating func sequence() -> Expression? {
            var parts: [Expression] = []
            while let scalar = next, scalar != "|", scalar != ")" {
                guard let atom = atom(), let quantified = quantified(atom) else { return nil }
                parts.append(quantified)
            }
            return .sequence(parts)
        }

        mutating func atom() -> Expression? {
            guard let scalar = next else { return nil }
            position += 1
            switch scalar {
            case "(":
                if next == "?" {
                    guard position + 1 < scalars.count, scalars[position + 1] == ":" else { return nil }
                    position += 2
                }
                guard let inner = alternation(), next == ")" else { return nil }
                position += 1
                return inner
            case "[":
                return characterClass()
            case "\\", ".", "^", "$", "*", "+", "?", "{", "}", "]":
                return nil
            default:
                // A quote or backslash would need escaping inside the JSON string.
                guard scalar != "\"", scalar.value >= 0x20 else { return nil }
                return .literal(String(scalar))
            }
        }

        mutating func characterClass() -> Expression? {
            var negated = false
            if next == "^" { negated = true; position += 1 }
            var ranges: [ClosedRange<Unicode.Scalar>] = []
            while let scalar = next, scalar != "]" {
                guard scalar != "\\", scalar != "[" else { return nil }
                position += 1
                if next == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                    let upper = scalars[position + 1]
                    guard scalar <= upper, upper != "\\" else { return nil }
                    ranges.append(scalar ... upper)
                    position += 2
                } else {
                    ranges.append(scalar ... scalar)
                }
            }
            guard next == "]", !ranges.isEmpty else { return nil }
            position += 1
            if negated {
                // Never a quote, backslash or control character: they cannot stand bare in a JSON string.
                ranges += ["\"" ... "\"", "\\" ... "\\", "\u{0}" ... "\u{1F}", "\u{7F}" ... "\u{7F}"]
            } else if ranges.contains(where: { $0.contains("\"") || $0.contains("\\") || $0.lowerBound.value < 0x20 }) {
                return nil
            }
            return .characters(ranges: ranges, negated: negated)
        }

        mutating func quantified(_ atom: Expression) -> Expression? {
            switch next {
            case "?": position += 1; return .repeating(atom, min: 0, max: 1)
            case "*": position += 1; return .repeating(atom, min: 0, max: nil)
            case "+": position += 1; return .repeating(atom, min: 1, max: nil)
            case "{":
                position += 1
                guard let low = number() else { return nil }
                var high: Int? = low
                if next == "," {
                    position += 1
                    high = next == "}" ? nil : number()
                    if high == nil && next != "}" { return nil }
                }
                guard next == "}" else { return nil }
                position += 1
                if let high, high < low { return nil }
                return .repeating(atom, min: low, max: high)
            default:
                return atom
            }
        }

        mutating func number() -> Int? {
            var digits = ""
            while let scalar = next, ("0"..."9").contains(scalar) { digits.unicodeScalars.append(scalar); position += 1 }
            return Int(digits)
        }
    }
}

// MARK: - What it enforces

extension CompactJSONGrammar {
    /// The values of an `enum` schema, following a `$ref` into `document` to it.
    static func enumValues(of schema: JSONValue, in document: JSONValue) -> [JSONValue]? {
        if let reference = schema["$ref"]?.stringValue, reference.hasPrefix("#"),
           let target = JSONPointer.fromURIFragment(String(reference.dropFirst()))?.resolve(in: document) {
            return enumValues(of: target, in: document)
        }
        return schema["enum"]?.arrayValue
    }

    /// Whether an integer's bounds are written out as its exact digit patterns.
    static func writesRange(minimum: Int?, maximum: Int?) -> Bool {
        guard let minimum, let maximum else { return false }
        return minimum >= 0 && minimum <= maximum
    }

    /// Whether the grammar written for `schema` holds the keyword use `issue` names,
    /// one llama.cpp's own conversion leaves to the validator: `uniqueItems` over an
    /// enum, integer ranges, item counts, lengths of a string without a pattern, and
    /// the patterns it can read.
    public static func enforces(_ issue: CompatibilityIssue, in schema: JSONValue) -> Bool {
        guard issue.location.tokens.last == issue.keyword,
              case .object(let node)? = JSONPointer(tokens: Array(issue.location.tokens.dropLast())).resolve(in: schema) else { return false }
        switch issue.keyword {
        case "uniqueItems":
            let values = node["items"].flatMap { enumValues(of: $0, in: schema) }
            return values.map { (node["minItems"]?.intValue ?? 0) <= $0.count } ?? false
        case "minimum", "maximum":
            return node["type"] == "integer" && writesRange(minimum: node["minimum"]?.intValue, maximum: node["maximum"]?.intValue)
        case "minItems", "maxItems":
            return true
        case "minLength", "maxLength":
            return node["pattern"] == nil
        case "pattern":
            return node["pattern"]?.stringValue.flatMap(PatternReader.expression(for:)) != nil
        default:
            return false
        }
    }
}
