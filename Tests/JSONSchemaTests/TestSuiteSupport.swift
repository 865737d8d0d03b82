import Foundation
import JSONSchema

/// Finds and loads the official JSON-Schema-Test-Suite: the folder named by
/// `JSON_SCHEMA_TEST_SUITE`, else `<repo>/../shared/json-schema-test-suite`.
enum TestSuiteSupport {
    /// The package root, found from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let suiteRoot = ProcessInfo.processInfo.environment["JSON_SCHEMA_TEST_SUITE"].map { URL(fileURLWithPath: $0) }
        ?? packageRoot.deletingLastPathComponent().appendingPathComponent("shared/json-schema-test-suite")

    struct Missing: Error, CustomStringConvertible {
        let path: String
        var description: String {
            "JSON-Schema-Test-Suite not found at \(path); set JSON_SCHEMA_TEST_SUITE to its folder, or put it at ../shared/json-schema-test-suite beside the repository"
        }
    }

    /// The suite's folder, or an error naming where it was looked for.
    static func suiteFolder() throws -> URL {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: suiteRoot.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Missing(path: suiteRoot.standardizedFileURL.path)
        }
        return suiteRoot
    }

    static func load(_ url: URL) throws -> JSONValue {
        try JSONParser.parse(Data(contentsOf: url))
    }

    /// The meta-schemas plus every file under `remotes/`, registered as `http://localhost:1234/<relative path>`.
    static func registry() throws -> SchemaRegistry {
        let remotes = try suiteFolder().appendingPathComponent("remotes")
        var registry = SchemaRegistry.withMetaSchemas
        let enumerator = FileManager.default.enumerator(at: remotes, includingPropertiesForKeys: nil)
        let prefix = remotes.standardizedFileURL.path + "/"
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "json" else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(prefix.count))
            try registry.add(load(url), uri: "http://localhost:1234/" + relative)
        }
        return registry
    }

    /// The `.json` files directly in `folder` (relative to the suite's `tests/draft2020-12`), sorted.
    static func testFiles(_ folder: String = "") throws -> [URL] {
        let directory = try suiteFolder().appendingPathComponent("tests/draft2020-12").appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// One test case of the suite.
    struct Case {
        let file: String
        let group: String
        let test: String
        let schema: JSONValue
        let data: JSONValue
        let valid: Bool

        var name: String { "\(file) › \(group) › \(test)" }
    }

    static func cases(in url: URL) throws -> [Case] {
        guard case .array(let groups) = try load(url) else { return [] }
        var cases: [Case] = []
        for group in groups {
            guard let description = group["description"]?.stringValue, let schema = group["schema"],
                  let tests = group["tests"]?.arrayValue else { continue }
            for test in tests {
                cases.append(Case(
                    file: url.lastPathComponent, group: description, test: test["description"]?.stringValue ?? "",
                    schema: schema, data: test["data"] ?? .null, valid: test["valid"]?.boolValue ?? false))
            }
        }
        return cases
    }

    /// The outcome of running some cases.
    struct Outcome {
        var passed = 0
        var failures: [String] = []
        var skipped = 0
    }

    /// Runs `cases`, compiling each distinct schema once, checking both `isValid` and `validate`.
    static func run(_ cases: [Case], registry: SchemaRegistry, options: ValidationOptions = .init(), skips: [Skip] = []) -> Outcome {
        var outcome = Outcome()
        var compiled: [String: Result<Schema, Error>] = [:]
        for testCase in cases {
            if skips.contains(where: { $0.matches(testCase) }) {
                outcome.skipped += 1
                continue
            }
            let key = testCase.file + "\u{0}" + testCase.group
            let schema: Result<Schema, Error>
            if let cached = compiled[key] {
                schema = cached
            } else {
                schema = Result { try Schema(testCase.schema, registry: registry, options: options) }
                compiled[key] = schema
            }
            switch schema {
            case .failure(let error):
                outcome.failures.append("\(testCase.name): schema did not compile: \(error)")
            case .success(let schema):
                let fast = schema.isValid(testCase.data)
                let result = schema.validate(testCase.data)
                if fast == testCase.valid && result.isValid == testCase.valid && (result.isValid || !result.errors.isEmpty) {
                    outcome.passed += 1
                } else {
                    let detail = result.errors.prefix(3).map(\.description).joined(separator: "; ")
                    outcome.failures.append(
                        "\(testCase.name): expected \(testCase.valid ? "valid" : "invalid"), isValid=\(fast), validate=\(result.isValid) \(detail)")
                }
            }
        }
        return outcome
    }

    /// An entry of `suite-skips.json`: a known failure and why.
    struct Skip: Decodable {
        let file: String
        let group: String
        let test: String?
        let reason: String

        func matches(_ testCase: Case) -> Bool {
            file == testCase.file && group == testCase.group && (test == nil || test == testCase.test)
        }
    }

    static func skips() throws -> [Skip] {
        let url = packageRoot.appendingPathComponent("Tests/JSONSchemaTests/suite-skips.json")
        return try JSONDecoder().decode([Skip].self, from: Data(contentsOf: url))
    }
}
