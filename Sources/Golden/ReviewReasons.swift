import Foundation
import Intake
import JSONSchema

/// Why a reviewer may reject an output: the vocabulary in
/// `prompts/coaching/review-reasons.yaml`, each reason with its one-line definition.
public struct ReviewReasons: Sendable {
    public struct Reason: Sendable, Hashable {
        public var id: String
        public var definition: String
        /// The output kinds it can describe: `options`, `program`.
        public var appliesTo: [String]

        public init(id: String, definition: String, appliesTo: [String]) {
            (self.id, self.definition, self.appliesTo) = (id, definition, appliesTo)
        }
    }

    public var reasons: [Reason]

    public init(reasons: [Reason]) {
        self.reasons = reasons
    }

    public var ids: [String] { reasons.map(\.id) }

    public func reason(_ id: String) -> Reason? { reasons.first { $0.id == id } }

    /// The vocabulary's file in a project.
    public static func file(in layout: ProjectLayout) -> URL {
        layout.prompts.appendingPathComponent("coaching/review-reasons.yaml")
    }

    /// Reads the project's vocabulary; a problem names the file, the line and the field.
    public static func load(layout: ProjectLayout) throws(LabelError) -> ReviewReasons {
        let file = file(in: layout)
        let display = layout.displayPath(of: file)
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw LabelError.vocabulary(path: display, problem: "the file is missing; it lists the reasons a label may give")
        }
        let document: YAMLDocument
        do {
            document = try YAMLDocument(text: String(decoding: data, as: UTF8.self))
        } catch {
            throw LabelError.vocabulary(path: display, problem: error.description)
        }
        func problem(_ pointer: String, _ text: String) -> LabelError {
            LabelError.vocabulary(path: display, problem: document.problem(at: pointer, text))
        }
        guard let entries = document.value["reasons"]?.arrayValue else {
            throw problem("/reasons", "expected a list of reasons, got \(document.value["reasons"]?.typeName ?? "nothing")")
        }
        var reasons: [Reason] = []
        for (index, entry) in entries.enumerated() {
            let at = "/reasons/\(index)"
            guard let id = entry["id"]?.stringValue, !id.isEmpty else { throw problem("\(at)/id", "expected a kebab-case id") }
            guard id.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }) else {
                throw problem("\(at)/id", "expected a kebab-case id, got \"\(id)\"")
            }
            guard !reasons.contains(where: { $0.id == id }) else { throw problem("\(at)/id", "\"\(id)\" is listed twice") }
            guard let definition = entry["definition"]?.stringValue, !definition.isEmpty else {
                throw problem("\(at)/definition", "expected the one line a reviewer reads")
            }
            let kinds = entry["applies_to"]?.arrayValue?.compactMap(\.stringValue) ?? ["options", "program"]
            for kind in kinds where !["options", "program"].contains(kind) {
                throw problem("\(at)/applies_to", "expected options or program, got \"\(kind)\"")
            }
            reasons.append(Reason(id: id, definition: definition, appliesTo: kinds))
        }
        return ReviewReasons(reasons: reasons)
    }

    /// Checks that every id is in the vocabulary; an unknown one is named with the
    /// closest known id.
    public func validate(_ ids: [String]) throws(LabelError) {
        for id in ids where reason(id) == nil {
            throw LabelError.unknownReason(id, suggestion: ClosestMatch.suggestion(for: id, among: self.ids), known: self.ids)
        }
    }
}
