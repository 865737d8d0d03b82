import Foundation

/// Where a run with prompt variants keeps its golden files.
///
/// A variant changes what its step sends, and so the input of every step after
/// it: from the first step that runs a variant on, a fixture's approved outputs
/// and recordings live under `golden/variants/<label>/<fixture>/`. Steps before
/// it send exactly what the base prompts send and share the base files.
public struct VariantTrack: Sendable, Hashable {
    /// Names the folder: each step's variant, `goal-options=terse+program-draft=short`.
    public let label: String
    /// The first step that runs a variant.
    public let firstStep: PipelineStep

    public init(label: String, firstStep: PipelineStep) {
        self.label = label
        self.firstStep = firstStep
    }

    /// The folder under `golden/` that holds every variant's files.
    public static let folderName = "variants"

    /// Whether `step` (as golden files spell it, `goal-options-edit-2`) keeps its files in the variant's folder.
    public func holds(step: String) -> Bool {
        guard let id = StepID(step) else { return false }
        return id.order.stage >= StepID.first(of: firstStep).order.stage
    }

    /// The variant's folder inside `golden`.
    public func folder(in golden: URL) -> URL {
        golden.appendingPathComponent(Self.folderName, isDirectory: true).appendingPathComponent(label, isDirectory: true)
    }
}

extension StepID {
    /// The first step id that runs `step`.
    static func first(of step: PipelineStep) -> StepID {
        step.traits.firstID
    }
}

/// The folders under `golden/` that belong to no fixture, so no fixture may take their names.
public enum ReservedGoldenFolder {
    /// The recorded verdicts of the model-graded rubrics: `golden/judges/<rubric>/`.
    public static let judges = "judges"

    /// Every reserved name, with what the folder holds.
    public static let all: [String: String] = [
        VariantTrack.folderName: "the prompt variants' files",
        judges: "the rubrics' recorded verdicts",
    ]
}
