import Foundation
import Intake
import Testing

@Suite("Shards and merge", .serialized)
struct ShardTests {
    /// A copy of the whole project: every fixture, prompt and golden file.
    static func makeProject() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("shards-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for folder in ["prompts", "fixtures", "golden"] {
            try FileManager.default.copyItem(
                at: CommandRunner.repositoryRoot.appendingPathComponent(folder), to: root.appendingPathComponent(folder))
        }
        return root
    }

    /// The fixtures the project holds, as `run` counts them: one record each.
    static func fixtureCount(_ project: URL) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: project.appendingPathComponent("fixtures").path).filter { $0.hasSuffix(".json") }.count
    }

    /// Per fixture step: outcome, golden status and failed checks; and the run's gate.
    struct Verdicts: Equatable {
        var steps: [String: String]
        var statuses: [String: Int]
        var passesGate: Bool

        init(_ folder: URL) throws {
            let results = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("results.json"))) as? [String: Any])
            var steps: [String: String] = [:]
            for fixture in results["fixtures"] as? [[String: Any]] ?? [] {
                for step in fixture["steps"] as? [[String: Any]] ?? [] {
                    let failed = (step["checks"] as? [[String: Any]] ?? []).filter { $0["passed"] as? Bool == false }.compactMap { $0["name"] as? String }
                    steps["\(fixture["name"]!)/\(step["id"]!)"] = "\(step["outcome"]!) \(step["status"]!) \(failed.sorted())"
                }
            }
            let totals = results["totals"] as? [String: Any] ?? [:]
            self.steps = steps
            statuses = totals["statuses"] as? [String: Int] ?? [:]
            passesGate = totals["passesGate"] as? Bool ?? false
        }
    }

    static func latest(_ project: URL) throws -> URL {
        let reports = project.appendingPathComponent("Reports")
        return reports.appendingPathComponent(try FileManager.default.destinationOfSymbolicLink(atPath: reports.appendingPathComponent("latest").path))
    }

    /// Runs the gate whole, then as three shards merged; returns both exit statuses and verdicts.
    static func wholeAndMerged(_ project: URL) throws -> (whole: (Int32, Verdicts), merged: (Int32, Verdicts), shards: [URL]) {
        let scope = ["--project", project.path]
        let fixtures = try fixtureCount(project)
        let whole = try CommandRunner.run(["run", "--ci"] + scope)
        let wholeVerdicts = try Verdicts(latest(project))
        var shards: [URL] = []
        for index in 1...3 {
            let shard = try CommandRunner.run(["run", "--ci", "--shard", "\(index)/3"] + scope)
            #expect(shard.standardError.contains("(shard \(index)/3 of \(fixtures))"), "\(shard.standardError)")
            shards.append(try latest(project))
        }
        let merge = try CommandRunner.run(["merge"] + shards.map(\.path) + scope)
        #expect(merge.standardOutput.contains("Merged 3 runs: \(fixtures) fixtures"), "\(merge.standardOutput)\(merge.standardError)")
        return ((whole.status, wholeVerdicts), (merge.status, try Verdicts(latest(project))), shards)
    }

    @Test func threeShardsMergedGiveTheWholeRunsOutcomesAndGate() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let (whole, merged, shards) = try Self.wholeAndMerged(project)
        #expect(whole.0 == 0)
        #expect(merged.0 == 0)
        #expect(merged.1 == whole.1)
        #expect(whole.1.steps.count > 100)

        // Every fixture ran in exactly one shard, and the sizes differ by one at most.
        var sizes: [Int] = []
        var seen: Set<String> = []
        for shard in shards {
            let fixtures = Set(try Verdicts(shard).steps.keys.map { String($0.split(separator: "/")[0]) })
            #expect(seen.isDisjoint(with: fixtures))
            seen.formUnion(fixtures)
            sizes.append(fixtures.count)
        }
        #expect(seen.count == (try Self.fixtureCount(project)))
        #expect(sizes.max()! - sizes.min()! <= 1)

        // One history row for the merged run, which names its shards.
        let results = try String(contentsOf: Self.latest(project).appendingPathComponent("results.json"), encoding: .utf8)
        #expect(results.contains("\"mergedFrom\""))
        for name in ["report.md", "index.html", "junit.xml"] {
            #expect(try FileManager.default.fileExists(atPath: Self.latest(project).appendingPathComponent(name).path))
        }
        let history = try CommandRunner.run(["history", "--project", project.path])
        #expect(history.standardOutput.contains("-replay-merged"), "\(history.standardOutput)")
    }

    @Test func aRegressionInOneShardFailsTheMergedGateAsItFailsTheWholeRun() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        // An approved option summary that the recording no longer produces.
        let approved = project.appendingPathComponent("golden/busy-parent/goal-options.json")
        let text = try String(contentsOf: approved, encoding: .utf8)
        let edited = text.replacingOccurrences(of: "\"summary\": \"", with: "\"summary\": \"Approved: ", options: [], range: text.range(of: "\"summary\": \""))
        #expect(edited != text)
        try edited.write(to: approved, atomically: true, encoding: .utf8)

        let (whole, merged, _) = try Self.wholeAndMerged(project)
        #expect(whole.0 == 1)
        #expect(merged.0 == 1)
        #expect(merged.1 == whole.1)
        #expect(!merged.1.passesGate)
    }

    @Test func runsThatAreNotShardsOfOneRunAreRefusedUnlessForced() throws {
        let project = try Self.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let scope = ["--project", project.path]
        _ = try CommandRunner.run(["run", "--ci", "--shard", "1/3"] + scope)
        let first = try Self.latest(project)
        _ = try CommandRunner.run(["run", "--ci", "--shard", "1/3"] + scope)
        let again = try Self.latest(project)
        let system = project.appendingPathComponent("prompts/goal-options/system.md")
        try (try String(contentsOf: system, encoding: .utf8) + "\nBe brief.\n").write(to: system, atomically: true, encoding: .utf8)
        _ = try CommandRunner.run(["run", "--ci", "--shard", "2/3"] + scope)
        let edited = try Self.latest(project)

        let refused = try CommandRunner.run(["merge", first.path, again.path, edited.path] + scope)
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("different prompt fingerprints of goal-options"), "\(refused.standardError)")
        #expect(refused.standardError.contains("fixtures are in both"))
        #expect(refused.standardError.contains("shard 3/3 missing"))
        #expect(refused.standardError.contains("--force"))

        let forced = try CommandRunner.run(["merge", "--force", first.path, edited.path] + scope)
        #expect(forced.status == 1, "merged, but its stale recordings fail the gate: \(forced.standardOutput)\(forced.standardError)")
        let results = try String(contentsOf: Self.latest(project).appendingPathComponent("results.json"), encoding: .utf8)
        #expect(results.contains("merged with --force despite different prompt fingerprints of goal-options"))

        // Shards of different scopes (here: one stopped after goal options) cover different suites.
        try FileManager.default.removeItem(at: project.appendingPathComponent("prompts"))
        try FileManager.default.copyItem(at: CommandRunner.repositoryRoot.appendingPathComponent("prompts"), to: project.appendingPathComponent("prompts"))
        _ = try CommandRunner.run(["run", "--ci", "--shard", "2/2", "--until", "goal-options"] + scope)
        let partial = try Self.latest(project)
        _ = try CommandRunner.run(["run", "--ci", "--shard", "1/2"] + scope)
        let scoped = try CommandRunner.run(["merge", try Self.latest(project).path, partial.path] + scope)
        #expect(scoped.status == 2)
        #expect(scoped.standardError.contains("different scopes"), "\(scoped.standardError)")
        #expect(scoped.standardError.contains("until goal-options"))

        let missing = try CommandRunner.run(["merge", "Reports/no-such-run"] + scope)
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("is not a run"))
    }

    @Test func aShardIsKOfN() throws {
        #expect(try Shard(parsing: "2/3") == Shard(index: 2, count: 3))
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "-1/2", "1/3/4"] {
            #expect(throws: ShardError.self) { try Shard(parsing: bad) }
        }
        let names = ["e", "a", "d", "b", "c"]
        #expect(try Shard(index: 1, count: 2).select(names) == ["a", "c", "e"])
        #expect(try Shard(index: 2, count: 2).select(names) == ["b", "d"])
        #expect(try Shard(index: 3, count: 3).select(names) == ["c"])
        // A fixture no longer in the list has its orphans reported by shard 1 alone.
        #expect(try Shard(index: 1, count: 2).reportsOrphans(of: "gone", fixtureNames: names))
        #expect(try !Shard(index: 2, count: 2).reportsOrphans(of: "gone", fixtureNames: names))
        #expect(try Shard(index: 2, count: 2).reportsOrphans(of: "b", fixtureNames: names))
    }

    @Test func aBadShardIsAUsageError() throws {
        let outcome = try CommandRunner.run(["run", "--shard", "4/3"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("`4/3` is not a shard"), "\(outcome.standardError)")
    }
}
