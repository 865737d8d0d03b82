import Foundation
import Testing

/// `variants` and `retire`: the prompt sets beside the base, listed with what a
/// maintainer needs to decide, and removed in one step without breaking the gate or a link.
@Suite("Prompt sets: variants and retire", .serialized)
struct PromptSetTests {
    /// The real prompts with two fixtures and their base golden files (the goal steps'
    /// prompts of set v5, as `RunCommandTests.makeProject(withGoldenOf:)` makes them),
    /// v3's golden folder and the mixed `program-draft=v4.4 program-edit=v4.5` one for
    /// both, and a set `old`: v3's program prompts under another name, recorded for
    /// busy-parent only. CI gates `v3` and the mixed selection.
    static func makeProject() throws -> URL {
        let project = try RunCommandTests.makeProject(withGoldenOf: ["busy-parent", "minimal-record"])
        let fixtures = ["busy-parent", "minimal-record"]
        try RunCommandTests.copyProgramTrack("program-draft=v3+program-edit=v3", into: project, fixtures: fixtures)
        try RunCommandTests.copyProgramTrack("program-draft=v4.4+program-edit=v4.5", into: project, fixtures: fixtures)
        try RunCommandTests.copyProgramTrack("program-draft=v3+program-edit=v3", as: "program-draft=old+program-edit=old", into: project, fixtures: ["busy-parent"])
        for step in ["program-draft", "program-edit"] {
            try FileManager.default.copyItem(
                at: project.appendingPathComponent("prompts/\(step)/variants/v3"), to: project.appendingPathComponent("prompts/\(step)/variants/old"))
        }
        try write("gated:\n  - v3\n  - program-draft=v4.4 program-edit=v4.5\n", to: "prompts/kept-variants.yaml", in: project)
        return project
    }

    static func write(_ text: String, to path: String, in project: URL) throws {
        let url = project.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    static func exists(_ path: String, in project: URL) -> Bool {
        FileManager.default.fileExists(atPath: project.appendingPathComponent(path).path)
    }

    static func sets(_ project: URL) throws -> [String: [String: Any]] {
        let outcome = try CommandRunner.run(["variants", "--format", "json", "--project", project.path])
        #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any]
        let sets = object?["sets"] as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: sets.map { ($0["name"] as? String ?? "", $0) })
    }

    @Test func variantsListsEachSetWithItsOverridesVerdictGatingAndRecordings() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }

        var sets = try Self.sets(project)
        let v3 = try #require(sets["v3"])
        #expect((v3["overrides"] as? [[String: Any]])?.compactMap { $0["step"] as? String } == ["program-draft", "program-edit"])
        #expect((v3["gated"] as? String)?.hasPrefix("prompts/kept-variants.yaml:") == true, "\(v3)")
        #expect(v3["golden_folder"] as? String == "golden/variants/program-draft=v3+program-edit=v3")
        #expect(v3["approved_steps"] as? Int == 4)
        let verdict = try #require(v3["against_base"] as? [String: Any])
        #expect(verdict["pairs"] as? Int == 4, "the two fixtures' draft and edit, paired with the base's")
        #expect(v3["last_recorded"] as? String == "2026-11-25")
        let recordings = try #require(v3["recordings"] as? [String: Any])
        #expect(recordings["stale"] as? Int == 0 && recordings["missing"] as? Int == 0, "\(recordings)")
        #expect(recordings["gate_passes"] as? Bool == true)

        let mixed = try #require(sets["program-draft=v4.4 program-edit=v4.5"], "a golden folder that mixes sets is listed too")
        #expect(mixed["gated"] is String)
        let old = try #require(sets["old"])
        #expect(old["gated"] as? Bool == false)
        let oldRecordings = try #require(old["recordings"] as? [String: Any])
        #expect(oldRecordings["stale"] as? Int == 0 && oldRecordings["missing"] as? Int == 0, "replayed for the fixture it was recorded for: \(oldRecordings)")
        #expect(old["recorded_fixtures"] as? Int == 1 && old["fixtures"] as? Int == 2)
        #expect(sets["v4.5"]?["golden_folder"] == nil, "v4.5 alone was never run")

        // An edited prompt makes the set's recordings stale.
        for set in ["v3", "old"] {
            let system = project.appendingPathComponent("prompts/program-draft/variants/\(set)/system.md")
            try (String(contentsOf: system, encoding: .utf8) + "\nName every exercise in full.\n").write(to: system, atomically: true, encoding: .utf8)
        }
        sets = try Self.sets(project)
        #expect((sets["v3"]?["recordings"] as? [String: Any])?["stale"] as? Int ?? 0 > 0, "\(sets["v3"] ?? [:])")

        let text = try CommandRunner.run(["variants", "--project", project.path])
        #expect(text.status == 0)
        #expect(text.standardOutput.contains("prompt set"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("warning: v3 is gated (prompts/kept-variants.yaml:2) but its replay fails the gate"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("Stale and not gated: old"), "\(text.standardOutput)")
    }

    @Test func selectionsAreWhatTheGateScriptReplays() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let outcome = try CommandRunner.run(["variants", "--format", "selections", "--project", project.path])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == "--variant v3\n--variant program-draft=v4.4 --variant program-edit=v4.5\n")

        // A person added after the sets were recorded is left out of their gates, by name.
        for ext in ["json", "yaml"] {
            try FileManager.default.copyItem(
                at: CommandRunner.repositoryRoot.appendingPathComponent("fixtures/spanish-speaker.\(ext)"),
                to: project.appendingPathComponent("fixtures/spanish-speaker.\(ext)"))
        }
        let scoped = try CommandRunner.run(["variants", "--format", "selections", "--project", project.path])
        #expect(scoped.standardOutput.hasPrefix("--variant v3 --fixture busy-parent --fixture minimal-record\n"), "\(scoped.standardOutput)")
        let gate = try CommandRunner.run(["run", "--ci", "--project", project.path] + scoped.standardOutput.split(separator: "\n")[0].split(separator: " ").map(String.init))
        #expect(gate.status == 0, "\(gate.standardOutput)")
        let script = try String(contentsOf: CommandRunner.repositoryRoot.appendingPathComponent("scripts/gate-kept-variants"), encoding: .utf8)
        #expect(script.contains("variants --format selections"), "the script reads the list, it does not keep its own")
    }

    @Test func aSetRecordedOnTheGoalStepsAloneIsGatedUntilItsLastStep() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        // Set v6 of the goal steps, recorded on them alone: the real base's goal prompts and recordings.
        for step in ["goal-options", "goal-options-edit"] {
            let variant = project.appendingPathComponent("prompts/\(step)/variants/v6")
            try FileManager.default.createDirectory(at: variant, withIntermediateDirectories: true)
            for file in ["system.md", "user.mustache", "prompt.yaml"] {
                try FileManager.default.copyItem(
                    at: CommandRunner.repositoryRoot.appendingPathComponent("prompts/\(step)/\(file)"), to: variant.appendingPathComponent(file))
            }
        }
        let folder = project.appendingPathComponent("golden/variants/goal-options=v6+goal-options-edit=v6")
        for fixture in ["busy-parent", "minimal-record"] {
            let source = CommandRunner.repositoryRoot.appendingPathComponent("golden/\(fixture)")
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(fixture), withIntermediateDirectories: true)
            for name in try FileManager.default.contentsOfDirectory(atPath: source.path) where name.hasPrefix("goal-options") {
                try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: folder.appendingPathComponent("\(fixture)/\(name)"))
            }
        }
        try Self.write("gated:\n  - v3\n  - {variants: v6, until: goal-options-edit}\n", to: "prompts/kept-variants.yaml", in: project)
        let outcome = try CommandRunner.run(["variants", "--format", "selections", "--project", project.path])
        #expect(outcome.standardOutput.hasSuffix("--variant v6 --until goal-options-edit\n"), "\(outcome.standardOutput)")
        let arguments = outcome.standardOutput.split(separator: "\n").last.map { $0.split(separator: " ").map(String.init) } ?? []
        let gate = try CommandRunner.run(["run", "--ci", "--project", project.path] + arguments)
        #expect(gate.status == 0, "its program steps were never recorded, and the gate stops before them: \(gate.standardOutput)")
        let v6 = try #require(try Self.sets(project)["v6"])
        let recordings = try #require(v6["recordings"] as? [String: Any])
        #expect(recordings["missing"] as? Int == 0 && recordings["gate_passes"] as? Bool == true, "\(recordings)")

        try Self.write("gated:\n  - {variants: v6, until: program-drafts}\n", to: "prompts/kept-variants.yaml", in: project)
        let broken = try CommandRunner.run(["variants", "--no-replay", "--project", project.path])
        #expect(broken.status == 2)
        #expect(broken.standardError.contains("line 2: /gated/0/until:") && broken.standardError.contains("program-draft"), "\(broken.standardError)")
    }

    @Test func aBrokenListOfKeptVariantsIsNamedByFileLineAndField() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        try Self.write("gated:\n  - v3\n  - v9\n", to: "prompts/kept-variants.yaml", in: project)
        let outcome = try CommandRunner.run(["variants", "--no-replay", "--project", project.path])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("prompts/kept-variants.yaml cannot be used: line 3: /gated/1: --variant v9: no step has a variant `v9`"), "\(outcome.standardError)")

        try Self.write("gated: v3\n", to: "prompts/kept-variants.yaml", in: project)
        let notAList = try CommandRunner.run(["variants", "--format", "selections", "--project", project.path])
        #expect(notAList.status == 2)
        #expect(notAList.standardError.contains("/gated: expected a list of --variant selections, got string"), "\(notAList.standardError)")
    }

    @Test func retireRemovesASetsPromptAndGoldenFoldersAfterADryRun() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let folders = ["prompts/program-draft/variants/old", "prompts/program-edit/variants/old", "golden/variants/program-draft=old+program-edit=old"]

        let dryRun = try CommandRunner.run(["retire", "old", "--dry-run", "--project", project.path])
        #expect(dryRun.status == 0, "\(dryRun.standardOutput)\(dryRun.standardError)")
        for folder in folders {
            #expect(dryRun.standardOutput.contains("  \(folder)/ ("), "\(dryRun.standardOutput)")
            #expect(Self.exists(folder, in: project), "a dry run removes nothing")
        }
        #expect(dryRun.standardOutput.contains("Dry run: nothing was removed"))

        let retired = try CommandRunner.run(["retire", "old", "--project", project.path])
        #expect(retired.status == 0, "\(retired.standardOutput)\(retired.standardError)")
        for folder in folders { #expect(!Self.exists(folder, in: project)) }
        #expect(Self.exists("prompts/program-draft/variants/v3", in: project), "other sets stay")
        #expect(Self.exists("golden/variants/program-draft=v3+program-edit=v3", in: project))
        #expect(!((try? FileManager.default.contentsOfDirectory(atPath: project.path)) ?? []).contains { $0.hasPrefix(".retiring") })
        #expect(try Self.sets(project)["old"] == nil)
        let gate = try CommandRunner.run(["run", "--ci", "--variant", "v3", "--project", project.path])
        #expect(gate.status == 0, "the kept sets still replay: \(gate.standardOutput)")
    }

    @Test func retireRefusesAnUnknownAGatedOrACitedSetAndSaysWhatToChange() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }

        let unknown = try CommandRunner.run(["retire", "olt", "--project", project.path])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("No prompt set is named `olt`. Did you mean `old`?"), "\(unknown.standardError)")

        let gated = try CommandRunner.run(["retire", "v3", "--project", project.path])
        #expect(gated.status == 1)
        #expect(gated.standardError.contains("CI gates `--variant v3` (prompts/kept-variants.yaml:2): take it out of the list first"), "\(gated.standardError)")
        #expect(Self.exists("prompts/program-draft/variants/v3", in: project))
        #expect(Self.exists("golden/variants/program-draft=v3+program-edit=v3", in: project))

        // v4.5 runs only in the mixed selection, which is gated.
        let mixed = try CommandRunner.run(["retire", "v4.5", "--dry-run", "--project", project.path])
        #expect(mixed.status == 1)
        #expect(mixed.standardError.contains("CI gates `--variant program-draft=v4.4 --variant program-edit=v4.5`"), "\(mixed.standardError)")

        try Self.write("Set old's notes: [system](../prompts/program-draft/variants/old/system.md).\n", to: "docs/notes.md", in: project)
        let cited = try CommandRunner.run(["retire", "old", "--project", project.path])
        #expect(cited.status == 1)
        #expect(cited.standardError.contains("docs/notes.md:1 links to prompts/program-draft/variants/old: change the document first"), "\(cited.standardError)")
        #expect(Self.exists("prompts/program-draft/variants/old", in: project))

        try Self.write("Set old was retired; see prompts/program-draft/variants/old.2/ and prompts/program-draft/variants/older.\n", to: "docs/notes.md", in: project)
        let uncited = try CommandRunner.run(["retire", "old", "--project", project.path])
        #expect(uncited.status == 0, "a longer name that starts the same is not a citation: \(uncited.standardError)")
    }
}
