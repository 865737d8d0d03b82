import Foundation
import Intake
import JSONSchema
import Mustache

/// One step's prompt, loaded from `prompts/<step>/`: the system message, the user
/// message template, the output schema and the metadata.
public struct StepPrompt: @unchecked Sendable {
    public let step: PipelineStep
    /// The variant under `prompts/<step>/variants/` this prompt was loaded with; nil for the base prompt.
    public let variant: String?
    public let system: String
    /// The template as the prompt engineer wrote it.
    public let templateText: String
    /// The variables the template names: a variable no template shows is not computed.
    public let usedVariables: Set<String>
    public let metadata: PromptMetadata
    /// The output schema as written, sent to providers.
    public let schemaDocument: JSONValue
    /// The output schema compiled for validation.
    public let schema: Schema
    /// What the model is asked for and its reply validated against: the output schema,
    /// without `program_markdown` when the markdown is rendered from the JSON.
    public let replySchemaDocument: JSONValue
    public let replySchema: Schema
    // MustacheTemplate is an immutable value once parsed; rendering does not mutate it.
    let template: MustacheTemplate
    /// Fingerprints of the parts, computed once: every request's provenance names them.
    let partFingerprints: (system: String, template: String, schema: String)
    /// The files the parts came from, relative to the project (a variant's own or the base's).
    let sourceFiles: (system: String, template: String, schema: String)
    /// The output schema's file, relative to the project.
    public var schemaFile: String { sourceFiles.schema }
    /// Whether the variant's own `prompt.yaml` is layered over the base's.
    let layersMetadata: Bool

    /// Which of a variant's files replace the base's and which it takes from the base,
    /// with the path each comes from: a variant that changes `system.md` and still
    /// sends the base's `user.mustache` shows it. Empty lists for a base prompt.
    public var variantFiles: (overridden: [String], inherited: [(file: String, from: String)]) {
        guard variant != nil else { return ([], []) }
        let inVariant = "/\(VariantTrack.folderName)/"
        var overridden: [String] = []
        var inherited: [(String, String)] = []
        for (file, path) in [("system.md", sourceFiles.system), ("user.mustache", sourceFiles.template)] {
            if path.contains(inVariant) { overridden.append(file) } else { inherited.append((file, path)) }
        }
        if layersMetadata { overridden.append("prompt.yaml (over the base's)") } else { inherited.append(("prompt.yaml", "prompts/\(step.rawValue)/prompt.yaml")) }
        // A schema from prompts/schemas/ is named by prompt.yaml, so it is the variant's choice either way.
        if sourceFiles.schema.contains(inVariant) { overridden.append(PromptVariants.schemaFile) }
        return (overridden, inherited)
    }
    /// The URI the schema's relative references resolve against.
    let schemaBaseURI: String

    init(
        step: PipelineStep, variant: String? = nil, system: String, templateText: String, metadata: PromptMetadata,
        schemaDocument: JSONValue, schema: Schema, template: MustacheTemplate, sourceFiles: (system: String, template: String, schema: String)? = nil,
        reply: (document: JSONValue, schema: Schema)? = nil, baseURI: String? = nil, layersMetadata: Bool = false
    ) {
        self.layersMetadata = layersMetadata
        replySchemaDocument = reply?.document ?? schemaDocument
        replySchema = reply?.schema ?? schema
        schemaBaseURI = baseURI ?? ""
        self.step = step
        self.variant = variant
        self.system = system
        self.templateText = templateText
        usedVariables = Set(Self.variableTags(in: templateText).map(\.name))
        self.metadata = metadata
        self.schemaDocument = schemaDocument
        self.schema = schema
        self.template = template
        self.sourceFiles = sourceFiles ?? (
            "prompts/\(step.rawValue)/system.md", "prompts/\(step.rawValue)/user.mustache", "prompts/schemas/\(metadata.schema)"
        )
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
        ].joined(separator: "\u{0}") + (metadata.markdown.map { "\u{0}markdown \($0.rawValue)" } ?? "")
            + (metadata.schemaFromIntake == true ? "\u{0}schema from intake" : "")
            + (metadata.compactJSON == true ? "\u{0}compact json" : "")
            + (metadata.minutes.map { "\u{0}minutes \($0.rawValue)" } ?? "")
            + (metadata.progression.map { "\u{0}progression \($0.rawValue)" } ?? "")
            + (metadata.edit.map { "\u{0}edit \($0.rawValue)" } ?? "")
            + (metadata.plan.map { "\u{0}plan \($0.rawValue)" } ?? "")
            + (metadata.guardrails == true ? "\u{0}guardrails" : ""))
    }

    /// The variables each step's template may use.
    public static let variables = Dictionary(uniqueKeysWithValues: PipelineStep.allCases.map { ($0, variables(of: $0)) })

    /// What a step's template may use follows from what the step is (`PipelineStep.traits`):
    /// every step sees the intake; an edit sees what it revises and the feedback; a
    /// program step sees the confirmed goal, the intake's limits and what the backend decided.
    static func variables(of step: PipelineStep) -> Set<String> {
        var names: Set<String> = ["intake_json", "skipped_fields"]
        switch step.traits.output {
        case .options:
            names.formUnion([OptionLayout.variableName, "goal_answers_json"])
            if step.edits { names.formUnion(["current_options_json", "current_options_text", "earlier_feedback_json", "feedback_json"]) }
        case .program:
            names.formUnion(IntakeLimits.variableNames)
            names.formUnion(["confirmed_goal_json", "health_cautions", "exercise_menu", ProgramPlan.variableName, SessionLayout.variableName])
            if step.edits { names.formUnion(["current_program_json", "current_program_text", "feedback_json"]) }
        }
        return names
    }

    /// Loads and checks the folder for `step`; with a `variant`, each file its folder
    /// under `prompts/<step>/variants/` holds replaces the base's (`prompt.yaml` key by key).
    public static func load(_ step: PipelineStep, layout: ProjectLayout, variant: String? = nil) throws(PromptError) -> StepPrompt {
        let folder = layout.prompts.appendingPathComponent(step.rawValue, isDirectory: true)
        var variantFiles: Set<String> = []
        var variantFolder: URL?
        if let variant {
            let url = PromptVariants.folder(of: step, variant: variant, layout: layout)
            variantFiles = try PromptVariants.files(in: url, layout: layout)
            variantFolder = url
        }
        func source(_ name: String) -> URL {
            guard let variantFolder, variantFiles.contains(name) else { return folder.appendingPathComponent(name) }
            return variantFolder.appendingPathComponent(name)
        }
        let systemURL = source("system.md")
        let system = try readText(systemURL, layout: layout)
        let templateURL = source("user.mustache")
        let templateText = try readText(templateURL, layout: layout)
        var metadataLayers = [folder.appendingPathComponent("prompt.yaml")]
        if let variantFolder, variantFiles.contains("prompt.yaml") { metadataLayers.append(variantFolder.appendingPathComponent("prompt.yaml")) }
        let metadata = try loadMetadata(metadataLayers, layout: layout)
        let programOnly = [("markdown", metadata.markdown != nil), ("schema_from_intake", metadata.schemaFromIntake != nil), ("minutes", metadata.minutes != nil), ("progression", metadata.progression != nil)]
        if let key = programOnly.first(where: \.1)?.0, !step.writesProgram {
            throw PromptError(file: layout.displayPath(of: metadataLayers.last!), message: "`\(key)` applies to the program steps only (\(PipelineStep.allCases.filter(\.writesProgram).map(\.rawValue).joined(separator: ", ")))")
        }
        if metadata.edit != nil, !(step.writesProgram && step.edits) {
            throw PromptError(file: layout.displayPath(of: metadataLayers.last!), message: "`edit` applies to program-edit only")
        }
        if metadata.pinsPlan, step.writesProgram, !metadata.rendersMarkdown {
            throw PromptError(
                file: layout.displayPath(of: metadataLayers.last!),
                message: "`plan: pinned` needs `markdown: rendered`: a program the backend expands has no markdown from the model")
        }
        if metadata.pinsPlan, step.writesProgram, step.edits, !metadata.editsByOperations {
            throw PromptError(
                file: layout.displayPath(of: metadataLayers.last!), message: "`plan: pinned` on program-edit needs `edit: operations`")
        }
        if metadata.editsByOperations, !metadata.rendersMarkdown {
            throw PromptError(
                file: layout.displayPath(of: metadataLayers.last!),
                message: "`edit: operations` needs `markdown: rendered`: a program revised by operations has no markdown from the model")
        }
        try checkVariables(templateText, allowed: variables[step] ?? [], file: layout.displayPath(of: templateURL))
        let template: MustacheTemplate
        do {
            // TEXT: no HTML escaping, so a user's apostrophe or <tag> reaches the model unchanged.
            template = try MustacheTemplate(string: "{{% CONTENT_TYPE: TEXT}}" + templateText)
        } catch {
            throw PromptError(file: layout.displayPath(of: templateURL), message: "template syntax: \(error)")
        }
        let schemaURL = variantFiles.contains(PromptVariants.schemaFile)
            ? source(PromptVariants.schemaFile) : layout.schemas.appendingPathComponent(metadata.schema)
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
            throw PromptError(
                file: layout.displayPath(of: metadataLayers.last!),
                message: "schema `\(metadata.schema)` cannot be read from prompts/schemas/: \(error.localizedDescription)")
        }
        var reply: (JSONValue, Schema)?
        var replyDocument = schemaDocument
        if metadata.rendersMarkdown {
            replyDocument = try Self.leavingOut(ProgramMarkdown.outputKey, at: [], of: replyDocument, file: schemaFile, because: "`markdown: rendered`")
        }
        if metadata.leavesOutMinutes {
            replyDocument = try Self.leavingOut(
                ProgramMinutes.sessionKey, at: ProgramMinutes.sessionSchema, of: replyDocument, file: schemaFile, because: "`minutes: rendered`")
            replyDocument = try Self.leavingOut(
                ProgramMinutes.programKey, at: ProgramMinutes.programSchema, of: replyDocument, file: schemaFile, because: "`minutes: rendered`")
        }
        if metadata.rendersProgression {
            replyDocument = try Self.changing(
                ProgramProgression.key, at: ProgramProgression.programSchema, of: replyDocument, to: ProgramProgression.replySchema,
                file: schemaFile, because: "`progression: rendered`")
        }
        if metadata.editsByOperations {
            for name in ProgramOperations.requiredDefinitions where replyDocument["$defs"]?[name] == nil {
                throw PromptError(file: schemaFile, message: "`edit: operations` needs a schema with /$defs/\(name) to build operations from")
            }
        }
        if replyDocument != schemaDocument {
            do {
                reply = (replyDocument, try Schema(replyDocument, baseURI: schemaURL.absoluteString))
            } catch {
                throw PromptError(file: schemaFile, message: "invalid schema once the rendered parts are left out: \(error)")
            }
        }
        return StepPrompt(
            step: step, variant: variant, system: system, templateText: templateText, metadata: metadata,
            schemaDocument: schemaDocument, schema: schema, template: template,
            sourceFiles: (layout.displayPath(of: systemURL), layout.displayPath(of: templateURL), schemaFile), reply: reply,
            baseURI: schemaURL.absoluteString, layersMetadata: metadataLayers.count > 1)
    }

    /// The schema without the property `key` of the object schema at `path`: a part the
    /// harness renders is not asked of the model.
    private static func leavingOut(_ key: String, at path: [String], of document: JSONValue, file: String, because setting: String) throws(PromptError) -> JSONValue {
        try changing(key, at: path, of: document, to: nil, file: file, because: setting)
    }

    /// The schema with the property `key` of the object schema at `path` asked for as
    /// `replacement`, or left out (and no longer required) when it is nil.
    private static func changing(
        _ key: String, at path: [String], of document: JSONValue, to replacement: JSONValue?, file: String, because setting: String
    ) throws(PromptError) -> JSONValue {
        let pointer = JSONPointer(tokens: path)
        guard case .object(var object)? = pointer.resolve(in: document), case .object(var properties)? = object["properties"],
              properties[key] != nil else {
            let purpose = replacement == nil ? "to leave out of the request" : "to ask for in another form"
            throw PromptError(file: file, message: "\(setting) needs a schema with \(pointer.appending("properties").appending(key)) \(purpose)")
        }
        properties[key] = replacement
        object["properties"] = .object(properties)
        if replacement == nil, let required = object["required"]?.arrayValue {
            object["required"] = .array(required.filter { $0.stringValue != key })
        }
        return replacing(path[...], in: document, with: .object(object))
    }

    private static func replacing(_ path: ArraySlice<String>, in value: JSONValue, with replacement: JSONValue) -> JSONValue {
        guard let key = path.first else { return replacement }
        guard case .object(var object) = value, let child = object[key] else { return value }
        object[key] = replacing(path.dropFirst(), in: child, with: replacement)
        return .object(object)
    }

    /// The user message for `variables` (values absent from the dictionary are falsy sections).
    func renderUserMessage(_ variables: [String: String]) -> String {
        template.render(variables as [String: Any]).trimmingWhitespace
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

    /// Reads `prompt.yaml` files, each later one overriding the keys it holds.
    private static func loadMetadata(_ layers: [URL], layout: ProjectLayout) throws(PromptError) -> PromptMetadata {
        var object: [String: JSONValue] = [:]
        var origin: [String: (document: YAMLDocument, file: String)] = [:]
        for url in layers {
            let file = layout.displayPath(of: url)
            let text = try readText(url, layout: layout)
            let document: YAMLDocument
            do {
                document = try YAMLDocument(text: text)
            } catch {
                throw PromptError(file: file, location: error.location, message: error.reason)
            }
            guard case .object(let layer) = document.value else {
                throw PromptError(file: file, message: "expected a mapping of version, schema, temperature, max_tokens, seed")
            }
            for member in layer {
                guard PromptMetadata.keys.contains(member.key) else {
                    throw PromptError(
                        file: file, location: document.location(of: JSONPointer(tokens: [member.key])),
                        message: "unknown key `\(member.key)`; expected one of " + PromptMetadata.keys.joined(separator: ", "))
                }
                object[member.key] = member.value
                origin[member.key] = (document, file)
            }
        }
        let baseFile = layout.displayPath(of: layers[0])
        func require<T>(_ key: String, _ kind: String, _ read: (JSONValue) -> T?) throws(PromptError) -> T {
            guard let value = object[key], let (document, file) = origin[key] else {
                throw PromptError(file: baseFile, message: "missing `\(key)` (\(kind))")
            }
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
        let markdown: MarkdownSource? = object["markdown"] == nil ? nil
            : try require("markdown", "model or rendered") { $0.stringValue.flatMap(MarkdownSource.init(rawValue:)) }
        let schemaFromIntake: Bool? = object["schema_from_intake"] == nil ? nil : try require("schema_from_intake", "true or false", \.boolValue)
        let compactJSON: Bool? = object["compact_json"] == nil ? nil : try require("compact_json", "true or false", \.boolValue)
        let minutes: MinutesSource? = object["minutes"] == nil ? nil
            : try require("minutes", "model, rendered or recomputed") { $0.stringValue.flatMap(MinutesSource.init(rawValue:)) }
        let progression: ProgressionSource? = object["progression"] == nil ? nil
            : try require("progression", "model or rendered") { $0.stringValue.flatMap(ProgressionSource.init(rawValue:)) }
        let edit: EditForm? = object["edit"] == nil ? nil
            : try require("edit", "program or operations") { $0.stringValue.flatMap(EditForm.init(rawValue:)) }
        let plan: PlanSource? = object["plan"] == nil ? nil
            : try require("plan", "model or pinned") { $0.stringValue.flatMap(PlanSource.init(rawValue:)) }
        let guardrails: Bool? = object["guardrails"] == nil ? nil : try require("guardrails", "true or false", \.boolValue)
        let golden = try origin["golden"].map { (document, file) throws(PromptError) in
            try goldenSettings(object["golden"], document: document, file: file)
        } ?? .standard
        return PromptMetadata(
            version: version, description: object["description"]?.stringValue, schema: schema,
            temperature: temperature, maxTokens: maxTokens, seed: seed, golden: golden, markdown: markdown,
            schemaFromIntake: schemaFromIntake, compactJSON: compactJSON, minutes: minutes, progression: progression, edit: edit,
            plan: plan, guardrails: guardrails)
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

    private static let variableTag = try! NSRegularExpression(pattern: #"\{\{\s*([#^/&{]?)\s*([^}!%=>\s]+)\s*\}?\s*\}\}"#)

    /// Every variable tag of a template (values, sections, inverted sections), in order.
    static func variableTags(in template: String) -> [(name: String, range: Range<String.Index>)] {
        variableTag.matches(in: template, range: NSRange(template.startIndex..., in: template)).compactMap { match in
            Range(match.range(at: 2), in: template).map { (String(template[$0]), $0) }
        }
    }

    /// Mustache renders unknown variables as empty text, silently; a typo would drop
    /// data from the prompt. Every tag must name a variable the step provides.
    static func checkVariables(_ template: String, allowed: Set<String>, file: String) throws(PromptError) {
        for (name, nameRange) in variableTags(in: template) {
            guard !allowed.contains(name) else { continue }
            let offset = template.utf8.distance(from: template.startIndex, to: nameRange.lowerBound)
            let location = SourceMap(Array(template.utf8)).location(ofOffset: offset)
            let known = allowed.sorted().map { "`\($0)`" }.joined(separator: ", ")
            throw PromptError(file: file, location: location, message: "unknown variable `\(name)`; this step provides \(known)")
        }
    }
}
