import Foundation
import Intake
import JSONSchema
import Mustache

/// One step's prompt, loaded from `prompts/<step>/`: the system message, the user
/// message template, the output schema and the metadata.
public struct StepPrompt: @unchecked Sendable {
    public let step: PipelineStep
    public let system: String
    /// The template as the prompt engineer wrote it.
    public let templateText: String
    public let metadata: PromptMetadata
    /// The output schema as written, sent to providers.
    public let schemaDocument: JSONValue
    /// The output schema compiled for validation.
    public let schema: Schema
    // MustacheTemplate is an immutable value once parsed; rendering does not mutate it.
    let template: MustacheTemplate
    /// Fingerprints of the parts, computed once: every request's provenance names them.
    let partFingerprints: (system: String, template: String, schema: String)

    init(
        step: PipelineStep, system: String, templateText: String, metadata: PromptMetadata, schemaDocument: JSONValue,
        schema: Schema, template: MustacheTemplate
    ) {
        self.step = step
        self.system = system
        self.templateText = templateText
        self.metadata = metadata
        self.schemaDocument = schemaDocument
        self.schema = schema
        self.template = template
        partFingerprints = (
            Fingerprint.of(system), Fingerprint.of(templateText), Fingerprint.of(schemaDocument.serialized(.canonical))
        )
    }

    /// A fingerprint of everything the prompt engineer edits for this step: the
    /// system message, the template, the schema and the metadata. Equal
    /// fingerprints mean the same prompt, whatever the version number says.
    public var fingerprint: String {
        Fingerprint.of([
            partFingerprints.system, partFingerprints.template, partFingerprints.schema, metadata.schema, "\(metadata.version)",
            "\(metadata.temperature)", "\(metadata.maxTokens)", "\(metadata.seed ?? -1)",
        ].joined(separator: "\u{0}"))
    }

    /// The variables each step's template may use.
    public static let variables: [PipelineStep: Set<String>] = [
        .goalOptions: ["intake_json", "skipped_fields"],
        .goalOptionsEdit: ["intake_json", "skipped_fields", "current_options_json", "earlier_feedback_json", "feedback_json"],
        .programDraft: ["intake_json", "skipped_fields", "confirmed_goal_json"],
        .programEdit: ["intake_json", "skipped_fields", "confirmed_goal_json", "current_program_json", "feedback_json"],
    ]

    /// Loads and checks the folder for `step`.
    public static func load(_ step: PipelineStep, layout: ProjectLayout) throws(PromptError) -> StepPrompt {
        let folder = layout.prompts.appendingPathComponent(step.rawValue, isDirectory: true)
        let system = try readText(folder.appendingPathComponent("system.md"), layout: layout)
        let templateURL = folder.appendingPathComponent("user.mustache")
        let templateText = try readText(templateURL, layout: layout)
        let metadataURL = folder.appendingPathComponent("prompt.yaml")
        let metadata = try loadMetadata(metadataURL, layout: layout)
        try checkVariables(templateText, allowed: variables[step] ?? [], file: layout.displayPath(of: templateURL))
        let template: MustacheTemplate
        do {
            // TEXT: no HTML escaping, so a user's apostrophe or <tag> reaches the model unchanged.
            template = try MustacheTemplate(string: "{{% CONTENT_TYPE: TEXT}}" + templateText)
        } catch {
            throw PromptError(file: layout.displayPath(of: templateURL), message: "template syntax: \(error)")
        }
        let schemaURL = layout.schemas.appendingPathComponent(metadata.schema)
        let schemaFile = layout.displayPath(of: schemaURL)
        let schemaDocument: JSONValue
        let schema: Schema
        do {
            schemaDocument = try JSONParser.parse(try Data(contentsOf: schemaURL))
            schema = try Schema(schemaDocument, baseURI: schemaURL.absoluteString)
        } catch let error as JSONParseError {
            throw PromptError(file: schemaFile, location: error.location, message: "invalid JSON: \(error.reason)")
        } catch let error as SchemaError {
            throw PromptError(file: schemaFile, message: "invalid schema: \(error)")
        } catch {
            throw PromptError(file: layout.displayPath(of: metadataURL), message: "schema `\(metadata.schema)` cannot be read from prompts/schemas/: \(error.localizedDescription)")
        }
        return StepPrompt(
            step: step, system: system, templateText: templateText, metadata: metadata,
            schemaDocument: schemaDocument, schema: schema, template: template)
    }

    /// The user message for `variables` (values absent from the dictionary are falsy sections).
    func renderUserMessage(_ variables: [String: String]) -> String {
        let text = template.render(variables as [String: Any])
        // Trimmed by scalar: Foundation's trimmingCharacters copies the whole message through NSString.
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }

    private static func readText(_ url: URL, layout: ProjectLayout) throws(PromptError) -> String {
        let file = layout.displayPath(of: url)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw PromptError(file: file, message: "missing: every prompt folder needs system.md, user.mustache and prompt.yaml")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw PromptError(file: file, message: "not valid UTF-8 text")
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw PromptError(file: file, message: "the file is empty") }
        return trimmed
    }

    private static func loadMetadata(_ url: URL, layout: ProjectLayout) throws(PromptError) -> PromptMetadata {
        let file = layout.displayPath(of: url)
        let text = try readText(url, layout: layout)
        let document: YAMLDocument
        do {
            document = try YAMLDocument(text: text)
        } catch {
            throw PromptError(file: file, location: error.location, message: error.reason)
        }
        guard case .object(let object) = document.value else {
            throw PromptError(file: file, message: "expected a mapping of version, schema, temperature, max_tokens, seed")
        }
        for key in object.keys where !PromptMetadata.keys.contains(key) {
            throw PromptError(
                file: file, location: document.location(of: JSONPointer(tokens: [key])),
                message: "unknown key `\(key)`; expected one of " + PromptMetadata.keys.joined(separator: ", "))
        }
        func require<T>(_ key: String, _ kind: String, _ read: (JSONValue) -> T?) throws(PromptError) -> T {
            guard let value = object[key] else { throw PromptError(file: file, message: "missing `\(key)` (\(kind))") }
            guard let typed = read(value) else {
                throw PromptError(
                    file: file, location: document.location(of: JSONPointer(tokens: [key])),
                    message: "`\(key)` must be \(kind), got \(value.typeName) \(value.preview(limit: 40))")
            }
            return typed
        }
        let version = try require("version", "a whole number", \.intValue)
        let schema = try require("schema", "a schema file name", \.stringValue)
        let temperature = try require("temperature", "a number from 0 to 2") { $0.numberValue.flatMap { (0...2).contains($0) ? $0 : nil } }
        let maxTokens = try require("max_tokens", "a whole number from 1 to 32000") { $0.intValue.flatMap { (1...32000).contains($0) ? $0 : nil } }
        let seed: Int? = object["seed"] == nil ? nil : try require("seed", "a whole number", \.intValue)
        let golden = try goldenSettings(object["golden"], document: document, file: file)
        return PromptMetadata(
            version: version, description: object["description"]?.stringValue, schema: schema,
            temperature: temperature, maxTokens: maxTokens, seed: seed, golden: golden)
    }

    /// The optional `golden:` block; every key it leaves out keeps its standard value.
    private static func goldenSettings(_ value: JSONValue?, document: YAMLDocument, file: String) throws(PromptError) -> GoldenComparisonSettings {
        var settings = GoldenComparisonSettings.standard
        guard let value else { return settings }
        func problem(_ tokens: [String], _ message: String) -> PromptError {
            PromptError(file: file, location: document.location(of: JSONPointer(tokens: ["golden"] + tokens)), message: message)
        }
        guard case .object(let block) = value else {
            throw problem([], "`golden` must be a mapping of array_keys, numeric_tolerance, got \(value.typeName)")
        }
        for key in block.keys where !GoldenComparisonSettings.keys.contains(key) {
            throw problem([key], "unknown key `golden.\(key)`; expected one of " + GoldenComparisonSettings.keys.joined(separator: ", "))
        }
        if let keys = block["array_keys"] {
            guard let list = keys.arrayValue, !list.isEmpty,
                  case let names = list.compactMap(\.stringValue), names.count == list.count, !names.contains("") else {
                throw problem(["array_keys"], "`golden.array_keys` must be a list of key names, got \(keys.preview(limit: 40))")
            }
            settings.arrayKeys = names
        }
        if let tolerance = block["numeric_tolerance"] {
            guard let number = tolerance.numberValue, number >= 0 else {
                throw problem(["numeric_tolerance"], "`golden.numeric_tolerance` must be a number of at least 0, got \(tolerance.preview(limit: 40))")
            }
            settings.numericTolerance = number
        }
        return settings
    }

    /// Mustache renders unknown variables as empty text, silently; a typo would drop
    /// data from the prompt. Every tag must name a variable the step provides.
    static func checkVariables(_ template: String, allowed: Set<String>, file: String) throws(PromptError) {
        let pattern = try! NSRegularExpression(pattern: #"\{\{\s*([#^/&{]?)\s*([^}!%=>\s]+)\s*\}?\s*\}\}"#)
        let range = NSRange(template.startIndex..., in: template)
        for match in pattern.matches(in: template, range: range) {
            guard let nameRange = Range(match.range(at: 2), in: template) else { continue }
            let name = String(template[nameRange])
            guard !allowed.contains(name) else { continue }
            let offset = template.utf8.distance(from: template.startIndex, to: nameRange.lowerBound)
            let location = SourceMap(Array(template.utf8)).location(ofOffset: offset)
            let known = allowed.sorted().map { "`\($0)`" }.joined(separator: ", ")
            throw PromptError(file: file, location: location, message: "unknown variable `\(name)`; this step provides \(known)")
        }
    }
}
