import Golden
import Intake
import Pipeline

/// What `promote` did: each prompt's new version and files, the golden files that moved,
/// what still needs recording, and where the old base went.
public struct PromotionPrinter {
    let out: Terminal

    public init(out: Terminal = .standardOutput) {
        self.out = out
    }

    public func print(_ outcome: VariantPromotion.Outcome, selection: VariantSelection, keptBaseAs old: String?) {
        for (step, prompt) in outcome.prompts {
            out.writeLine("promoted \(step.rawValue) variant \(selection.steps[step] ?? "?"): v\(prompt.oldVersion) → v\(prompt.newVersion)")
            for file in prompt.changedFiles { out.writeLine("  \(file)") }
        }
        let promoted = outcome.promotedSteps.count
        if promoted > 0 {
            out.writeLine("\(promoted) fixture step\(promoted == 1 ? "" : "s") of approved outputs and recordings moved into golden/.")
        }
        if promoted == 0 || !outcome.staleSteps.isEmpty {
            let count = outcome.staleSteps.count
            let what = promoted == 0
                ? "The variant had no recordings"
                : "\(count) fixture step\(count == 1 ? "" : "s") the variant never recorded keep\(count == 1 ? "s" : "") the old base's files, stale now"
            out.writeLine("\(what): re-record them with `\(Invocation.command) run --provider local --record-missing`, then review with `\(Invocation.command) diff`.")
        }
        if let folder = outcome.oldBaseFolder, let old, let firstStep = selection.steps.keys.first {
            let spelled = selection.steps.count == 1 ? "\(firstStep.rawValue)=\(old)" : old
            out.writeLine("The old base is variant \(old): \(outcome.keptSteps.count) fixture steps kept in \(folder)/ (`\(Invocation.command) run --variant \(spelled)`).")
        }
        for (from, to, ranOldBase) in outcome.relabelled {
            let why = ranOldBase
                ? "ran the old base's prompts, which are variant \(old ?? "") now: renamed \(to)/, with the old base's files of the steps it now holds"
                : "ran on the promoted variants, which are the base now: renamed \(to)/"
            out.writeLine("\(from)/ \(why).")
        }
        if !outcome.relabelled.isEmpty {
            out.writeLine("A renamed folder's variant selection changed with its name: update prompts/kept-variants.yaml where it gates one.")
        }
        for folder in outcome.staleFolders {
            out.writeLine("\(folder)/ ran the old base's prompts for a promoted step, and the old base was not kept: its recordings are stale until re-recorded.")
        }
    }
}
