import Foundation
import JSONSchema
import Testing

@testable import Intake

/// A scenario read key by key reads what the decoder reads, or leaves the value to the
/// decoder: every fixture of the repository, and each of them with one member taken
/// away, set to null, given the wrong type or spelled in camel case.
@Suite("Scenarios read without the decoder")
struct ScenarioReadingTests {
    static func scenarios() throws -> [(name: String, value: JSONValue)] {
        let folder = TemporaryProject.repositoryLayout.fixtures
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }.sorted().map { name in
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            return (name, try YAMLDocument(text: text).value)
        }
    }

    static func decoded(_ value: JSONValue) -> Scenario? {
        try? JSONValueDecoder(convertsFromSnakeCase: true).decode(Scenario.self, from: value)
    }

    /// Nil when the hand reader left the value to the decoder; otherwise whether it agrees.
    static func agrees(_ value: JSONValue) -> Bool? {
        guard let read = Scenario(snakeCased: value) else { return nil }
        return read == decoded(value)
    }

    @Test func everyFixtureOfTheRepositoryIsReadAsTheDecoderReadsIt() throws {
        let scenarios = try Self.scenarios()
        #expect(scenarios.count >= 20)
        for (name, value) in scenarios {
            #expect(Self.decoded(value) != nil, "\(name) does not decode")
            #expect(Self.agrees(value) == true, "\(name) is read otherwise than the decoder reads it")
        }
    }

    @Test func aChangedMemberIsReadAsTheDecoderReadsItOrLeftToTheDecoder() throws {
        var readByHand = 0, leftToTheDecoder = 0
        for (name, value) in try Self.scenarios() {
            for variant in Self.variants(of: value) {
                switch Self.agrees(variant.value) {
                case true?: readByHand += 1
                case false?: Issue.record("\(name), \(variant.change): read otherwise than the decoder reads it")
                case nil:
                    leftToTheDecoder += 1
                }
            }
        }
        // Both ways are taken: nulls and missing optional members are read by hand,
        // wrong types are left to the decoder.
        #expect(readByHand > 100)
        #expect(leftToTheDecoder > 100)
    }

    @Test func twoKeysForOnePropertyAreLeftToTheDecoder() throws {
        let value = try YAMLDocument(text: """
            summary: one
            program_edit: {feedback: shorter}
            programEdit: {feedback: longer}
            """).value
        #expect(Scenario(snakeCased: value) == nil)
        #expect(Scenario(snakeCased: try YAMLDocument(text: "summary: one\nprogram_edit: {feedback: shorter}").value)?.programEdit.feedback == "shorter")
    }

    /// Every member of every object in `value`, taken away, set to null, replaced by a
    /// value of another type, or renamed to camel case.
    static func variants(of value: JSONValue, at path: String = "") -> [(change: String, value: JSONValue)] {
        switch value {
        case .object(let object):
            var variants: [(String, JSONValue)] = []
            for member in object.members {
                let here = path + "/" + member.key
                var removed = object
                removed[member.key] = nil
                variants.append(("\(here) removed", .object(removed)))
                for (label, replacement) in [("null", JSONValue.null), ("a number", .number(2.5)), ("a whole number", .number(3)),
                                             ("a string", .string("kettlebell")), ("a boolean", .bool(true)), ("an array", .array([.string("x")]))] {
                    var changed = object
                    changed[member.key] = replacement
                    variants.append(("\(here) as \(label)", .object(changed)))
                }
                let camel = JSONValueDecoder.camelCase(member.key)
                if camel != member.key {
                    var renamed = object
                    renamed[member.key] = nil
                    renamed[camel] = member.value
                    variants.append(("\(here) as \(camel)", .object(renamed)))
                }
                for inner in Self.variants(of: member.value, at: here) {
                    var changed = object
                    changed[member.key] = inner.value
                    variants.append((inner.change, .object(changed)))
                }
            }
            return variants
        case .array(let elements):
            return elements.indices.flatMap { index in
                Self.variants(of: elements[index], at: "\(path)/\(index)").map { inner in
                    var changed = elements
                    changed[index] = inner.value
                    return (inner.change, JSONValue.array(changed))
                }
            }
        default:
            return []
        }
    }
}
