import Foundation
import Intake
import Testing

/// A large replay (more steps than `index.html` shows in full) reads back whole each
/// fixture that nothing has changed for, and its report is the one a run that works
/// every step out writes. Checked on 81 copies of `busy-parent` with its golden files:
/// 405 steps, each copy's known failures as committed (the goal steps' prompts of set
/// v5 and the golden files recorded with them).
@Suite("Reading a large replay's fixtures back whole")
struct SettledFixturesTests {
    static let copies = 81
    let project: URL

    init() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("settled-\(UUID().uuidString)")
        let files = FileManager.default
        let repository = CommandRunner.repositoryRoot
        try files.createDirectory(at: root.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
        try files.copyItem(at: repository.appendingPathComponent("prompts"), to: root.appendingPathComponent("prompts"))
        try RunCommandTests.pinGoalPromptsToV5(in: root)
        for index in 0..<Self.copies {
            let name = Self.fixture(index)
            for ext in ["json", "yaml"] {
                try files.copyItem(
                    at: repository.appendingPathComponent("fixtures/busy-parent.\(ext)"), to: root.appendingPathComponent("fixtures/\(name).\(ext)"))
            }
            try files.copyItem(
                at: repository.appendingPathComponent("golden/\(RunCommandTests.goalPromptsV5Golden)/busy-parent"),
                to: root.appendingPathComponent("golden/\(name)"))
        }
        project = root
    }

    static func fixture(_ index: Int) -> String { String(format: "busy-parent-%02d", index) }

    func run(_ extra: [String] = []) throws -> CommandRunner.Outcome {
        try CommandRunner.run(["run", "--ci", "--project", project.path] + extra)
    }

    /// The latest report's file, with what differs from run to run (its id, times, duration) taken out.
    func latest(_ name: String) throws -> String {
        let text = try String(contentsOf: project.appendingPathComponent("Reports/latest/\(name)"), encoding: .utf8)
        return text.replacingOccurrences(of: #"[0-9]{8}-[0-9]{6}-replay(-[0-9]+)?"#, with: "RUN", options: .regularExpression)
            .replacingOccurrences(of: #"time="[0-9.]+""#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #"· [0-9.]+ s ·"#, with: "", options: .regularExpression)
    }

    /// `results.json` without its `run` member, which names the run; every fixture's line is kept as written.
    func latestResults() throws -> [Substring] {
        let text = try String(contentsOf: project.appendingPathComponent("Reports/latest/results.json"), encoding: .utf8)
        let lines = text.split(separator: "\n")
        let last = try #require(lines.last)
        let run = try #require(last.range(of: #""run":"#))
        let totals = try #require(last.range(of: #","totals":"#))
        return Array(lines.dropLast()) + [last[..<run.lowerBound], last[totals.lowerBound...]]
    }

    /// The fixtures' sections of the latest `index.html` (its charts show the runs before it).
    func latestFixtureSections() throws -> Substring {
        let page = try latest("index.html")
        let start = try #require(page.range(of: "<main>")), end = try #require(page.range(of: "</main>"))
        return page[start.lowerBound..<end.upperBound]
    }

    /// Each settled file's modification time, by name: a fixture read back leaves its file as it was.
    func settledFileTimes() throws -> [String: Date] {
        let folder = project.appendingPathComponent(".step-cache/base/settled")
        return try Dictionary(uniqueKeysWithValues: settledFiles().map { name in
            (name, try #require(FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.modificationDate] as? Date))
        })
    }

    func settledFiles() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: project.appendingPathComponent(".step-cache/base/settled").path))?.sorted() ?? []
    }

    @Test func anUnchangedFixtureIsReadBackWholeAndTheReportIsTheSame() throws {
        defer { try? FileManager.default.removeItem(at: project) }
        let fresh = try run(["--no-cache"])
        #expect(fresh.status == 0, "\(fresh.standardOutput)\(fresh.standardError)")
        #expect(settledFiles().isEmpty, "--no-cache keeps nothing")
        let expected = try (results: latestResults(), junit: latest("junit.xml"), markdown: latest("report.md"), html: latestFixtureSections())

        let keeping = try run()
        #expect(keeping.status == 0)
        #expect(settledFiles() == (0..<Self.copies).map { Self.fixture($0) + ".json" })
        #expect(try latestResults() == expected.results)

        let readBack = try run()
        #expect(readBack.status == 0, "\(readBack.standardOutput)\(readBack.standardError)")
        #expect(readBack.standardOutput.contains("324 of 324 replayed steps read back from .step-cache/"))
        #expect(readBack.standardOutput.contains("gate passes · 405 steps: known failure 324 · pass 81"))
        #expect(try latestResults() == expected.results, "every fixture's results.json text is the same, byte for byte")
        #expect(try latest("junit.xml") == expected.junit)
        #expect(try latest("report.md") == expected.markdown)
        #expect(try latestFixtureSections() == expected.html)

        // Under --ci each fixture is kept as soon as it is judged; a run that may write
        // pending files keeps them when it ends, with the same report.
        try FileManager.default.removeItem(at: project.appendingPathComponent(".step-cache/base/settled"))
        let plain = try CommandRunner.run(["run", "--project", project.path])
        #expect(plain.status == 0, "\(plain.standardOutput)\(plain.standardError)")
        #expect(settledFiles().count == Self.copies)
        #expect(try latestResults() == expected.results)
        #expect(try latest("junit.xml") == expected.junit)
    }

    /// A fixture whose golden files change is judged again; a step that needs attention
    /// is shown in full and its fixture is not kept; the others are still read back.
    /// The files are left to settle first, so that the first run remembers their
    /// digests (`.step-cache/file-digests.tsv`), and the change keeps the file's size and inode.
    @Test func aChangedGoldenFileJudgesItsFixtureAgain() throws {
        defer { try? FileManager.default.removeItem(at: project) }
        Thread.sleep(forTimeInterval: Double(FileDigests.settlingNanoseconds) / 1e9 + 0.1)
        #expect(try run().status == 0)
        let changed = Self.fixture(7)
        let checksFile = project.appendingPathComponent("golden/\(changed)/goal-options.checks.json")
        let memo = try String(contentsOf: project.appendingPathComponent(".step-cache/file-digests.tsv"), encoding: .utf8)
        #expect(memo.contains(checksFile.path), "the settled golden files' digests are remembered")
        let approved = try String(contentsOf: checksFile, encoding: .utf8)
        #expect(approved.contains(#""options.distinct": false"#))
        let handle = try FileHandle(forWritingTo: checksFile)
        try handle.write(contentsOf: Data(approved.replacingOccurrences(of: #""options.distinct": false"#, with: #""options.distinct": true "#).utf8))
        try handle.close()
        let settledFile = project.appendingPathComponent(".step-cache/base/settled/\(changed).json")
        let keptBefore = try Data(contentsOf: settledFile)

        let regressed = try run()
        #expect(regressed.status == 1, "a check that passed in golden fails now")
        #expect(regressed.standardOutput.contains("gate fails · 405 steps: regression 1 · known failure 323 · pass 81"), "\(regressed.standardOutput)")
        let results = try latestResults().joined(separator: "\n")
        #expect(results.contains(#""name":"\#(changed)""#))
        let html = try latest("index.html")
        #expect(html.contains("id=\"\(changed)/goal-options\""))
        #expect(html.components(separatedBy: "<summary>Output JSON</summary>").count - 1 >= 1, "the regression is shown in full")
        #expect(try Data(contentsOf: settledFile) == keptBefore, "a fixture that needs attention is not kept")

        try approved.write(to: checksFile, atomically: true, encoding: .utf8)
        let restored = try run()
        #expect(restored.status == 0)
        #expect(restored.standardOutput.contains("known failure 324 · pass 81"))
    }

    /// A run that leaves outputs pending keeps each such fixture as the gate will find it
    /// once they are accepted: the first gate after `accept` reads back whole the fixtures
    /// whose every pending output was accepted, and its report is the one a run that
    /// works every step out writes.
    @Test func theFirstGateAfterAcceptReadsBackWhatWasAccepted() throws {
        defer { try? FileManager.default.removeItem(at: project) }
        for index in 0..<Self.copies {
            let folder = project.appendingPathComponent("golden/\(Self.fixture(index))")
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !name.hasSuffix(".cassette.json") {
                try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            }
        }
        let pending = try CommandRunner.run(["run", "--project", project.path])
        #expect(pending.standardOutput.contains("new 324"), "\(pending.standardOutput)\(pending.standardError)")
        #expect(settledFiles().count == Self.copies, "each fixture is kept as it will stand once accepted")
        let kept = try settledFileTimes()

        // Only one fixture accepted: only it is read back whole (its file left as it is);
        // the others are judged, fail and are not kept.
        #expect(try CommandRunner.run(["accept", "--fixture", Self.fixture(0), "--project", project.path]).status == 0)
        let partly = try run()
        #expect(partly.status == 1)
        #expect(partly.standardOutput.contains("gate fails · 405 steps: new 320"), "\(partly.standardOutput)")
        #expect(try settledFileTimes() == kept)

        #expect(try CommandRunner.run(["accept", "--project", project.path]).status == 0)
        let gate = try run()
        #expect(gate.status == 0, "\(gate.standardOutput)\(gate.standardError)")
        #expect(gate.standardOutput.contains("324 of 324 replayed steps read back from .step-cache/"), "\(gate.standardOutput)")
        #expect(try settledFileTimes() == kept, "every fixture is read back whole, none judged and kept again")
        let readBack = try (results: latestResults(), junit: latest("junit.xml"), markdown: latest("report.md"), html: latestFixtureSections())

        let fresh = try run(["--no-cache"])
        #expect(fresh.status == 0)
        #expect(fresh.standardOutput.contains("gate passes · 405 steps: known failure 324 · pass 81"), "\(fresh.standardOutput)")
        #expect(try latestResults() == readBack.results, "every fixture's results.json text is the one the gate works out, byte for byte")
        #expect(try latest("junit.xml") == readBack.junit)
        #expect(try latest("report.md") == readBack.markdown)
        #expect(try latestFixtureSections() == readBack.html)
    }

    @Test func aSmallRunKeepsNothing() throws {
        defer { try? FileManager.default.removeItem(at: project) }
        let small = try run(["--fixture", Self.fixture(0)])
        #expect(small.status == 0, "\(small.standardOutput)\(small.standardError)")
        #expect(settledFiles().isEmpty)
    }
}
