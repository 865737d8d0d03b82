import Foundation
import Intake
import Pipeline

/// `promote STEP NAME`: the variant becomes the step's base prompt, and its golden
/// files (approved outputs and recordings) become the base's, so the new base
/// replays offline at once wherever the variant was recorded.
///
/// Only the fixture steps the variant has files for are replaced; the base's other
/// files stay (stale now, since the prompt changed) so that re-recording them shows
/// what changed. Kept under a name, the old base keeps a complete copy of its
/// files as that variant's, so it still replays everywhere it did.
public struct VariantPromotion: Sendable {
    public let prompt: PromptPromotion

    public init(step: PipelineStep, variant: String, keepingBaseAs oldBaseName: String? = nil) {
        prompt = PromptPromotion(step: step, variant: variant, keepingBaseAs: oldBaseName)
    }

    public struct Outcome: Sendable {
        public var prompt: PromptPromotion.Outcome
        /// Fixture steps whose files moved from the variant's folder into the base's.
        public var promotedSteps: [StepKey]
        /// Fixture steps the promoted prompt changes but the variant has no files for:
        /// their base recordings are stale until re-recorded.
        public var staleSteps: [StepKey]
        /// Fixture steps whose base files went to the old base's variant folder.
        public var keptSteps: [StepKey]
        /// The old base's golden folder, relative to the project, when it was kept.
        public var oldBaseFolder: String?
    }

    public func apply(layout: ProjectLayout) throws -> Outcome {
        let step = prompt.step
        let golden = layout.golden
        // The folders as `run --variant step=name` names them.
        let variantTrack = VariantSelection(steps: [step: prompt.variant]).track!
        let oldTrack = prompt.oldBaseName.map { VariantSelection(steps: [step: $0]).track! }
        if let oldTrack, FileManager.default.fileExists(atPath: oldTrack.folder(in: golden).path) {
            throw GoldenError.unwritable(
                path: layout.displayPath(of: oldTrack.folder(in: golden)), reason: "it already exists; choose another name for the old base")
        }
        let promptOutcome = try prompt.apply(layout: layout)
        let variantFolder = variantTrack.folder(in: golden)
        var promoted: [StepKey] = []
        var stale: [StepKey] = []
        var kept: [StepKey] = []
        let fixtures = Set(GoldenStore(folder: golden).fixtureFolders() + GoldenStore(folder: variantFolder).fixtureFolders())
        for fixture in fixtures.sorted() {
            let from = variantFolder.appendingPathComponent(fixture, isDirectory: true)
            let to = golden.appendingPathComponent(fixture, isDirectory: true)
            let incoming = Self.stepFiles(in: from, heldBy: variantTrack)
            let outgoing = Self.stepFiles(in: to, heldBy: variantTrack)
            if let oldTrack {
                // The old base keeps every file it had; the base keeps those the variant does not replace.
                let keep = oldTrack.folder(in: golden).appendingPathComponent(fixture, isDirectory: true)
                for (stepName, names) in outgoing {
                    try Self.transfer(names, from: to, to: keep, moving: incoming[stepName] != nil)
                    kept.append(StepKey(fixture: fixture, step: stepName))
                }
            } else {
                for (stepName, names) in outgoing where incoming[stepName] != nil {
                    for name in names { try FileManager.default.removeItem(at: to.appendingPathComponent(name)) }
                }
            }
            for (stepName, names) in incoming {
                try Self.transfer(names, from: from, to: to, moving: true)
                promoted.append(StepKey(fixture: fixture, step: stepName))
            }
            stale += outgoing.keys.filter { incoming[$0] == nil }.map { StepKey(fixture: fixture, step: $0) }
            rmdir(from.path)
        }
        // Folders go only when the move left them empty.
        rmdir(variantFolder.path)
        rmdir(golden.appendingPathComponent(VariantTrack.folderName).path)
        return Outcome(
            prompt: promptOutcome, promotedSteps: promoted.sorted(), staleSteps: stale.sorted(), keptSteps: kept.sorted(),
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

    /// Moves (or copies) `names` from one fixture folder to another, replacing what is there.
    private static func transfer(_ names: [String], from source: URL, to destination: URL, moving: Bool) throws {
        guard !names.isEmpty else { return }
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        for name in names {
            let target = destination.appendingPathComponent(name)
            try? FileManager.default.removeItem(at: target)
            if moving {
                try FileManager.default.moveItem(at: source.appendingPathComponent(name), to: target)
            } else {
                try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: target)
            }
        }
    }
}
