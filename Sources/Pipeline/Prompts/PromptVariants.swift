import Foundation
import Intake

/// The prompt variants of a project: folders under `prompts/<step>/variants/<name>/`,
/// each holding the files that differ from the step's base prompt.
public enum PromptVariants {
    /// The files a variant's folder may hold. `schema.json` replaces the step's output
    /// schema; README.md is for the prompt engineer's notes and is never sent.
    public static let allowedFiles = ["system.md", "user.mustache", "prompt.yaml", schemaFile, "README.md"]
    /// A variant's own output schema.
    public static let schemaFile = "schema.json"

    /// The folder of `step`'s variant `name`.
    public static func folder(of step: PipelineStep, variant name: String, layout: ProjectLayout) -> URL {
        layout.prompts.appendingPathComponent(step.rawValue, isDirectory: true)
            .appendingPathComponent(VariantTrack.folderName, isDirectory: true)
            .appendingPathComponent(name, isDirectory: true)
    }

    /// The variants `step` has, sorted by name.
    public static func names(of step: PipelineStep, layout: ProjectLayout) -> [String] {
        let parent = layout.prompts.appendingPathComponent(step.rawValue, isDirectory: true)
            .appendingPathComponent(VariantTrack.folderName, isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        return names.filter { name in
            var isFolder: ObjCBool = false
            return !name.hasPrefix(".") && FileManager.default.fileExists(atPath: parent.appendingPathComponent(name).path, isDirectory: &isFolder)
                && isFolder.boolValue
        }.sorted()
    }

    /// Every step's variants, for messages and `render`.
    public static func all(layout: ProjectLayout) -> [PipelineStep: [String]] {
        var all: [PipelineStep: [String]] = [:]
        for step in PipelineStep.allCases {
            let names = names(of: step, layout: layout)
            if !names.isEmpty { all[step] = names }
        }
        return all
    }

    /// The files a variant's folder holds, refusing one it cannot use (a misspelt
    /// `sytem.md` would otherwise be silently ignored and the base prompt sent).
    static func files(in folder: URL, layout: ProjectLayout) throws(PromptError) -> Set<String> {
        let display = layout.displayPath(of: folder)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            throw PromptError(file: display, message: "no such variant folder")
        }
        let files = Set(names.filter { !$0.hasPrefix(".") })
        for name in files.sorted() where !allowedFiles.contains(name) {
            let hint = ClosestMatch.suggestion(for: name, among: allowedFiles).map { " (did you mean \($0)?)" } ?? ""
            throw PromptError(
                file: "\(display)/\(name)",
                message: "a variant folder may hold only \(allowedFiles.joined(separator: ", "))\(hint)")
        }
        guard files.contains(where: { $0 != "README.md" }) else {
            throw PromptError(file: display, message: "the variant changes nothing: add system.md, user.mustache, prompt.yaml or schema.json")
        }
        return files
    }
}

/// Which variant each step runs, resolved from `--variant` values against the prompt folders.
public struct VariantSelection: Sendable, Hashable {
    /// The variant each selected step runs; steps not named run their base prompt.
    public let steps: [PipelineStep: String]
    /// Where the run's golden files live, nil when every step runs its base prompt.
    public let track: VariantTrack?

    public static let none = VariantSelection(steps: [:])

    /// Resolves `NAME` (every step that has variant NAME) and `STEP=NAME` values.
    public init(resolving values: [String], layout: ProjectLayout) throws(VariantSelectionError) {
        let available = PromptVariants.all(layout: layout)
        var steps: [PipelineStep: String] = [:]
        func select(_ step: PipelineStep, _ name: String, from value: String) throws(VariantSelectionError) {
            if let earlier = steps[step], earlier != name {
                throw VariantSelectionError("--variant \(value): \(step.rawValue) already runs variant `\(earlier)`; a step runs one variant at a time.")
            }
            steps[step] = name
        }
        for value in values {
            let parts = value.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let name = parts.last ?? ""
            guard Self.isValidName(name) else {
                throw VariantSelectionError(
                    "--variant \(value): `\(name)` is not a variant name; names use letters, digits, `.`, `_` and `-`.")
            }
            if parts.count == 2 {
                guard let step = PipelineStep(rawValue: parts[0]) else {
                    let steps = PipelineStep.allCases.map(\.rawValue)
                    let hint = ClosestMatch.suggestion(for: parts[0], among: steps).map { " Did you mean \($0)?" } ?? ""
                    throw VariantSelectionError("--variant \(value): `\(parts[0])` is not a prompt step.\(hint) Steps: \(steps.joined(separator: ", ")).")
                }
                let names = available[step] ?? []
                guard names.contains(name) else {
                    let hint = ClosestMatch.suggestion(for: name, among: names).map { " Did you mean \($0)?" } ?? ""
                    throw VariantSelectionError(
                        "--variant \(value): prompts/\(step.rawValue)/variants/\(name)/ does not exist.\(hint) \(Self.listing(available))")
                }
                try select(step, name, from: value)
            } else {
                let holders = PipelineStep.allCases.filter { available[$0]?.contains(name) ?? false }
                guard !holders.isEmpty else {
                    let hint = ClosestMatch.suggestion(for: name, among: Set(available.values.joined()).sorted()).map { " Did you mean \($0)?" } ?? ""
                    throw VariantSelectionError("--variant \(value): no step has a variant `\(name)`.\(hint) \(Self.listing(available))")
                }
                for step in holders { try select(step, name, from: value) }
            }
        }
        self.init(steps: steps)
    }

    /// The selection of exactly these variants (assumed to exist).
    public init(steps: [PipelineStep: String]) {
        self.steps = steps
        guard let first = PipelineStep.allCases.first(where: { steps[$0] != nil }) else {
            self.track = nil
            return
        }
        self.track = VariantTrack(label: Self.label(steps), firstStep: first)
    }

    /// Every choice spelled out in step order (`goal-options=terse+program-draft=short`):
    /// two different selections never share a folder, and adding a variant to another
    /// step never moves an existing selection's files.
    static func label(_ steps: [PipelineStep: String]) -> String {
        PipelineStep.allCases.compactMap { step in steps[step].map { "\(step.rawValue)=\($0)" } }.joined(separator: "+")
    }

    /// The selection a golden folder's label spells, nil when the label is not one.
    public static func steps(inLabel label: String) -> [PipelineStep: String]? {
        var steps: [PipelineStep: String] = [:]
        for part in label.split(separator: "+", omittingEmptySubsequences: false) {
            let pair = part.split(separator: "=", omittingEmptySubsequences: false)
            guard pair.count == 2, let step = PipelineStep(rawValue: String(pair[0])), isValidName(String(pair[1])), steps[step] == nil else { return nil }
            steps[step] = String(pair[1])
        }
        return steps
    }

    /// Letters, digits, `.`, `_` and `-`, not starting with a dot: a folder name
    /// that cannot be confused with the `step=name+step=name` spelling.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || "._-".unicodeScalars.contains($0) }
    }

    private static func listing(_ available: [PipelineStep: [String]]) -> String {
        guard !available.isEmpty else { return "No step has variants yet: add a folder prompts/<step>/variants/<name>/." }
        return "Variants: " + PipelineStep.allCases.compactMap { step in
            available[step].map { "\(step.rawValue): \($0.joined(separator: ", "))" }
        }.joined(separator: "; ") + "."
    }
}

/// A `--variant` value that names no variant, or two for one step.
public struct VariantSelectionError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
