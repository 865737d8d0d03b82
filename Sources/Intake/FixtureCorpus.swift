import Foundation
import JSONSchema

/// The fixture folder: finds, checks and loads fixture records and their scenarios.
public struct FixtureCorpus: Sendable {
    public let layout: ProjectLayout
    let intakeSchema: Schema
    let scenarioSchema: Schema
    /// Scenarios parsed on earlier runs, read back instead of parsed again (`load` only;
    /// `check` always parses); nil parses every file.
    public var parsedScenarios: ParsedScenarios?

    /// Fixture files larger than this are rejected before parsing; a valid record is
    /// at most 25 fields of 8,000 characters.
    static let maximumFileSize = 10 * 1024 * 1024

    public init(layout: ProjectLayout) throws(ProjectError) {
        self.layout = layout
        intakeSchema = try Self.loadSchema(layout.intakeSchema, layout: layout)
        scenarioSchema = try Self.loadSchema(layout.scenarioSchema, layout: layout)
    }

    /// Every fixture name in the corpus folder, sorted.
    public func fixtureNames() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(at: layout.fixtures, includingPropertiesForKeys: nil)) ?? []
        return files.filter { $0.pathExtension == "json" && !$0.lastPathComponent.hasPrefix(".") }
            .map { $0.deletingPathExtension().lastPathComponent }
            .sorted()
    }

    /// Loads one fixture by name, or explains why it cannot be used.
    public func load(_ name: String) throws(FixtureError) -> Fixture {
        let recordURL = layout.fixtures.appendingPathComponent(name + ".json")
        guard FileBytes.exists(recordURL.path) else {
            throw FixtureError.notFound(
                name: name, suggestion: ClosestMatch.suggestion(for: name, among: fixtureNames()),
                folder: layout.displayPath(of: layout.fixtures))
        }
        let scenarioURL = scenarioURL(forRecord: recordURL)
        let record = checkRecord(at: recordURL)
        let scenario = checkScenario(at: scenarioURL, parsed: parsedScenarios)
        let reserved = reservedNameProblem(name, record: recordURL).map { [$0] } ?? []
        guard let intake = record.value, let json = record.json, let plan = scenario.value, reserved.isEmpty,
              let recordDigest = record.fileDigest, let scenarioDigest = scenario.fileDigest
        else {
            throw FixtureError.invalid(name: name, problems: reserved + record.problems + scenario.problems)
        }
        return Fixture(
            name: name, record: intake, recordJSON: json, scenario: plan, recordURL: recordURL, scenarioURL: scenarioURL,
            sourceDigests: Fixture.SourceDigests(record: recordDigest, scenario: scenarioDigest))
    }

    /// Refuses the first name that is neither a fixture nor one of `alsoKnown`
    /// (golden folders of retired fixtures, say), suggesting the nearest.
    public func checkNames(_ names: [String], alsoKnown: [String] = []) throws(FixtureError) {
        let known = Set(fixtureNames() + alsoKnown)
        for name in names where !known.contains(name) {
            throw FixtureError.notFound(
                name: name, suggestion: ClosestMatch.suggestion(for: name, among: known.sorted()),
                folder: layout.displayPath(of: layout.fixtures))
        }
    }

    /// Loads the named fixtures (all of them when `names` is empty), each once
    /// however often it is named. Parsing and checking are independent per
    /// fixture, so they run on every core; the first error in name order is the one reported.
    public func load(names: [String] = []) throws(FixtureError) -> [Fixture] {
        var seen: Set<String> = []
        defer { parsedScenarios?.save(wholeCorpus: names.isEmpty) }
        let names = names.isEmpty ? fixtureNames() : names.filter { seen.insert($0).inserted }
        return try names.concurrentMap { name throws(FixtureError) in try load(name) }
    }

    /// Checks records and scenarios named by `paths` (files or folders; none means
    /// the whole corpus) and reports every problem found, never stopping at the first,
    /// including expectations a record calls for that its scenario leaves out.
    public func check(paths: [URL] = []) -> FixtureCheckReport {
        var problems: [FixtureProblem] = []
        var names: Set<String> = []
        var files: Set<URL> = []
        var records: [FixtureCheckReport.CheckedRecord] = []
        for pair in pairs(for: paths.isEmpty ? [layout.fixtures] : paths, problems: &problems) {
            names.insert(pair.name)
            var intake: LocalIntakeData?
            if let record = pair.record {
                files.insert(record)
                if let problem = reservedNameProblem(pair.name, record: record) { problems.append(problem) }
                let checked = checkRecord(at: record)
                problems += checked.problems
                intake = checked.value
                if let value = checked.value { records.append(.init(file: layout.displayPath(of: record), record: value)) }
            }
            if pair.record == nil, let scenario = pair.scenario {
                problems.append(FixtureProblem(
                    file: layout.displayPath(of: scenario),
                    message: "no record \(scenario.deletingPathExtension().lastPathComponent).json beside this scenario"))
            }
            if let scenario = pair.scenario {
                files.insert(scenario)
                if FileManager.default.fileExists(atPath: scenario.path) {
                    problems += checkScenario(at: scenario, against: intake).problems
                } else if let record = pair.record {
                    problems.append(FixtureProblem(
                        file: layout.displayPath(of: record),
                        message: "missing scenario \(scenario.lastPathComponent) beside this record; every fixture needs one (see fixtures/README.md)"))
                }
            }
        }
        return FixtureCheckReport(fixtureNames: names.sorted(), fileCount: files.count, problems: problems, records: records.sorted { $0.file < $1.file })
    }

    /// `golden/variants/` and `golden/judges/` are no fixture's, so no fixture may take their names.
    func reservedNameProblem(_ name: String, record: URL) -> FixtureProblem? {
        guard let holds = ReservedGoldenFolder.all[name] else { return nil }
        return FixtureProblem(
            file: layout.displayPath(of: record),
            message: "`\(name)` is reserved: golden/\(name)/ holds \(holds); rename the fixture")
    }

    /// The scenario file for a record: `NAME.yaml`, or `NAME.yml` when only that exists.
    func scenarioURL(forRecord record: URL) -> URL {
        let base = record.deletingPathExtension()
        let yaml = base.appendingPathExtension("yaml")
        guard !FileBytes.exists(yaml.path) else { return yaml }
        let yml = base.appendingPathExtension("yml")
        return FileBytes.exists(yml.path) ? yml : yaml
    }

    private static func loadSchema(_ url: URL, layout: ProjectLayout) throws(ProjectError) -> Schema {
        let path = layout.displayPath(of: url)
        do {
            let data = try Data(contentsOf: url)
            return try Schema(JSONParser.parse(data), baseURI: url.absoluteString)
        } catch {
            throw ProjectError.unreadableSchema(path: path, reason: "\(error)")
        }
    }
}
