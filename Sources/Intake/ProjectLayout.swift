import Foundation

/// Where a trainer-eval project keeps its files.
///
/// The root is the folder that holds `prompts/schemas/intake.schema.json`;
/// commands find it by walking up from the working directory, like git does.
public struct ProjectLayout: Sendable, Hashable {
    public let root: URL

    public init(root: URL) {
        self.root = root.standardizedFileURL
    }

    public var fixtures: URL { root.appendingPathComponent("fixtures", isDirectory: true) }
    public var prompts: URL { root.appendingPathComponent("prompts", isDirectory: true) }
    public var schemas: URL { prompts.appendingPathComponent("schemas", isDirectory: true) }
    public var golden: URL { root.appendingPathComponent("golden", isDirectory: true) }
    public var reports: URL { root.appendingPathComponent("Reports", isDirectory: true) }
    /// The run history database (ignored by git).
    public var history: URL { root.appendingPathComponent(".history/runs.sqlite") }
    /// Replayed steps' results, reused while nothing they follow from changes (ignored by git).
    public var stepCache: URL { root.appendingPathComponent(".step-cache", isDirectory: true) }
    /// Scenario files as parsed on an earlier run (`ParsedScenarios`), beside the step cache.
    public var parsedScenarios: URL { stepCache.appendingPathComponent("scenarios.json") }
    public var fileDigests: URL { stepCache.appendingPathComponent("file-digests.tsv") }

    public var intakeSchema: URL { schemas.appendingPathComponent("intake.schema.json") }
    public var scenarioSchema: URL { schemas.appendingPathComponent("scenario.schema.json") }

    /// The project containing `directory`, searching it and then its parents.
    public static func locate(from directory: URL) throws(ProjectError) -> ProjectLayout {
        var candidate = directory.standardizedFileURL
        while true {
            let layout = ProjectLayout(root: candidate)
            if FileManager.default.fileExists(atPath: layout.intakeSchema.path) { return layout }
            let parent = candidate.deletingLastPathComponent()
            if parent.path == candidate.path { break }
            candidate = parent
        }
        throw ProjectError.notFound(searchedFrom: directory.path)
    }

    /// `url` relative to the project root when it is inside it, for short messages.
    public func displayPath(of url: URL) -> String {
        let path = url.standardizedFileURL.path
        let rootPath = root.path.hasSuffix("/") ? root.path : root.path + "/"
        return path.hasPrefix(rootPath) ? String(path.dropFirst(rootPath.count)) : path
    }
}

/// The project itself cannot be used.
public enum ProjectError: Error, Equatable, CustomStringConvertible {
    case notFound(searchedFrom: String)
    case unreadableSchema(path: String, reason: String)

    public var description: String {
        switch self {
        case .notFound(let start):
            return "No trainer-eval project at or above \(start): expected a folder with prompts/schemas/intake.schema.json. Run the command inside the project or pass --project DIR."
        case .unreadableSchema(let path, let reason):
            return "The schema \(path) cannot be used: \(reason). Fix the schema file (check it with `\(Invocation.command) validate --schema \(path)`)."
        }
    }
}
