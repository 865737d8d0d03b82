import Foundation
import Intake
import JSONSchema
import Pipeline

/// Which earlier prompt sets CI replays beside the base (`prompts/kept-variants.yaml`):
/// each entry is what `run --variant` takes, one set (`v3`) or one variant per step
/// (`program-draft=v4.4 program-edit=v4.5`), or a mapping with those `variants` and the
/// step its recordings stop at (`until: goal-options-edit`, for a set recorded on the
/// goal steps alone). `variants` shows it, `retire` refuses a set it names, and
/// `scripts/gate-kept-variants` replays every entry.
public struct KeptVariants: Sendable, Hashable {
    public struct Entry: Sendable, Hashable {
        /// The `--variant` values, as written.
        public var arguments: [String]
        /// The step its replay stops after (`--until`), when its recordings stop there.
        public var until: StepSelector?
        /// The golden folder the selection replays from.
        public var track: String
        /// Where the entry is written, `prompts/kept-variants.yaml:7`.
        public var source: String
    }

    public var gated: [Entry]

    public static func file(in layout: ProjectLayout) -> URL {
        layout.prompts.appendingPathComponent("kept-variants.yaml")
    }

    /// The project's list; without the file, no variant is gated. An entry that names
    /// no variant, or a broken file, is an error naming the file, the line and the field.
    public static func load(layout: ProjectLayout) throws(KeptVariantsError) -> KeptVariants {
        let file = file(in: layout)
        let display = layout.displayPath(of: file)
        guard let data = FileManager.default.contents(atPath: file.path) else { return KeptVariants(gated: []) }
        let document: YAMLDocument
        do {
            document = try YAMLDocument(text: String(decoding: data, as: UTF8.self))
        } catch {
            throw KeptVariantsError(path: display, problem: error.description)
        }
        guard let entries = document.value["gated"]?.arrayValue else {
            throw KeptVariantsError(
                path: display, problem: document.problem(at: "/gated", "expected a list of --variant selections, got \(document.value["gated"]?.typeName ?? "nothing")"))
        }
        var gated: [Entry] = []
        for (index, entry) in entries.enumerated() {
            var pointer = "/gated/\(index)"
            var until: StepSelector?
            if let step = entry["until"]?.stringValue {
                do {
                    until = try StepSelector(parsing: step)
                } catch {
                    throw KeptVariantsError(path: display, problem: document.problem(at: pointer + "/until", "\(error)"))
                }
            }
            let written = entry["variants"]?.stringValue ?? entry.stringValue
            if entry["variants"] != nil { pointer += "/variants" }
            guard let text = written, !text.isEmpty else {
                throw KeptVariantsError(
                    path: display,
                    problem: document.problem(
                        at: pointer, "expected a selection such as `v3` or `program-draft=v4.4 program-edit=v4.5`, or `{variants: v6, until: goal-options-edit}`"))
            }
            let arguments = text.split(separator: " ").map(String.init)
            let selection: VariantSelection
            do {
                selection = try VariantSelection(resolving: arguments, layout: layout)
            } catch {
                throw KeptVariantsError(path: display, problem: document.problem(at: pointer, error.description))
            }
            let line = JSONPointer(pointer).flatMap { document.location(of: $0) }.map { ":\($0.line)" } ?? ""
            gated.append(Entry(arguments: arguments, until: until, track: selection.track?.label ?? "", source: display + line))
        }
        return KeptVariants(gated: gated)
    }

    /// The entry that replays the golden folder `track`, if one does.
    public func entry(forTrack track: String) -> Entry? {
        gated.first { $0.track == track }
    }
}

/// `prompts/kept-variants.yaml` cannot be used.
public struct KeptVariantsError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var problem: String

    public var description: String { "The list of kept variants \(path) cannot be used: \(problem)." }
}
