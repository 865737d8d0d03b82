import Evaluation
import Foundation
import Intake
import JSONSchema
import Reports
import Testing

/// A large run without the step cache keeps each finished fixture that passes the
/// gate on disk until its report is written, and lets go of its outputs and prompts:
/// its memory does not grow with the suite. Its report is the one a run holding
/// everything writes, and it leaves nothing behind. Checked on 81 copies of
/// `busy-parent` with its golden files (405 steps, more than `index.html` shows in full).
@Suite("A large run without the step cache")
struct SpooledFixturesTests {
    static let copies = 81
    let root: URL
    let spoolParent: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("spooled-\(UUID().uuidString)", isDirectory: true)
        spoolParent = root.appendingPathComponent("spool", isDirectory: true)
        let files = FileManager.default
        try files.createDirectory(at: root.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
        try files.createDirectory(at: spoolParent, withIntermediateDirectories: true)
        try files.copyItem(at: Repository.root.appendingPathComponent("prompts"), to: root.appendingPathComponent("prompts"))
        for index in 0..<Self.copies {
            let name = String(format: "busy-parent-%02d", index)
            for ext in ["json", "yaml"] {
                try files.copyItem(
                    at: Repository.root.appendingPathComponent("fixtures/busy-parent.\(ext)"), to: root.appendingPathComponent("fixtures/\(name).\(ext)"))
            }
            try files.copyItem(at: Repository.root.appendingPathComponent("golden/busy-parent"), to: root.appendingPathComponent("golden/\(name)"))
        }
    }

    /// A replay of every fixture under CI, spooling into `spoolParent` or not at all.
    func run(spooling: Bool, ci: Bool = true) async throws -> Evaluation.Outcome {
        let layout = ProjectLayout(root: root)
        let project = Project(layout: layout)
        var options = Evaluation.Options()
        options.ci = ci
        options.spoolParent = spooling ? spoolParent : nil
        let prices = try project.prices()
        let evaluation = Evaluation(
            layout: layout, prompts: try project.prompts(), prices: prices,
            provider: try project.provider(ProviderSettings(), track: nil, prices: prices), options: options)
        return try await evaluation.run(try project.corpus().load())
    }

    /// The report files of `outcome`, less what names the run (its id, times and duration).
    func reportTexts(_ outcome: Evaluation.Outcome) throws -> [String: String] {
        var texts: [String: String] = [:]
        for name in ["results.json", "junit.xml", "index.html", "report.md"] {
            var text = try String(contentsOf: outcome.reportFolder.appendingPathComponent(name), encoding: .utf8)
            if name == "results.json", let run = text.range(of: #""run":"#), let totals = text.range(of: #","totals":"#) {
                text.removeSubrange(run.lowerBound..<totals.lowerBound)
            }
            if name == "index.html", let start = text.range(of: "<main>"), let end = text.range(of: "</main>") {
                text = String(text[start.lowerBound..<end.upperBound])
            }
            texts[name] = text.replacingOccurrences(of: outcome.report.run.id, with: "RUN")
                .replacingOccurrences(of: #"time="[0-9.]+""#, with: "", options: .regularExpression)
                .replacingOccurrences(of: #"· [0-9.]+ s ·"#, with: "", options: .regularExpression)
        }
        return texts
    }

    @Test(arguments: [true, false])
    func itLetsGoOfPassingFixturesEarlyAndWritesTheSameReport(ci: Bool) async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let holding = try await run(spooling: false, ci: ci)
        #expect(holding.exitStatus(ci: ci) == 0)
        #expect(holding.report.fixtures.allSatisfy { $0.storedText == nil })

        let spooled = try await run(spooling: true, ci: ci)
        #expect(spooled.exitStatus(ci: ci) == 0)
        // Every copy passes the gate (its known failures as committed), so every one is let go of.
        #expect(spooled.report.fixtures.count == Self.copies)
        #expect(spooled.report.fixtures.allSatisfy { $0.storedText != nil })
        #expect(spooled.report.fixtures.allSatisfy { fixture in fixture.steps.allSatisfy { $0.output == nil && $0.prompt == nil } })
        #expect(spooled.results.allSatisfy { fixture in fixture.steps.allSatisfy { $0.output == nil && $0.prompt == nil } })

        #expect(try reportTexts(spooled) == (try reportTexts(holding)))
        let results = try JSONParser.parse(Data(contentsOf: spooled.reportFolder.appendingPathComponent("results.json")))
        let steps = results["fixtures"]?.arrayValue?.flatMap { $0["steps"]?.arrayValue ?? [] } ?? []
        #expect(steps.count == Self.copies * 5)
        #expect(steps.allSatisfy { $0["output"].map { $0 != .null } ?? false }, "results.json holds every output")

        #expect(try FileManager.default.contentsOfDirectory(atPath: spoolParent.path) == [], "the spool folder is deleted")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent(".step-cache").path), "no step cache is written")
    }
}
