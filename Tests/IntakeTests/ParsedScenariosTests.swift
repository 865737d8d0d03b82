import Foundation
import Intake
import JSONSchema
import Testing

/// `FixtureCorpus.parsedScenarios`: scenarios parsed on an earlier run are read back
/// for unchanged text by the same build, and every other case parses afresh.
@Suite("Scenarios parsed on an earlier run")
struct ParsedScenariosTests {
    static let names = ["busy-parent", "knee-injury"]

    /// A project holding two of the repository's fixtures.
    static func project() throws -> TemporaryProject {
        let project = try TemporaryProject()
        for name in names {
            for suffix in [".json", ".yaml"] {
                try project.write(name + suffix, Data(contentsOf: TemporaryProject.repositoryLayout.fixtures.appendingPathComponent(name + suffix)))
            }
        }
        return project
    }

    static func corpus(_ project: TemporaryProject, identity: String = "build 1") throws -> FixtureCorpus {
        var corpus = try FixtureCorpus(layout: project.layout)
        corpus.parsedScenarios = ParsedScenarios(file: project.layout.parsedScenarios, identity: identity)
        return corpus
    }

    /// Rewrites the stored parse of every scenario with `summary`, so a load shows whether it read the parse back.
    static func replaceStoredSummaries(in project: TemporaryProject, with summary: String) throws {
        let file = project.layout.parsedScenarios
        var stored = try JSONParser.parse(Data(contentsOf: file))
        guard case .object(var root) = stored, case .object(var documents)? = root["documents"] else {
            Issue.record("no documents in \(file.lastPathComponent)")
            return
        }
        for member in documents.members {
            guard case .object(var document) = member.value else { continue }
            document["summary"] = .string(summary)
            documents[member.key] = .object(document)
        }
        root["documents"] = .object(documents)
        stored = .object(root)
        try Data(stored.serializedBytes()).write(to: file)
    }

    @Test func anUnchangedScenarioIsReadBackAndAChangedOneParsedAgain() throws {
        let project = try Self.project()
        defer { project.remove() }
        let plain = try FixtureCorpus(layout: project.layout).load()
        let first = try Self.corpus(project).load()
        #expect(first == plain, "a first load parses and gives what a load without the cache gives")
        #expect(FileManager.default.fileExists(atPath: project.layout.parsedScenarios.path))

        try Self.replaceStoredSummaries(in: project, with: "read back")
        #expect(try Self.corpus(project).load().map(\.scenario.summary) == ["read back", "read back"])

        // A comment changes the text, so the file is parsed again; the other is still read back.
        let scenario = project.layout.fixtures.appendingPathComponent("knee-injury.yaml")
        try Data((try String(contentsOf: scenario, encoding: .utf8) + "\n# reviewed\n").utf8).write(to: scenario)
        let edited = try Self.corpus(project).load()
        #expect(edited.map(\.scenario.summary) == ["read back", plain[1].scenario.summary])
    }

    @Test func anotherBuildParsesAfresh() throws {
        let project = try Self.project()
        defer { project.remove() }
        let plain = try FixtureCorpus(layout: project.layout).load()
        _ = try Self.corpus(project, identity: "build 1").load()
        try Self.replaceStoredSummaries(in: project, with: "read back")
        #expect(try Self.corpus(project, identity: "build 2").load() == plain)
    }

    @Test func aScenarioWithAProblemIsParsedAgainSoItsErrorHasALine() throws {
        let project = try Self.project()
        defer { project.remove() }
        let scenario = project.layout.fixtures.appendingPathComponent("busy-parent.yaml")
        let text = try String(contentsOf: scenario, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "tags: [", with: "tagz: [").utf8).write(to: scenario)
        for _ in 1...2 {
            #expect {
                try Self.corpus(project).load()
            } throws: { error in
                guard case .invalid("busy-parent", let problems) = error as? FixtureError else { return false }
                return problems.contains { $0.location?.line == 2 && "\($0)".contains("tagz") }
            }
        }
    }

    @Test func aLoadOfTheWholeCorpusForgetsRemovedFilesAndALoadOfSomeKeepsTheRest() throws {
        let project = try Self.project()
        defer { project.remove() }
        func storedCount() throws -> Int {
            try JSONParser.parse(Data(contentsOf: project.layout.parsedScenarios))["documents"]?.objectValue?.count ?? 0
        }
        _ = try Self.corpus(project).load()
        #expect(try storedCount() == 2)

        let scenario = project.layout.fixtures.appendingPathComponent("knee-injury.yaml")
        try Data((try String(contentsOf: scenario, encoding: .utf8) + "\n# reviewed\n").utf8).write(to: scenario)
        _ = try Self.corpus(project).load(names: ["knee-injury"])
        #expect(try storedCount() == 3, "a load of some fixtures keeps the parses of the others")

        _ = try Self.corpus(project).load()
        #expect(try storedCount() == 2, "a load of the whole corpus keeps its own files' parses alone")
    }
}
