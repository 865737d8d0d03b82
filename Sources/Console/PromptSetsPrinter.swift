import Evaluation
import Foundation
import Golden
import Intake
import JSONSchema
import Reports

/// Prints `variants` (the prompt sets with their verdicts, gating and recordings)
/// and `retire`'s plan.
public struct PromptSetsPrinter {
    let terminal: Terminal

    public init(terminal: Terminal) {
        self.terminal = terminal
    }

    public func print(_ listing: PromptSets) {
        guard !listing.sets.isEmpty else {
            terminal.writeLine("The project has no prompt sets beside the base: add one as prompts/<step>/variants/<name>/.")
            return
        }
        let rows = listing.sets.map { set in
            [set.name, set.overrides.map(\.step.rawValue).joined(separator: ", "), Self.verdict(set), Self.date(set.lastRecorded),
             set.gated == nil ? "no" : "yes", Self.recordings(set)]
        }
        terminal.writeLine(TextTable(header: ["prompt set", "overrides", "approved, against the base's", "recorded", "gated", "recordings"], rows: rows).rendered)
        for set in listing.sets {
            if let problem = set.problem { terminal.writeLine(terminal.styled("warning:", .yellow) + " \(set.name): \(problem)") }
            if let entry = set.gated, let recordings = set.recordings, !recordings.gatePasses {
                terminal.writeLine(terminal.styled("warning:", .yellow) + " \(set.name) is gated (\(entry.source)) but its replay fails the gate")
            }
        }
        let retirable = listing.sets.filter { $0.gated == nil && $0.recordings.map { !$0.current } ?? false }
        terminal.writeLine("A set's approved outputs pass when valid with every check passing; the verdict pairs them with the base's, as `compare` does.")
        if !retirable.isEmpty {
            terminal.writeLine("Stale and not gated: \(retirable.map(\.name).joined(separator: ", ")). Re-record one, or retire it: `\(Invocation.command) retire NAME --dry-run`.")
        }
    }

    public func json(_ listing: PromptSets) -> String {
        let sets: [JSONValue] = listing.sets.map { set in
            var object = JSONObject()
            object["name"] = .string(set.name)
            object["variant_arguments"] = .array(set.arguments.map(JSONValue.string))
            object["overrides"] = .array(set.overrides.map { override -> JSONValue in
                ["step": .string(override.step.rawValue), "variant": .string(override.variant), "files": .array(override.files.map(JSONValue.string))]
            })
            object["approved_steps"] = .number(Double(set.approvedSteps))
            object["gated"] = set.gated.map { .string($0.source) } ?? .bool(false)
            if let track = set.track {
                object["golden_folder"] = .string(track)
                object["recorded_fixtures"] = .number(Double(set.fixtures.recorded.count))
                object["fixtures"] = .number(Double(set.fixtures.of))
            }
            if let date = set.lastRecorded { object["last_recorded"] = .string(Self.date(date)) }
            if let verdict = set.verdict {
                object["against_base"] = [
                    "verdict": .string(verdict.verdict.rawValue), "pairs": .number(Double(verdict.pairs)),
                    "base_pass": .number(Double(verdict.aPass)), "set_pass": .number(Double(verdict.bPass)), "p_value": .number(verdict.pValue),
                ]
            }
            if let recordings = set.recordings {
                object["recordings"] = [
                    "steps": .number(Double(recordings.steps)), "stale": .number(Double(recordings.stale)),
                    "missing": .number(Double(recordings.missing)), "gate_passes": .bool(recordings.gatePasses),
                ]
            }
            if let problem = set.problem { object["problem"] = .string(problem) }
            if !set.runsWithin.isEmpty { object["runs_within"] = .array(set.runsWithin.map(JSONValue.string)) }
            return .object(object)
        }
        let listing: JSONValue = ["sets": .array(sets)]
        return listing.serialized(.compact)
    }

    /// `retire`'s plan: what goes, and what stops it.
    public func print(_ retirement: PromptSetRetirement, dryRun: Bool) {
        let folders = retirement.promptFolders + retirement.goldenFolders
        let verb = dryRun || !retirement.canApply ? "would remove" : "removed"
        terminal.writeLine("Retiring `\(retirement.name)` \(verb):")
        for folder in folders {
            terminal.writeLine("  \(folder.path)/ (\(folder.files) file\(folder.files == 1 ? "" : "s"))")
        }
        if !retirement.canApply { return }
        if dryRun {
            terminal.writeLine("Dry run: nothing was removed. Run it without --dry-run to retire the set.")
        } else {
            terminal.writeLine("git keeps them: commit the removal; `git log -- \(folders.first?.path ?? "prompts")` finds them again.")
        }
    }

    static func verdict(_ set: PromptSets.PromptSet) -> String {
        guard let verdict = set.verdict else {
            if !set.runsWithin.isEmpty { return "runs within \(set.runsWithin.joined(separator: "; "))" }
            return set.approvedSteps == 0 ? "nothing approved" : "no step in common"
        }
        let p = verdict.pValue < 0.001 ? "p < 0.001" : String(format: "p = %.3f", verdict.pValue)
        return "\(verdict.verdict.rawValue): \(verdict.bPass) vs \(verdict.aPass) of \(verdict.pairs) pass (\(p))"
    }

    static func recordings(_ set: PromptSets.PromptSet) -> String {
        guard let recordings = set.recordings else { return set.problem == nil ? "-" : "cannot replay" }
        let fixtures = set.fixtures.recorded.count < set.fixtures.of ? ", \(set.fixtures.recorded.count) of \(set.fixtures.of) fixtures" : ""
        if recordings.current { return "current (\(recordings.steps) steps\(fixtures))" }
        let never = recordings.missing > 0 ? " (\(recordings.missing) never recorded)" : ""
        return "\(recordings.stale + recordings.missing) stale of \(recordings.steps) steps\(never)\(fixtures)"
    }

    /// `2026-11-25` in UTC, as labels date themselves; `-` for none.
    static func date(_ date: Date?) -> String {
        date.map(ReviewLabels.today) ?? "-"
    }
}
