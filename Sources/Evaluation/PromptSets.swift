import Foundation
import Golden
import History
import Intake
import Pipeline
import Replay
import Reports
import Storage

/// The prompt sets kept beside the base, as `variants` lists them: what each
/// overrides, how its approved outputs compare with the base's (the paired verdict
/// `compare` gives), when it was last recorded, whether CI gates it, and whether
/// its recordings still answer what its prompts send today.
public struct PromptSets: Sendable {
    /// One selection `run --variant` can replay: a set named across its steps (`v3`),
    /// or a golden folder that mixes sets (`program-draft=v4.4 program-edit=v4.5`).
    public struct PromptSet: Sendable {
        /// How `--variant` spells it, as one line.
        public var name: String { arguments.joined(separator: " ") }
        public var arguments: [String]
        /// The variant each overridden step runs, in step order, with the files its folder holds.
        public var overrides: [Override]
        /// The golden folder (`golden/variants/<label>`), nil when nothing was ever approved or recorded for it.
        public var track: String?
        public var approvedSteps: Int
        /// Its approved outputs against the base's, over the fixture steps both approved; nil without any.
        public var verdict: PairedVerdict?
        /// The newest recording in its folder.
        public var lastRecorded: Date?
        /// The fixtures of the project its folder holds files for, and how many fixtures the project has:
        /// a person added after the set was recorded is not in it.
        public var fixtures: (recorded: [String], of: Int) = ([], 0)
        /// The entry in `prompts/kept-variants.yaml` that gates it.
        public var gated: KeptVariants.Entry?
        /// What a replay of its folder found; nil when not replayed (no folder, or not asked).
        public var recordings: Recordings?
        /// Why it cannot be replayed at all: a prompt folder it names is gone or broken.
        public var problem: String?
        /// For a set with no golden folder of its own, the listed selections that run it.
        public var runsWithin: [String] = []
    }

    public struct Override: Sendable, Hashable {
        public var step: PipelineStep
        public var variant: String
        public var files: [String]
    }

    /// A replay of a set's golden folder, as `run --ci --variant` makes it.
    public struct Recordings: Sendable, Hashable {
        /// Steps the folder holds that the replay reached.
        public var steps: Int
        /// Recordings that no longer answer what the prompts send.
        public var stale: Int
        /// Steps with no recording at all.
        public var missing: Int
        /// The replay's gate.
        public var gatePasses: Bool

        public var current: Bool { stale == 0 && missing == 0 }
    }

    public var sets: [PromptSet]

    /// Lists the project's sets; with `replaying`, each set's folder is replayed to
    /// find stale recordings (about a second a set). `onReplay` is told each set before its replay.
    public static func load(
        project: Project, replaying: Bool = true, onReplay: @Sendable (String) -> Void = { _ in }
    ) async throws -> PromptSets {
        let layout = project.layout
        let kept = try KeptVariants.load(layout: layout)
        let available = PromptVariants.all(layout: layout)
        var selections: [[String]] = []
        var seenLabels = Set<String>()
        for name in Set(available.values.joined()).sorted(by: Self.versionOrder) {
            let selection = try VariantSelection(resolving: [name], layout: layout)
            if let label = selection.track?.label, seenLabels.insert(label).inserted { selections.append([name]) }
        }
        for label in Self.trackLabels(in: layout) where !seenLabels.contains(label) {
            guard let steps = VariantSelection.steps(inLabel: label) else { continue }
            seenLabels.insert(label)
            selections.append(PipelineStep.allCases.compactMap { step in steps[step].map { "\(step.rawValue)=\($0)" } })
        }

        let baseRows = try RunComparison.goldenRows(store: GoldenStore(folder: layout.golden))
        let corpus = try project.corpus().fixtureNames()
        var sets: [PromptSet] = []
        for arguments in selections {
            var set = PromptSet(arguments: arguments, overrides: [], approvedSteps: 0)
            let steps: [PipelineStep: String]
            let label: String
            do {
                let selection = try VariantSelection(resolving: arguments, layout: layout)
                steps = selection.steps
                label = selection.track?.label ?? ""
            } catch {
                steps = VariantSelection.steps(inLabel: arguments.joined(separator: "+")) ?? [:]
                label = arguments.joined(separator: "+")
                set.problem = "its prompt folders are gone: \(error)"
            }
            set.overrides = PipelineStep.allCases.compactMap { step in
                steps[step].map { variant in
                    let folder = PromptVariants.folder(of: step, variant: variant, layout: layout)
                    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter { !$0.hasPrefix(".") }.sorted() ?? []
                    return Override(step: step, variant: variant, files: files)
                }
            }
            set.gated = kept.entry(forTrack: label)
            let folder = layout.golden.appendingPathComponent(VariantTrack.folderName).appendingPathComponent(label)
            if FileManager.default.fileExists(atPath: folder.path) {
                set.track = layout.displayPath(of: folder)
                let rows = try RunComparison.goldenRows(store: GoldenStore(folder: folder))
                set.approvedSteps = rows.count
                if !rows.isEmpty {
                    set.verdict = RunComparison(base: baseRows, head: rows, baseName: "base", headName: set.name).verdict
                }
                set.lastRecorded = Self.newestRecording(in: folder)
                set.fixtures = (Self.fixtures(in: folder, of: corpus), corpus.count)
                if replaying, set.problem == nil {
                    onReplay(set.name)
                    do {
                        set.recordings = try await Self.replay(
                            arguments, fixtures: set.fixtures.recorded, wholeSuite: set.fixtures.recorded.count == corpus.count, until: set.gated?.until,
                            project: project)
                    } catch {
                        set.problem = "its prompts cannot be used: \(error)"
                    }
                }
            }
            sets.append(set)
        }
        for index in sets.indices where sets[index].track == nil {
            let name = sets[index].name
            sets[index].runsWithin = sets.filter { other in other.track != nil && other.overrides.contains { $0.variant == name } && other.name != name }.map(\.name)
        }
        return PromptSets(sets: sets)
    }

    /// The `--variant` values of each set `prompts/kept-variants.yaml` gates, with a
    /// `--fixture` for each fixture its folder holds when that is not the whole suite:
    /// a person added since the set was recorded has nothing to replay on it.
    public static func gatedSelections(project: Project) throws -> [[String]] {
        let kept = try KeptVariants.load(layout: project.layout)
        let corpus = try project.corpus().fixtureNames()
        return kept.gated.map { entry in
            let arguments = entry.arguments.flatMap { ["--variant", $0] } + (entry.until.map { ["--until", $0.description] } ?? [])
            let folder = project.layout.golden.appendingPathComponent(VariantTrack.folderName).appendingPathComponent(entry.track)
            let recorded = fixtures(in: folder, of: corpus)
            return recorded.count == corpus.count ? arguments : arguments + recorded.flatMap { ["--fixture", $0] }
        }
    }

    /// The fixtures of `corpus` that `folder` holds files for.
    static func fixtures(in folder: URL, of corpus: [String]) -> [String] {
        let held = Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        return corpus.filter(held.contains)
    }

    /// The golden folders under `golden/variants/`.
    static func trackLabels(in layout: ProjectLayout) -> [String] {
        let parent = layout.golden.appendingPathComponent(VariantTrack.folderName)
        return ((try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// `v2` < `v4` < `v4.1` < `v4.10` < `markdown-model`: numbered sets in their order, then the rest by name.
    static func versionOrder(_ a: String, _ b: String) -> Bool {
        func parts(_ name: String) -> [Int]? {
            guard name.hasPrefix("v") else { return nil }
            let numbers = name.dropFirst().split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
            return numbers.contains(nil) ? nil : numbers.map { $0! }
        }
        switch (parts(a), parts(b)) {
        case let (x?, y?): return x.lexicographicallyPrecedes(y)
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return a < b
        }
    }

    private static func newestRecording(in folder: URL) -> Date? {
        let store = CassetteStore(folder: folder)
        return store.entries().compactMap { try? store.cassette($0)?.recordedAt }.max()
    }

    /// Replays the set's folder for the fixtures it was recorded for, as `run --ci
    /// --variant` does, writing nothing to the project but the step cache.
    private static func replay(
        _ arguments: [String], fixtures: [String], wholeSuite: Bool, until: StepSelector?, project: Project
    ) async throws -> Recordings {
        let prompts = try project.prompts(variants: arguments)
        guard let track = prompts.variants.track, !fixtures.isEmpty else { return Recordings(steps: 0, stale: 0, missing: 0, gatePasses: true) }
        let outcome = try await project.replayQuietly(
            prompts, fixtures: try project.corpus(readsParsesBack: true).load(names: fixtures), findsOrphans: wholeSuite, until: until)
        let held = outcome.golden.verdicts.filter { track.holds(step: $0.key.step) && $0.status != .skipped }
        let stale = held.filter { $0.status == .stale }
        let missing = stale.filter { $0.staleCauses == ["no recording"] }.count
        return Recordings(steps: held.count, stale: stale.count - missing, missing: missing, gatePasses: outcome.report.passes(.ci))
    }
}
