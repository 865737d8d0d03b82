import Foundation
import Intake
import JSONSchema

/// Text the person could not read as written: letters of a script they did not
/// write in ("alta en蛋白质"), and strings cut off at their schema's length or in
/// the middle of a phrase ("jumps, hops and twi", "Walk briskly with").
enum TextQualityChecks {
    // MARK: Scripts

    /// A writing system, told by the code points of its letters.
    struct Script: Hashable {
        var name: String
        var ranges: [ClosedRange<UInt32>]
    }

    /// Every script but Latin that a model's stray words come in, with the punctuation
    /// of the CJK scripts (a full-width comma is as foreign as a Chinese word).
    static let scripts: [Script] = [
        Script(name: "Greek", ranges: [0x0370...0x03FF, 0x1F00...0x1FFF]),
        Script(name: "Cyrillic", ranges: [0x0400...0x052F, 0x2DE0...0x2DFF, 0xA640...0xA69F]),
        Script(name: "Armenian", ranges: [0x0530...0x058F]),
        Script(name: "Hebrew", ranges: [0x0590...0x05FF]),
        Script(name: "Arabic", ranges: [0x0600...0x06FF, 0x0750...0x077F, 0xFB50...0xFDFF, 0xFE70...0xFEFF]),
        Script(name: "Devanagari", ranges: [0x0900...0x097F]),
        Script(name: "Thai", ranges: [0x0E00...0x0E7F]),
        Script(name: "Georgian", ranges: [0x10A0...0x10FF]),
        Script(name: "Hangul", ranges: [0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF]),
        Script(name: "Japanese kana", ranges: [0x3040...0x30FF, 0x31F0...0x31FF]),
        Script(name: "Chinese characters", ranges: [0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FA1F]),
        Script(name: "CJK punctuation", ranges: [0x3000...0x303F, 0xFF00...0xFF65]),
    ]

    static func script(of scalar: Unicode.Scalar) -> Script? {
        guard scalar.value >= 0x0370 else { return nil }
        return scripts.first { $0.ranges.contains { $0.contains(scalar.value) } }
    }

    /// `output.script`: no letter of a script the person's own words (`personText`) do not use.
    static func script(text: String, personText: String) -> CheckResult {
        let name = "output.script"
        let own = Set(personText.unicodeScalars.compactMap(script(of:)))
        // Most outputs are plain ASCII and are done here.
        guard !TextMatching.isASCII(text),
              text.unicodeScalars.contains(where: { scalar in script(of: scalar).map { !own.contains($0) } ?? false })
        else { return .pass(name, "only the scripts the person writes in") }
        var found: [Script: String] = [:]
        for line in text.split(separator: "\n") {
            for scalar in line.unicodeScalars {
                guard let script = script(of: scalar), !own.contains(script), found[script] == nil else { continue }
                found[script] = excerpt(around: scalar, in: String(line))
            }
        }
        guard !found.isEmpty else { return .pass(name, "only the scripts the person writes in") }
        let listed = found.sorted { $0.key.name < $1.key.name }.map { "\($0.key.name) in \"\($0.value)\"" }
        return .fail(name, "text in a script the person did not write in: " + listed.joined(separator: "; "))
    }

    private static func excerpt(around scalar: Unicode.Scalar, in line: String) -> String {
        guard let index = line.unicodeScalars.firstIndex(of: scalar) else { return String(line.prefix(60)) }
        return TextMatching.excerpt(around: index..<line.unicodeScalars.index(after: index), in: line)
    }

    // MARK: Cut-off text

    /// Words a phrase never ends on: a sentence that stops on one was cut.
    static let danglingWords: Set<String> = [
        "and", "or", "with", "the", "a", "an", "to", "of", "for", "your", "from", "into", "but", "then", "as", "than",
        "y", "o", "con", "el", "la", "los", "las", "de", "del", "para", "en", "por", "al", "un", "una", "tu", "tus", "que", "e", "u", "pero", "sin",
    ]

    /// Fields that are not prose: identifiers and the markdown rendered from the rest.
    static let notProse: Set<String> = ["id", "program_markdown"]

    /// `output.not-cut-off`: no string the person reads stops at its schema's
    /// `maxLength` short of a sentence's end, or on a word a phrase never ends on.
    static func cutOff(output: JSONValue, schema: JSONValue?) -> CheckResult {
        let name = "output.not-cut-off"
        var bounds: [String: Int] = [:]
        if let schema { collectBounds(of: output, schema: schema, root: schema, at: "", into: &bounds, depth: 0) }
        var problems: [String] = []
        visitProse(output, at: "") { pointer, text in
            let trimmed = text.trimmed()
            guard !trimmed.isEmpty else { return }
            let endsSentence = trimmed.last.map { ".!?)\"»”".contains($0) } ?? false
            if let bound = bounds[pointer], text.unicodeScalars.count >= bound, !endsSentence {
                problems.append("\(pointer) stops at its maxLength \(bound): \"…\(trimmed.suffix(40))\"")
            } else if let last = trimmed.last, ",:;-–(/".contains(last) {
                problems.append("\(pointer) ends on \"\(last)\": \"…\(trimmed.suffix(40))\"")
            } else if let word = lastWord(of: trimmed), let lastWord = Optional(TextMatching.folded(String(word)).lowercased()),
                      danglingWords.contains(lastWord), trimmed.split(separator: " ").count > 2, !endsSentence,
                      // "Full body A" names a workout; a cut "walk to a" is lower case.
                      !(word.count == 1 && word.first!.isUppercase)
            {
                problems.append("\(pointer) ends mid-phrase on \"\(lastWord)\": \"…\(trimmed.suffix(40))\"")
            }
        }
        return problems.isEmpty
            ? .pass(name, "no text cut off")
            : .fail(name, "text cut off: " + problems.prefix(4).joined(separator: "; ") + (problems.count > 4 ? "; and \(problems.count - 4) more" : ""))
    }

    /// The last run of letters in `text`, found from its end: a program's text is long.
    static func lastWord(of text: Substring) -> Substring? {
        guard let last = text.lastIndex(where: \.isLetter) else { return nil }
        let start = text[..<last].lastIndex { !$0.isLetter }.map { text.index(after: $0) } ?? text.startIndex
        return text[start...last]
    }

    /// Calls `visit` with the JSON pointer and text of every prose string of `value`.
    private static func visitProse(_ value: JSONValue, at pointer: String, _ visit: (String, String) -> Void) {
        switch value {
        case .string(let text): visit(pointer, text)
        case .array(let items): for (index, item) in items.enumerated() { visitProse(item, at: "\(pointer)/\(index)", visit) }
        case .object(let object):
            for member in object.members where !notProse.contains(member.key) {
                visitProse(member.value, at: "\(pointer)/\(member.key)", visit)
            }
        default: break
        }
    }

    /// The `maxLength` that applies to each string of `value`, by JSON pointer, found
    /// by walking the schema beside it: properties, items, prefixItems, local `$ref`s
    /// and the subschemas of allOf, anyOf and oneOf (the smallest bound wins).
    private static func collectBounds(of value: JSONValue, schema: JSONValue, root: JSONValue, at pointer: String, into bounds: inout [String: Int], depth: Int) {
        guard depth < 32, case .object = schema else { return }
        if let reference = schema["$ref"]?.stringValue, reference.hasPrefix("#"),
           let target = JSONPointer(String(reference.dropFirst()))?.resolve(in: root)
        {
            collectBounds(of: value, schema: target, root: root, at: pointer, into: &bounds, depth: depth + 1)
        }
        for keyword in ["allOf", "anyOf", "oneOf"] {
            for subschema in schema[keyword]?.arrayValue ?? [] {
                collectBounds(of: value, schema: subschema, root: root, at: pointer, into: &bounds, depth: depth + 1)
            }
        }
        switch value {
        case .string:
            if let bound = schema["maxLength"]?.intValue { bounds[pointer] = min(bounds[pointer] ?? .max, bound) }
        case .object(let object):
            for member in object.members {
                if let property = schema["properties"]?[member.key] {
                    collectBounds(of: member.value, schema: property, root: root, at: "\(pointer)/\(member.key)", into: &bounds, depth: depth + 1)
                }
            }
        case .array(let items):
            let prefix = schema["prefixItems"]?.arrayValue ?? []
            for (index, item) in items.enumerated() {
                guard let itemSchema = index < prefix.count ? prefix[index] : schema["items"] else { continue }
                collectBounds(of: item, schema: itemSchema, root: root, at: "\(pointer)/\(index)", into: &bounds, depth: depth + 1)
            }
        default: break
        }
    }
}
