import Foundation
import Intake
import Pipeline

/// `promote STEP NAME`: the variant becomes the step's base prompt, and its golden
/// files (approved outputs and recordings) become the base's, so the new base
/// replays offline at once. Kept under a name, the old base keeps its files as
/// that variant's; otherwise the base files the variant replaces are deleted.
public struct VariantPromotion: Sendable {
    public let prompt: PromptPromotion

    public init(step: PipelineStep, variant: String, keepingBaseAs oldBaseName: String? = nil) {
        prompt = PromptPromotion(step: step, variant: variant, keepingBaseAs: oldBaseName)
    }

    public struct Outcome: Sendable {
        public var prompt: PromptPromotion.Outcome
        /// Fixture steps whose files moved from the variant's folder into the base's.
        public var promotedSteps: [StepKey]
        /// Fixture steps whose base files moved to the old base's variant folder.
        public var keptSteps: [StepKey]
        /// The old base's golden folder, relative to the project, when it was kept.
        public var oldBaseFolder: String?
    }

    public func apply(layout: ProjectLayout) throws -> Outcome {
        let step = prompt.step
        // The folders as `run --variant step=name` names them, before the prompts change.
        let variantTrack = try VariantSelection(resolving: ["\(step.rawValue)=\(prompt.variant)"], layout: layout).track!
        let promptOutcome = try prompt.apply(layout: layout)
        var oldTrack: VariantTrack?
        if let oldBaseName = prompt.oldBaseName {
            oldTrack = try VariantSelection(resolving: ["\(step.rawValue)=\(oldBaseName)"], layout: layout).track
        }
        let golden = layout.golden
        let variantFolder = variantTrack.folder(in: golden)
        var promoted: [StepKey] = []
        var kept: [StepKey] = []
        let manager = FileManager.default
        for fixture in (try? manager.contentsOfDirectory(atPath: variantFolder.path))?.sorted() ?? [] where !fixture.hasPrefix(".") {
            let from = variantFolder.appendingPathComponent(fixture, isDirectory: true)
            let to = golden.appendingPathComponent(fixture, isDirectory: true)
            let incoming = Self.stepFiles(in: from, heldBy: variantTrack)
            guard !incoming.isEmpty else { continue }
            // The base's files of the same steps make way: kept as the old base's, or deleted.
            let outgoing = Self.stepFiles(in: to, heldBy: variantTrack)
            if let oldTrack {
                let keep = oldTrack.folder(in: golden).appendingPathComponent(fixture, isDirectory: true)
                try Self.move(outgoing.values.flatMap { $0 }, from: to, to: keep)
                kept += outgoing.keys.map { StepKey(fixture: fixture, step: $0) }
            } else {
                for name in outgoing.values.flatMap({ $0 }) { try manager.removeItem(at: to.appendingPathComponent(name)) }
            }
            try Self.move(incoming.values.flatMap { $0 }, from: from, to: to)
            promoted += incoming.keys.map { StepKey(fixture: fixture, step: $0) }
            rmdir(from.path)
        }
        // Folders go only when the move left them empty.
        rmdir(variantFolder.path)
        rmdir(golden.appendingPathComponent(VariantTrack.folderName).path)
        return Outcome(
            prompt: promptOutcome, promotedSteps: promoted.sorted(), keptSteps: kept.sorted(),
            oldBaseFolder: oldTrack.map { layout.displayPath(of: $0.folder(in: golden)) })
    }

    /// The golden files in a fixture folder of the steps `track` holds, by step.
    private static func stepFiles(in folder: URL, heldBy track: VariantTrack) -> [String: [String]] {
        var files: [String: [String]] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            guard let step = GoldenStore.step(ofFileNamed: name), track.holds(step: step) else { continue }
            files[step, default: []].append(name)
        }
        return files
    }

    private static func move(_ names: [String], from source: URL, to destination: URL) throws {
        guard !names.isEmpty else { return }
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        for name in names {
            let target = destination.appendingPathComponent(name)
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.moveItem(at: source.appendingPathComponent(name), to: target)
        }
    }
}
