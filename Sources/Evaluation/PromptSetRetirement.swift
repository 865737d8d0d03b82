import Foundation
import Intake
import Pipeline

/// `retire NAME`: a prompt set that is stale or superseded leaves the project in one
/// step: its prompt folders (`prompts/<step>/variants/NAME/`) and every golden folder
/// that runs it (`golden/variants/<label>/`). git keeps them. A set CI still gates, or
/// whose files a document links to, is refused until the list or the document changes,
/// so retiring never breaks the gate or a link.
public struct PromptSetRetirement: Sendable {
    public struct Folder: Sendable, Hashable {
        /// Relative to the project.
        public var path: String
        public var files: Int
    }

    public let name: String
    public let promptFolders: [Folder]
    public let goldenFolders: [Folder]
    /// Why it cannot be retired now, each naming the file and line to change.
    public let blockers: [String]

    public var canApply: Bool { blockers.isEmpty }

    /// What retiring `name` would remove, and what stops it. An unknown name is an
    /// error with the sets there are.
    public init(name: String, layout: ProjectLayout) throws(PromptSetRetirementError) {
        let available = PromptVariants.all(layout: layout)
        let steps = PipelineStep.allCases.filter { available[$0]?.contains(name) ?? false }
        let trackLabels = PromptSets.trackLabels(in: layout).filter { label in
            VariantSelection.steps(inLabel: label)?.values.contains(name) ?? false
        }
        guard !steps.isEmpty || !trackLabels.isEmpty else {
            let names = Set(available.values.joined()).sorted(by: PromptSets.versionOrder)
            throw .unknown(name: name, suggestion: ClosestMatch.suggestion(for: name, among: names), sets: names)
        }
        self.name = name
        promptFolders = steps.map { Self.folder(PromptVariants.folder(of: $0, variant: name, layout: layout), layout: layout) }
        let trackFolders = trackLabels.map { layout.golden.appendingPathComponent(VariantTrack.folderName).appendingPathComponent($0) }
        goldenFolders = trackFolders.map { Self.folder($0, layout: layout) }

        var blockers: [String] = []
        do {
            let kept = try KeptVariants.load(layout: layout)
            for label in trackLabels {
                if let entry = kept.entry(forTrack: label) {
                    blockers.append("CI gates `--variant \(entry.arguments.joined(separator: " --variant "))` (\(entry.source)): take it out of the list first")
                }
            }
        } catch {
            blockers.append("\(error)")
        }
        let removed = (promptFolders + goldenFolders).map(\.path)
        blockers += Self.citations(of: removed, in: layout).map { "\($0.place) links to \($0.path): change the document first" }
        self.blockers = blockers
    }

    /// Removes the folders: each is first moved aside, and if one cannot be, those
    /// already moved go back, so a failure leaves the set whole.
    public func apply(layout: ProjectLayout) throws(PromptSetRetirementError) {
        guard canApply else { throw .blocked(name: name, blockers: blockers) }
        let fileManager = FileManager.default
        let aside = layout.root.appendingPathComponent(".retiring-\(name)-\(UUID().uuidString)", isDirectory: true)
        var moved: [(from: URL, to: URL)] = []
        do {
            try fileManager.createDirectory(at: aside, withIntermediateDirectories: true)
            for (index, folder) in (promptFolders + goldenFolders).enumerated() {
                let from = layout.root.appendingPathComponent(folder.path, isDirectory: true)
                let to = aside.appendingPathComponent("\(index)", isDirectory: true)
                try fileManager.moveItem(at: from, to: to)
                moved.append((from, to))
            }
        } catch {
            for move in moved.reversed() { try? fileManager.moveItem(at: move.to, to: move.from) }
            try? fileManager.removeItem(at: aside)
            throw .unwritable(reason: "\(error.localizedDescription); nothing was removed")
        }
        try? fileManager.removeItem(at: aside)
        // A step's variants folder left empty goes too.
        for folder in promptFolders {
            let parent = layout.root.appendingPathComponent(folder.path).deletingLastPathComponent()
            if (try? fileManager.contentsOfDirectory(atPath: parent.path))?.isEmpty == true { try? fileManager.removeItem(at: parent) }
        }
    }

    private static func folder(_ url: URL, layout: ProjectLayout) -> Folder {
        let files = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey])?
            .compactMap { ($0 as? URL).flatMap { try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile } == true ? 1 : nil }
            .count ?? 0
        return Folder(path: layout.displayPath(of: url), files: files)
    }

    /// Markdown files of the project, outside the folders being removed and the generated
    /// ones, that link to a path under one of `paths`.
    static func citations(of paths: [String], in layout: ProjectLayout) -> [(place: String, path: String)] {
        let skipped = Set([".build", ".git", "Reports", ".history", ".step-cache"])
        var found: [(String, String)] = []
        guard let walker = FileManager.default.enumerator(at: layout.root, includingPropertiesForKeys: [.isDirectoryKey]) else { return [] }
        for case let url as URL in walker {
            if skipped.contains(url.lastPathComponent) || url.lastPathComponent.hasPrefix(".retiring-") {
                walker.skipDescendants()
                continue
            }
            guard url.pathExtension == "md" else { continue }
            let display = layout.displayPath(of: url)
            if paths.contains(where: { display.hasPrefix($0 + "/") }) { continue }
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for path in paths where mentions(line, path) {
                    found.append(("\(display):\(number + 1)", path))
                }
            }
        }
        return found.sorted { $0.0 < $1.0 }
    }

    /// Whether `line` names `path` itself or a file under it: `…/variants/v4/README.md`
    /// and `…/variants/v4.` at a sentence's end do, `…/variants/v4.1/` does not.
    static func mentions(_ line: Substring, _ path: String) -> Bool {
        var rest = line[...]
        while let range = rest.range(of: path) {
            let after = rest[range.upperBound...]
            let next = after.first
            let continuesName = next.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" } ?? false
            let dotThenName = next == "." && after.dropFirst().first.map { $0.isLetter || $0.isNumber } == true
            if !continuesName && !dotThenName { return true }
            rest = after
        }
        return false
    }
}

public enum PromptSetRetirementError: Error, Equatable, CustomStringConvertible {
    case unknown(name: String, suggestion: String?, sets: [String])
    case blocked(name: String, blockers: [String])
    case unwritable(reason: String)

    public var description: String {
        switch self {
        case .unknown(let name, let suggestion, let sets):
            let hint = suggestion.map { " Did you mean `\($0)`?" } ?? ""
            let listing = sets.isEmpty ? "The project has no prompt sets beside the base." : "Sets: \(sets.joined(separator: ", "))."
            return "No prompt set is named `\(name)`.\(hint) \(listing)"
        case .blocked(let name, let blockers):
            return "`\(name)` cannot be retired yet:\n" + blockers.map { "  - \($0)" }.joined(separator: "\n")
        case .unwritable(let reason):
            return "The set could not be removed: \(reason)."
        }
    }
}
