import Foundation
import JSONSchema

/// The step schemas in this repository's `prompts/schemas`, exactly as the steps use them.
enum RealSchemas {
    static let names = ["goal-options", "program"]

    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("prompts/schemas")

    static func load(_ name: String) throws -> JSONValue {
        try JSONParser.parse(Data(contentsOf: folder.appendingPathComponent("\(name).schema.json")))
    }

    /// Every scalar in `value` (and every empty object or array) with its pointer.
    static func leaves(of value: JSONValue, at pointer: JSONPointer = .root) -> [(JSONPointer, JSONValue)] {
        switch value {
        case .object(let object) where !object.isEmpty:
            return object.flatMap { leaves(of: $0.value, at: pointer.appending($0.key)) }
        case .array(let elements) where !elements.isEmpty:
            return elements.enumerated().flatMap { leaves(of: $0.element, at: pointer.appending($0.offset)) }
        default:
            return [(pointer, value)]
        }
    }
}
