import Foundation
import JSONSchema

extension FixtureCorpus {
    /// A record and its scenario as found on disk; either may be missing.
    struct FilePair {
        var name: String
        var record: URL?
        var scenario: URL?
    }

    /// What checking one file produced: the decoded value when it is valid, and every problem.
    struct Checked<Value> {
        var value: Value?
        var json: JSONValue?
        var problems: [FixtureProblem]
        /// The SHA-256 of the file's bytes, once they were read.
        var fileDigest: String?
    }

    /// Groups the files named by `paths` into record/scenario pairs.
    func pairs(for paths: [URL], problems: inout [FixtureProblem]) -> [FilePair] {
        var byBase: [URL: FilePair] = [:]
        var order: [URL] = []
        func add(_ file: URL) {
            let base = file.standardizedFileURL.deletingPathExtension()
            if byBase[base] == nil {
                byBase[base] = FilePair(name: base.lastPathComponent)
                order.append(base)
            }
            switch file.pathExtension {
            case "json":
                byBase[base]!.record = file
                if byBase[base]!.scenario == nil { byBase[base]!.scenario = scenarioURL(forRecord: file) }
            default:
                byBase[base]!.scenario = file
                let record = base.appendingPathExtension("json")
                if FileManager.default.fileExists(atPath: record.path) { byBase[base]!.record = record }
            }
        }
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isDirectory) else {
                problems.append(FixtureProblem(file: layout.displayPath(of: path), message: "no such file or folder"))
                continue
            }
            if isDirectory.boolValue {
                let entries = (try? FileManager.default.contentsOfDirectory(at: path, includingPropertiesForKeys: nil)) ?? []
                let fixtureFiles = entries.filter { ["json", "yaml", "yml"].contains($0.pathExtension) && !$0.lastPathComponent.hasPrefix(".") }
                if fixtureFiles.isEmpty {
                    problems.append(FixtureProblem(file: layout.displayPath(of: path), message: "the folder has no .json records or .yaml scenarios"))
                }
                fixtureFiles.sorted { $0.path < $1.path }.forEach(add)
            } else if ["json", "yaml", "yml"].contains(path.pathExtension) {
                add(path)
            } else {
                problems.append(FixtureProblem(
                    file: layout.displayPath(of: path),
                    message: "not a fixture file: expected a .json record or a .yaml scenario"))
            }
        }
        return order.compactMap { byBase[$0] }
    }

    /// Parses and validates one intake record.
    func checkRecord(at url: URL) -> Checked<LocalIntakeData> {
        // Worked out only for a problem: a large corpus loads thousands of files without one.
        var file: String { layout.displayPath(of: url) }
        let data: Data
        switch readFile(url) {
        case .success(let contents): data = contents
        case .failure(let problem): return Checked(problems: [problem])
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(data)
        } catch let error as JSONParseError {
            let reason = error.kind == .empty ? "the file is empty; expected a JSON object of intake answers" : error.reason
            return Checked(problems: [FixtureProblem(file: file, location: error.location, field: error.path, message: "invalid JSON: \(reason)")])
        } catch {
            return Checked(problems: [FixtureProblem(file: file, message: "invalid JSON: \(error)")])
        }
        let errors = intakeSchema.validate(value).errors
        let placeholders = FixtureTemplate.placeholders(in: value)
        guard errors.isEmpty, placeholders.isEmpty else {
            // Where each value sits is worked out only for a record with a problem.
            let document = try? JSONParser.parseDocument(data)
            let unfilled = placeholders.map { pointer in
                FixtureProblem(
                    file: file, location: document?.location(of: pointer), field: pointer,
                    message: "still the template's placeholder: write the person's answer, or remove the field if they skipped the question")
            }
            let problems = errors.map { error in
                problem(from: error, file: file, knownKeys: LocalIntakeData.fieldKeys) {
                    error.keyword.hasSuffix("Properties") ? document?.keyLocation(of: $0) : document?.location(of: $0)
                }
            }
            return Checked(json: value, problems: unfilled + Self.withoutPlaceholders(problems, unfilled))
        }
        do {
            let record = try JSONValueDecoder().decode(LocalIntakeData.self, from: value)
            return Checked(value: record, json: value, problems: [], fileDigest: SHA256Digest.hex(of: data))
        } catch {
            return Checked(json: value, problems: [FixtureProblem(file: file, message: "does not decode as LocalIntakeData: \((error as? DecodingError)?.location ?? "\(error)")")])
        }
    }

    /// The scenario a parse read back describes, when it has no problem at all: its
    /// schema holds, its regular expressions compile and it decodes. Nil sends it back
    /// through the parser, whose locations the problems need.
    private func soundScenario(_ value: JSONValue) -> Scenario? {
        guard scenarioSchema.isValid(value) else { return nil }
        for assertion in value["assertions"]?.arrayValue ?? [] {
            guard let kind = assertion["kind"]?.stringValue, kind.hasSuffix("regex"), let pattern = assertion["value"]?.stringValue else { continue }
            guard (try? CompiledPatterns.shared.compile(pattern)) != nil else { return nil }
        }
        return Scenario(snakeCased: value) ?? (try? JSONValueDecoder(convertsFromSnakeCase: true).decode(Scenario.self, from: value))
    }

    /// Parses and validates one scenario file, including its regular expressions, and
    /// when its `record` is given, that it declares the expectations the record calls for.
    /// With `parsed`, a text parsed on an earlier run is read back instead of parsed.
    func checkScenario(at url: URL, against record: LocalIntakeData? = nil, parsed: ParsedScenarios? = nil) -> Checked<Scenario> {
        var file: String { layout.displayPath(of: url) }
        let data: Data
        switch readFile(url) {
        case .success(let contents): data = contents
        case .failure(let problem): return Checked(problems: [problem])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            let offset = JSONParser.firstInvalidUTF8Offset(in: data) ?? 0
            let location = SourceMap(data).location(ofOffset: offset)
            return Checked(problems: [FixtureProblem(file: file, location: location, message: "the file is not valid UTF-8 text")])
        }
        let digest = ParsedScenarios.digest(of: text)
        if let parsed, let value = parsed.value(forDigest: digest), record == nil, let scenario = soundScenario(value) {
            return Checked(value: scenario, json: value, problems: [], fileDigest: digest)
        }
        let document: YAMLDocument
        do {
            document = try YAMLDocument(text: text)
            parsed?.keep(document.value, forDigest: digest)
        } catch {
            return Checked(problems: [FixtureProblem(file: file, location: error.location, message: error.reason)])
        }
        let placeholders = FixtureTemplate.placeholders(in: document.value)
        var problems = placeholders.map { pointer in
            FixtureProblem(
                file: file, location: document.location(of: pointer), field: pointer,
                message: "still the template's \(FixtureTemplate.placeholder): fill it in (fixtures/README.md says what it means)")
        }
        problems += Self.withoutPlaceholders(scenarioSchema.validate(document.value).errors.map { error in
            problem(from: error, file: file, knownKeys: Self.scenarioKeys) {
                error.keyword.hasSuffix("Properties") ? document.keyLocation(of: $0) : document.location(of: $0)
            }
        }, problems)
        if case .array(let assertions)? = document.value["assertions"] {
            for (index, assertion) in assertions.enumerated() {
                guard let kind = assertion["kind"]?.stringValue, kind.hasSuffix("regex"),
                      let pattern = assertion["value"]?.stringValue else { continue }
                do {
                    _ = try CompiledPatterns.shared.compile(pattern)
                } catch {
                    let pointer = JSONPointer(tokens: ["assertions", String(index), "value"])
                    problems.append(FixtureProblem(
                        file: file, location: document.location(of: pointer), field: pointer,
                        message: "invalid regular expression \(JSONValue.string(pattern).preview())"))
                }
            }
        }
        guard problems.isEmpty else { return Checked(json: document.value, problems: problems) }
        do {
            let scenario = try Scenario(snakeCased: document.value)
                ?? JSONValueDecoder(convertsFromSnakeCase: true).decode(Scenario.self, from: document.value)
            let gaps = record.map { ExpectationCoverage.gaps(record: $0, expect: document.value["expect"]) } ?? []
            let hasExpect = document.value.objectValue?.keys.contains("expect") == true
            let expectLocation = hasExpect
                ? document.keyLocation(of: JSONPointer(tokens: ["expect"])) : document.location(of: JSONPointer(tokens: []))
            let coverage = gaps.map { gap in
                FixtureProblem(file: file, location: expectLocation, field: JSONPointer(tokens: ["expect", gap.key]), message: gap.message)
            }
            return Checked(value: scenario, json: document.value, problems: coverage, fileDigest: digest)
        } catch {
            return Checked(json: document.value, problems: [FixtureProblem(file: file, message: "does not decode as a scenario: \((error as? DecodingError)?.location ?? "\(error)")")])
        }
    }

    /// `problems` without those about a value `unfilled` already names as a placeholder:
    /// a `TODO` where a number goes is one problem, not two.
    static func withoutPlaceholders(_ problems: [FixtureProblem], _ unfilled: [FixtureProblem]) -> [FixtureProblem] {
        problems.filter { problem in
            !unfilled.contains { placeholder in
                (problem.location != nil && problem.location == placeholder.location)
                    || (problem.field.flatMap { field in placeholder.field.map { field.tokens.starts(with: $0.tokens) } } ?? false)
            }
        }
    }

    private func readFile(_ url: URL) -> Result<Data, FixtureProblem> {
        if let data = FileBytes.read(url.path, maximumSize: Self.maximumFileSize) { return .success(data) }
        let file = layout.displayPath(of: url)
        // Too large, or unreadable: say which.
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        if let size = attributes?[.size] as? Int, size > Self.maximumFileSize {
            return .failure(FixtureProblem(
                file: file, message: "the file is \(size / 1_048_576) MB; fixture files are at most \(Self.maximumFileSize / 1_048_576) MB"))
        }
        do {
            return .success(try Data(contentsOf: url))
        } catch {
            return .failure(FixtureProblem(file: file, message: "cannot read the file: \(error.localizedDescription)"))
        }
    }

    /// Turns a schema error into a problem at the right line, with a suggestion for unknown keys.
    private func problem(
        from error: ValidationError, file: String, knownKeys: [String], locate: (JSONPointer) -> SourceLocation?
    ) -> FixtureProblem {
        let pointer = error.instanceLocation
        var message = error.message
        if error.keyword == "additionalProperties" || error.keyword == "unevaluatedProperties",
           let key = pointer.tokens.last
        {
            message = "unknown field `\(key)`"
            if let suggestion = ClosestMatch.suggestion(for: key, among: knownKeys) {
                message += "; did you mean `\(suggestion)`?"
            } else {
                message += "; known fields are " + knownKeys.map { "`\($0)`" }.joined(separator: ", ")
            }
            return FixtureProblem(file: file, location: locate(pointer), field: pointer.parent, message: message)
        }
        // Messages such as "`age` is 7; the minimum is 13" name the value themselves.
        let namesItself = message.hasPrefix("`")
        return FixtureProblem(file: file, location: locate(pointer), field: namesItself ? nil : pointer, message: message)
    }

    /// Every key a scenario file may use, for typo suggestions.
    static let scenarioKeys = [
        "summary", "tags", "option_edits", "confirm", "program_edit", "expect", "assertions", "canaries", "feedback",
        "mention_any", "prefer", "position", "max_days_per_week", "max_session_minutes", "equipment", "avoid",
        "mention", "professional_referral", "language", "step", "kind", "value", "why", "pointer", "equals", "min", "max",
    ]
}
