import Foundation
import Intake

/// Makes a variant the new base prompt of its step: the files the variant holds
/// replace the base's (`prompt.yaml` key by key), and the version goes up past
/// both. The old base can be kept as a variant of its own, so it stays runnable.
public struct PromptPromotion: Sendable {
    public let step: PipelineStep
    public let variant: String
    /// The name the old base is kept under, nil to let it go.
    public let oldBaseName: String?

    public init(step: PipelineStep, variant: String, keepingBaseAs oldBaseName: String? = nil) {
        self.step = step
        self.variant = variant
        self.oldBaseName = oldBaseName
    }

    /// What the promotion did, for the command line to print.
    public struct Outcome: Sendable {
        public var oldVersion: Int
        public var newVersion: Int
        /// Files written or removed, relative to the project.
        public var changedFiles: [String]
    }

    /// The files a promotion writes, worked out before any is written, so that a
    /// promotion of several steps writes nothing when one of them is broken.
    public struct Plan: Sendable {
        public let step: PipelineStep
        fileprivate let writes: [(URL, String)]
        fileprivate let variantFolder: URL
        fileprivate let oldVersion: Int
        fileprivate let newVersion: Int

        /// Writes the new base (and the old base's variant), then removes the variant's folder.
        public func write(layout: ProjectLayout) throws(PromptError) -> Outcome {
            var changed: [String] = []
            do {
                for (url, text) in writes {
                    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Data((text.hasSuffix("\n") ? text : text + "\n").utf8).write(to: url, options: .atomic)
                    changed.append(layout.displayPath(of: url))
                }
                try FileManager.default.removeItem(at: variantFolder)
                changed.append(layout.displayPath(of: variantFolder) + " (removed)")
            } catch {
                throw PromptError(file: changed.last ?? layout.displayPath(of: variantFolder), message: "could not write the promotion: \(error.localizedDescription)")
            }
            _ = try StepPrompt.load(step, layout: layout)
            return Outcome(oldVersion: oldVersion, newVersion: newVersion, changedFiles: changed)
        }
    }

    /// Checks both prompts, then writes the new base (and the old base's variant), then
    /// removes the variant's folder. Nothing is written when either prompt is broken.
    public func apply(layout: ProjectLayout) throws(PromptError) -> Outcome {
        try plan(layout: layout).write(layout: layout)
    }

    /// Checks both prompts and works out what the promotion writes, writing nothing.
    public func plan(layout: ProjectLayout) throws(PromptError) -> Plan {
        let folder = layout.prompts.appendingPathComponent(step.rawValue, isDirectory: true)
        let variantFolder = PromptVariants.folder(of: step, variant: variant, layout: layout)
        let base = try StepPrompt.load(step, layout: layout)
        guard PromptVariants.names(of: step, layout: layout).contains(variant) else {
            let names = PromptVariants.names(of: step, layout: layout)
            throw PromptError(
                file: layout.displayPath(of: variantFolder),
                message: "no such variant; \(step.rawValue) has " + (names.isEmpty ? "no variants" : names.joined(separator: ", ")))
        }
        let promoted = try StepPrompt.load(step, layout: layout, variant: variant)
        let files = try PromptVariants.files(in: variantFolder, layout: layout)
        let newVersion = max(base.metadata.version, promoted.metadata.version) + 1
        let baseMetadata = try Self.read(folder.appendingPathComponent("prompt.yaml"), layout: layout)
        let variantMetadata = files.contains("prompt.yaml") ? try Self.read(variantFolder.appendingPathComponent("prompt.yaml"), layout: layout) : nil
        var writes: [(URL, String)] = []

        if let oldBaseName {
            let oldFolder = PromptVariants.folder(of: step, variant: oldBaseName, layout: layout)
            guard VariantSelection.isValidName(oldBaseName) else {
                throw PromptError(file: layout.displayPath(of: oldFolder), message: "`\(oldBaseName)` is not a variant name; use letters, digits, `.`, `_` and `-`")
            }
            guard !FileManager.default.fileExists(atPath: oldFolder.path) else {
                throw PromptError(file: layout.displayPath(of: oldFolder), message: "already exists; choose another name for the old base")
            }
            for name in ["system.md", "user.mustache"] {
                writes.append((oldFolder.appendingPathComponent(name), try Self.read(folder.appendingPathComponent(name), layout: layout)))
            }
            // A key the old base left unset, and the new base sets, is spelled out as off.
            var oldMetadata = baseMetadata
            let newKeys = variantMetadata.map(MetadataText.topLevelKeys(in:)) ?? []
            let oldKeys = Set(MetadataText.topLevelKeys(in: oldMetadata))
            for key in newKeys where !oldKeys.contains(key) {
                if let off = PromptMetadata.offValues[key] { oldMetadata = MetadataText.setting(key, to: off, in: oldMetadata) }
            }
            writes.append((oldFolder.appendingPathComponent("prompt.yaml"), oldMetadata))
            if files.contains(PromptVariants.schemaFile) {
                writes.append((oldFolder.appendingPathComponent(PromptVariants.schemaFile), base.schemaDocument.serialized(.prettySorted) + "\n"))
            }
        }

        for name in ["system.md", "user.mustache"] where files.contains(name) {
            writes.append((folder.appendingPathComponent(name), try Self.read(variantFolder.appendingPathComponent(name), layout: layout)))
        }
        var metadata = baseMetadata
        if let variantMetadata {
            metadata = MetadataText.overriding(metadata, with: variantMetadata)
            // The variant's opening comment says what it is; it becomes the base's.
            metadata = MetadataText.replacingHeader(of: metadata, with: variantMetadata)
        }
        if files.contains(PromptVariants.schemaFile) {
            // The file the new base names may be another step's too: then this step gets a file of its own.
            let sharedNames = Set(PipelineStep.allCases.filter { $0 != step }.compactMap { (try? StepPrompt.load($0, layout: layout))?.metadata.schema })
            var schemaName = promoted.metadata.schema
            if sharedNames.contains(schemaName) {
                schemaName = "\(step.rawValue).schema.json"
                var suffix = newVersion
                while sharedNames.contains(schemaName) || FileManager.default.fileExists(atPath: layout.schemas.appendingPathComponent(schemaName).path) {
                    schemaName = "\(step.rawValue)-v\(suffix).schema.json"
                    suffix += 1
                }
            }
            writes.append((layout.schemas.appendingPathComponent(schemaName), try Self.read(variantFolder.appendingPathComponent(PromptVariants.schemaFile), layout: layout)))
            metadata = MetadataText.setting("schema", to: schemaName, in: metadata)
        }
        metadata = MetadataText.setting("version", to: String(newVersion), in: metadata)
        writes.append((folder.appendingPathComponent("prompt.yaml"), metadata))
        for other in PromptVariants.names(of: step, layout: layout) where other != variant && other != oldBaseName {
            writes += try Self.keepingInherited(
                by: other, of: step, oldBase: (folder, baseMetadata), newBase: (files, metadata), promoted: variant, layout: layout)
        }
        return Plan(step: step, writes: writes, variantFolder: variantFolder, oldVersion: base.metadata.version, newVersion: newVersion)
    }

    /// What variant `name` needs written so that it runs as it did before the promotion:
    /// a file it inherited from the old base and the promotion replaces becomes its own,
    /// and so does each `prompt.yaml` key whose value it inherited and the new base
    /// changes (a key only the new base sets is spelled out as off).
    private static func keepingInherited(
        by name: String, of step: PipelineStep, oldBase: (folder: URL, metadata: String), newBase: (files: Set<String>, metadata: String),
        promoted: String, layout: ProjectLayout
    ) throws(PromptError) -> [(URL, String)] {
        let folder = PromptVariants.folder(of: step, variant: name, layout: layout)
        let own = try PromptVariants.files(in: folder, layout: layout)
        var writes: [(URL, String)] = []
        for file in ["system.md", "user.mustache"] where newBase.files.contains(file) && !own.contains(file) {
            writes.append((folder.appendingPathComponent(file), try read(oldBase.folder.appendingPathComponent(file), layout: layout)))
        }
        let metadataFile = folder.appendingPathComponent("prompt.yaml")
        var metadata = own.contains("prompt.yaml")
            ? try read(metadataFile, layout: layout)
            : "# Variant \(name) of \(step.rawValue): what it set before `\(promoted)` was promoted to the base.\n"
        let set = Set(MetadataText.topLevelKeys(in: metadata))
        var kept = false
        let keys = Set(MetadataText.topLevelKeys(in: oldBase.metadata)).union(MetadataText.topLevelKeys(in: newBase.metadata))
        for key in keys.sorted() where key != "version" && !set.contains(key) {
            let before = MetadataText.blockText(of: key, in: oldBase.metadata)
            guard before != MetadataText.blockText(of: key, in: newBase.metadata) else { continue }
            if let before {
                metadata = MetadataText.overriding(metadata, with: before)
            } else if let off = PromptMetadata.offValues[key] {
                metadata = MetadataText.setting(key, to: off, in: metadata)
            } else {
                continue
            }
            kept = true
        }
        if kept { writes.append((metadataFile, metadata)) }
        return writes
    }

    private static func read(_ url: URL, layout: ProjectLayout) throws(PromptError) -> String {
        guard let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) else {
            throw PromptError(file: layout.displayPath(of: url), message: "cannot be read")
        }
        return text
    }
}

/// Edits a `prompt.yaml` as text, so its comments and layout survive a promotion.
enum MetadataText {
    /// A top-level key's lines: its own line and the indented lines under it.
    private static func block(of key: String, in lines: [Substring]) -> Range<Int>? {
        guard let start = lines.firstIndex(where: { $0.hasPrefix("\(key):") }) else { return nil }
        var end = start + 1
        var scan = start + 1
        // Indented lines belong to the key; blank lines too when more indented lines follow.
        while scan < lines.count {
            if let first = lines[scan].first, first == " " || first == "\t" {
                scan += 1
                end = scan
            } else if lines[scan].allSatisfy(\.isWhitespace) {
                scan += 1
            } else {
                break
            }
        }
        return start..<end
    }

    /// A top-level key's lines as text, nil when `text` does not set it.
    static func blockText(of key: String, in text: String) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return block(of: key, in: lines).map { lines[$0].joined(separator: "\n") }
    }

    static func topLevelKeys(in text: String) -> [String] {
        topLevelKeys(in: text.split(separator: "\n", omittingEmptySubsequences: false))
    }

    private static func topLevelKeys(in lines: [Substring]) -> [String] {
        lines.compactMap { line in
            guard let first = line.first, first != "#", first != " ", first != "\t", let colon = line.firstIndex(of: ":") else { return nil }
            return String(line[..<colon])
        }
    }

    /// `base` with every top-level key `override` holds replaced by the override's lines.
    static func overriding(_ base: String, with override: String) -> String {
        var lines = base.split(separator: "\n", omittingEmptySubsequences: false)
        let overrideLines = override.split(separator: "\n", omittingEmptySubsequences: false)
        for key in topLevelKeys(in: overrideLines) {
            guard let source = block(of: key, in: overrideLines) else { continue }
            let replacement = Array(overrideLines[source])
            if let target = block(of: key, in: lines) {
                lines.replaceSubrange(target, with: replacement)
            } else {
                if lines.last == "" { lines.removeLast() }
                lines += replacement
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The comment lines before the first key.
    private static func header(of lines: [Substring]) -> [Substring] {
        Array(lines.prefix { $0.hasPrefix("#") })
    }

    /// `text` with its opening comment replaced by `other`'s, when `other` opens with one.
    static func replacingHeader(of text: String, with other: String) -> String {
        let replacement = header(of: other.split(separator: "\n", omittingEmptySubsequences: false))
        guard !replacement.isEmpty else { return text }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        lines.replaceSubrange(0..<header(of: lines).count, with: replacement)
        return lines.joined(separator: "\n")
    }

    /// `text` with the scalar key set to `value`.
    static func setting(_ key: String, to value: String, in text: String) -> String {
        overriding(text, with: "\(key): \(value)")
    }
}
