extension Evaluator {
    /// Keywords that apply to numbers.
    mutating func evaluateNumber(_ keyword: Keyword, _ node: SchemaNode, _ value: Double) -> Bool {
        switch keyword {
        case .multipleOf(let divisor):
            if Self.isMultiple(value, of: divisor) { return true }
            if reportsErrors {
                report("multipleOf", node, "\(subject) is \(Describe.number(value)); it must be a multiple of \(Describe.number(divisor))")
            }
        case .minimum(let limit):
            if value >= limit { return true }
            if reportsErrors { report("minimum", node, "\(subject) is \(Describe.number(value)); the minimum is \(Describe.number(limit))") }
        case .maximum(let limit):
            if value <= limit { return true }
            if reportsErrors { report("maximum", node, "\(subject) is \(Describe.number(value)); the maximum is \(Describe.number(limit))") }
        case .exclusiveMinimum(let limit):
            if value > limit { return true }
            if reportsErrors {
                report("exclusiveMinimum", node, "\(subject) is \(Describe.number(value)); it must be greater than \(Describe.number(limit))")
            }
        case .exclusiveMaximum(let limit):
            if value < limit { return true }
            if reportsErrors {
                report("exclusiveMaximum", node, "\(subject) is \(Describe.number(value)); it must be less than \(Describe.number(limit))")
            }
        default:
            return true
        }
        return false
    }

    /// Keywords that apply to strings.
    mutating func evaluateString(_ keyword: Keyword, _ node: SchemaNode, _ text: String, _ instance: JSONValue) -> Bool {
        switch keyword {
        case .minLength(let limit):
            if Self.hasAtLeast(text, limit) { return true }
            if reportsErrors {
                report("minLength", node, "\(subject) has \(Describe.count(text.codePointCount, "character")); at least \(limit) required")
            }
        case .maxLength(let limit):
            if Self.hasAtMost(text, limit) { return true }
            if reportsErrors {
                report("maxLength", node, "\(subject) has \(Describe.count(text.codePointCount, "character")); at most \(limit) allowed")
            }
        case .pattern(let pattern):
            if pattern.object.regex.matches(text) { return true }
            if reportsErrors {
                report("pattern", node, "\(subject) is \(instance.preview(limit: 40)), which does not match the pattern \(pattern.object.source)")
            }
        case .format(let format):
            if format.accepts(text) { return true }
            if reportsErrors { report("format", node, "\(subject) is \(instance.preview(limit: 40)), which is not a valid \(format.noun)") }
        default:
            return true
        }
        return false
    }

    /// `text` has at least `limit` code points (`minLength`).
    @inline(__always)
    static func hasAtLeast(_ text: String, _ limit: Int) -> Bool {
        // A code point takes one to four UTF-8 bytes, so the byte count bounds it both ways.
        let bytes = text.utf8.count
        return bytes >= limit && (bytes / 4 >= limit || text.codePointCount >= limit)
    }

    /// `text` has at most `limit` code points (`maxLength`).
    @inline(__always)
    static func hasAtMost(_ text: String, _ limit: Int) -> Bool {
        text.utf8.count <= limit || text.codePointCount <= limit
    }

    /// `value` is an integer multiple of `divisor`, allowing for the rounding of
    /// decimal fractions in binary floating point (0.0075 is a multiple of 0.0001).
    static func isMultiple(_ value: Double, of divisor: Double) -> Bool {
        if value.isWholeNumber {
            if divisor.isWholeNumber, abs(value) < 9e15, divisor < 9e15 {
                return value.truncatingRemainder(dividingBy: divisor) == 0
            }
            // Every integer is a multiple of 1/n.
            if (1 / divisor).isWholeNumber { return true }
        }
        let quotient = value / divisor
        guard quotient.isFinite else { return false }
        return abs(quotient - quotient.rounded()) <= quotient.ulp * 4
    }
}
