import Foundation
import Intake
import Pipeline
import Storage

/// `promote NAME`: the variants become their steps' base prompts, and their golden
/// files (approved outputs and recordings) become the base's, so the new base
/// replays offline at once wherever the variants were recorded. A set of variants
/// (one name across several steps) is promoted together, as `run --variant NAME`
/// selects it: its golden files live in one folder.
///
/// Only the fixture steps the variant has files for are replaced; the base's other
/// files stay (stale now, since the prompt changed) so that re-recording them shows
/// what changed. Kept under a name, the old base keeps a complete copy of its
/// files as that variant's, so it still replays everywhere it did.
public struct VariantPromotion: Sendable {
    public let selection: VariantSelection
    public let oldBaseName: String?

    public init(selection: VariantSelection, keepingBaseAs oldBaseName: String? = nil) {
        self.selection = selection
        self.oldBaseName = oldBaseName
    }

    public init(step: PipelineStep, variant: String, keepingBaseAs oldBaseName: String? = nil) {
        self.init(selection: VariantSelection(steps: [step: variant]), keepingBaseAs: oldBaseName)
    }

    public struct Outcome: Sendable {
        /// Each promoted step's prompt change, in pipeline order.
        public var prompts: [(step: PipelineStep, outcome: PromptPromotion.Outcome)]
        /// Fixture steps whose files moved from the variant's folder into the base's.
        public var promotedSteps: [StepKey]
        /// Fixture steps the promoted prompt changes but the variant has no files for:
        /// their base recordings are stale until re-recorded.
        public var staleSteps: [StepKey]
        /// Fixture steps whose base files went to the old base's variant folder.
        public var keptSteps: [StepKey]
        /// The old base's golden folder, relative to the project, when it was kept.
        public var oldBaseFolder: String?
        /// Other variants' golden folders renamed: their label named a promoted variant,
        /// which is the base now, or they ran the old base's prompts, which are the kept
        /// old base's variant now (`ranOldBase`). Old name, new name, relative to the project.
        public var relabelled: [(from: String, to: String, ranOldBase: Bool)]
        /// Other variants' golden folders that ran the old base's prompts for a promoted
        /// step, left stale because the old base was not kept (relative to the project).
        public var staleFolders: [String]
    }

    public func apply(layout: ProjectLayout) throws -> Outcome {
        let golden = layout.golden
        guard let variantTrack = selection.track else {
            throw PromptError(file: layout.displayPath(of: layout.prompts), message: "no variant named to promote")
        }
        // The folders as `run --variant step=name` names them.
        let oldTrack = oldBaseName.map { old in VariantSelection(steps: selection.steps.mapValues { _ in old }).track! }
        if let oldTrack, FileManager.default.fileExists(atPath: oldTrack.folder(in: golden).path) {
            throw GoldenError.unwritable(
                path: layout.displayPath(of: oldTrack.folder(in: golden)), reason: "it already exists; choose another name for the old base")
        }
        let (relabelling, staleFolders) = try relabellingOtherVariants(in: golden, layout: layout)
        let steps = PipelineStep.allCases.filter { selection.steps[$0] != nil }
        // Every step is checked before any is written.
        var plans: [PromptPromotion.Plan] = []
        for step in steps {
            plans.append(try PromptPromotion(step: step, variant: selection.steps[step]!, keepingBaseAs: oldBaseName).plan(layout: layout))
        }
        var promptOutcomes: [(step: PipelineStep, outcome: PromptPromotion.Outcome)] = []
        for plan in plans {
            promptOutcomes.append((plan.step, try plan.write(layout: layout)))
        }
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
        var relabelled: [(from: String, to: String, ranOldBase: Bool)] = []
        for move in relabelling {
            try move.apply()
            relabelled.append((layout.displayPath(of: move.from), layout.displayPath(of: move.to), move.oldBase != nil))
        }
        rmdir(golden.appendingPathComponent(VariantTrack.folderName).path)
        return Outcome(
            prompts: promptOutcomes, promotedSteps: promoted.sorted(), staleSteps: stale.sorted(), keptSteps: kept.sorted(),
            oldBaseFolder: oldTrack.map { layout.displayPath(of: $0.folder(in: golden)) }, relabelled: relabelled,
            staleFolders: staleFolders)
    }

    /// A variant's golden folder to rename, because its label no longer says what it ran.
    ///
    /// Recorded on top of promoted variants (`goal-options=v3+program-draft=short` after
    /// promoting v3), it runs on the base now: it takes the label without the promoted
    /// names and drops the files of steps it no longer holds (those ran the promoted
    /// variants, whose files are the base's now).
    ///
    /// Recorded on the old base's prompts for a promoted step (`program-draft=v3` after
    /// promoting goal options kept as v5), it ran what is variant v5 now: it takes
    /// `goal-options=v5+…+program-draft=v3`, and copies the old base's files of the
    /// steps it now holds from the old base's folder, so it still replays as recorded.
    private struct Relabelling {
        let from: URL
        let to: URL
        let fromTrack: VariantTrack
        let track: VariantTrack
        /// The old base's folder, which holds every step the label gained.
        let oldBase: URL?

        func apply() throws {
            try FileManager.default.moveItem(at: from, to: to)
            for fixture in GoldenStore(folder: to).fixtureFolders() {
                let folder = to.appendingPathComponent(fixture, isDirectory: true)
                for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
                    guard let step = GoldenStore.step(ofFileNamed: name), !track.holds(step: step) else { continue }
                    try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
                }
                guard let oldBase else { continue }
                let source = oldBase.appendingPathComponent(fixture, isDirectory: true)
                let gained = (try? FileManager.default.contentsOfDirectory(atPath: source.path))?.filter { name in
                    guard let step = GoldenStore.step(ofFileNamed: name) else { return false }
                    return track.holds(step: step) && !fromTrack.holds(step: step)
                } ?? []
                try VariantPromotion.transfer(gained.sorted(), from: source, to: folder, moving: false)
            }
        }
    }

    /// The other variants' folders to rename, refused before anything is written when
    /// a new label is taken; and, when the old base is not kept, the folders left
    /// stale because they ran the old base's prompts for a promoted step.
    private func relabellingOtherVariants(in golden: URL, layout: ProjectLayout) throws -> (moves: [Relabelling], stale: [String]) {
        let parent = golden.appendingPathComponent(VariantTrack.folderName, isDirectory: true)
        let oldBase = oldBaseName.map { old in VariantSelection(steps: selection.steps.mapValues { _ in old }).track! }
        var moves: [Relabelling] = []
        var stale: [String] = []
        for label in ((try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []).sorted() {
            guard label != selection.track?.label, let steps = VariantSelection.steps(inLabel: label),
                  let fromTrack = VariantSelection(steps: steps).track
            else { continue }
            var relabelled = steps.filter { selection.steps[$0.key] != $0.value }
            let ranOldBase = selection.steps.keys.filter { steps[$0] == nil }
            if let oldBaseName {
                for step in ranOldBase { relabelled[step] = oldBaseName }
            } else if !ranOldBase.isEmpty {
                stale.append(layout.displayPath(of: parent.appendingPathComponent(label, isDirectory: true)))
            }
            guard relabelled != steps, let track = VariantSelection(steps: relabelled).track else { continue }
            let from = parent.appendingPathComponent(label, isDirectory: true)
            let to = track.folder(in: golden)
            guard !FileManager.default.fileExists(atPath: to.path) else {
                throw GoldenError.unwritable(
                    path: layout.displayPath(of: to),
                    reason: "it already exists, and \(layout.displayPath(of: from)) would be renamed to it; merge or remove one of them first")
            }
            let gainsSteps = oldBaseName != nil && !ranOldBase.isEmpty
            moves.append(Relabelling(from: from, to: to, fromTrack: fromTrack, track: track, oldBase: gainsSteps ? oldBase?.folder(in: golden) : nil))
        }
        return (moves, stale)
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
    fileprivate static func transfer(_ names: [String], from source: URL, to destination: URL, moving: Bool) throws {
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
