import Foundation
import Intake
import JSONSchema

/// A scenario's extra assertions for one step.
enum AssertionChecks {
    /// `text` is every string of `output` (`TextMatching.text(of:)`), when the caller has it.
    static func check(_ output: JSONValue, assertions: [Assertion], text: String? = nil) -> [CheckResult] {
        guard !assertions.isEmpty else { return [] }
        let text = text ?? TextMatching.text(of: output)
        // Prepared for word searches only when an assertion searches for a word.
        let words = assertions.contains { $0.kind == .contains || $0.kind == .notContains } ? TextMatching.Searchable(text) : nil
        return assertions.map { evaluate($0, output: output, text: text, words: words) }
    }

    private static func evaluate(_ assertion: Assertion, output: JSONValue, text: String, words: TextMatching.Searchable?) -> CheckResult {
        // Unique per step, so golden check results can be matched by name.
        let operand = assertion.value ?? assertion.pointer ?? ""
        let name = "assertion.\(assertion.kind.rawValue) \(operand)"
        let why = assertion.why.map { " (\($0))" } ?? ""
        let value = assertion.value ?? ""
        switch assertion.kind {
        case .contains:
            return words.flatMap { TextMatching.firstMatch(of: value, in: $0) } != nil
                ? .pass(name, "contains \"\(value)\"")
                : .fail(name, "does not contain \"\(value)\"\(why)")
        case .notContains:
            return words.flatMap { TextMatching.firstMatch(of: value, in: $0) }.map { .fail(name, "contains \"\(value)\": \($0)\(why)") }
                ?? .pass(name, "does not contain \"\(value)\"")
        case .regex:
            return TextMatching.firstMatch(ofPattern: value, in: text) != nil
                ? .pass(name, "matches /\(value)/")
                : .fail(name, "nothing matches /\(value)/\(why)")
        case .notRegex:
            return TextMatching.firstMatch(ofPattern: value, in: text).map { .fail(name, "/\(value)/ matches: \($0)\(why)") }
                ?? .pass(name, "nothing matches /\(value)/")
        case .pointerEquals, .pointerRange, .countRange:
            return pointerCheck(assertion, name: name, output: output, why: why)
        }
    }

    private static func pointerCheck(_ assertion: Assertion, name: String, output: JSONValue, why: String) -> CheckResult {
        let path = assertion.pointer ?? ""
        guard let pointer = JSONPointer(path) else { return .fail(name, "`\(path)` is not a JSON Pointer") }
        guard let found = pointer.resolve(in: output) else { return .fail(name, "nothing at \(path)\(why)") }
        switch assertion.kind {
        case .pointerEquals:
            let expected = assertion.equals ?? .null
            return found == expected
                ? .pass(name, "\(path) is \(expected.preview())")
                : .fail(name, "\(path) is \(found.preview()), expected \(expected.preview())\(why)")
        case .pointerRange:
            guard let number = found.numberValue else { return .fail(name, "\(path) is \(found.typeName), not a number\(why)") }
            return inRange(number, assertion)
                ? .pass(name, "\(path) is \(JSONValue.number(number).preview()), \(rangeText(assertion))")
                : .fail(name, "\(path) is \(JSONValue.number(number).preview()), outside \(rangeText(assertion))\(why)")
        default:
            guard let count = found.arrayValue?.count else { return .fail(name, "\(path) is \(found.typeName), not an array\(why)") }
            let items = count == 1 ? "1 item" : "\(count) items"
            return inRange(Double(count), assertion)
                ? .pass(name, "\(path) has \(items), \(rangeText(assertion))")
                : .fail(name, "\(path) has \(items), outside \(rangeText(assertion))\(why)")
        }
    }

    private static func inRange(_ value: Double, _ assertion: Assertion) -> Bool {
        (assertion.min.map { value >= $0 } ?? true) && (assertion.max.map { value <= $0 } ?? true)
    }

    private static func rangeText(_ assertion: Assertion) -> String {
        let low = assertion.min.map { JSONValue.number($0).preview() } ?? "-∞"
        let high = assertion.max.map { JSONValue.number($0).preview() } ?? "∞"
        return "range \(low)...\(high)"
    }
}
