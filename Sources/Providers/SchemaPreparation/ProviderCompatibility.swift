import JSONSchema

/// Every keyword in `schema` that `provider`'s structured-output mode rejects
/// or silently ignores, in schema document order. The whole schema is walked,
/// `$defs` included.
public func providerCompatibilityIssues(schema: JSONValue, provider: StructuredOutputProvider) -> [CompatibilityIssue] {
    var checker = CompatibilityChecker(provider: provider, root: schema)
    checker.checkRoot()
    return checker.issues
}

/// Walks a schema and applies one provider's rules (see `ProviderRules`).
struct CompatibilityChecker {
    let provider: StructuredOutputProvider
    let root: JSONValue
    private(set) var issues: [CompatibilityIssue] = []

    init(provider: StructuredOutputProvider, root: JSONValue) {
        self.provider = provider
        self.root = root
    }

    mutating func checkRoot() {
        if provider == .openai {
            let type = root["type"]
            if type != .string("object") || root["anyOf"] != nil {
                add(.root, "type", .rejected, "the root schema must be `\"type\": \"object\"` (not a union or another type)")
            }
        }
        check(root, at: .root, depth: 0)
    }

    private mutating func check(_ schema: JSONValue, at location: JSONPointer, depth: Int) {
        guard case .object(let object) = schema else { return }
        if provider == .openai, depth == 11 {
            add(location, "type", .rejected, "nested more than 10 levels deep; OpenAI allows at most 10")
        }
        let hidden = checkHiddenSiblings(object, at: location)
        for member in object where !hidden.contains(member.key) {
            checkKeyword(member.key, member.value, in: object, at: location)
        }
        if isObjectSchema(object) { checkObject(object, at: location) }
        for member in object {
            let deeper = ["properties", "additionalProperties", "items", "prefixItems"].contains(member.key) ? depth + 1 : depth
            switch SchemaKeywords.shape(of: member.key) {
            case .schema:
                check(member.value, at: location.appending(member.key), depth: deeper)
            case .schemaArray:
                for (index, element) in (member.value.arrayValue ?? []).enumerated() {
                    check(element, at: location.appending(member.key).appending(index), depth: deeper)
                }
            case .schemaMap:
                for entry in member.value.objectValue ?? JSONObject() {
                    check(entry.value, at: location.appending(member.key).appending(entry.key), depth: deeper)
                }
            case .none:
                break
            }
        }
    }

    private mutating func checkKeyword(_ keyword: String, _ value: JSONValue, in object: JSONObject, at location: JSONPointer) {
        if ProviderRules.metadata.contains(keyword) { return }
        let here = location.appending(keyword)
        switch provider {
        case .openai:
            if ProviderRules.openAIUnsupported.contains(keyword) {
                add(here, keyword, .rejected, "OpenAI strict mode does not support `\(keyword)`; the request leaves it out and the validator checks it after the reply")
            } else if keyword == "format", let format = value.stringValue, !ProviderRules.openAIFormats.contains(format) {
                add(here, keyword, .rejected, "OpenAI strict mode does not support format \"\(format)\"")
            }
        case .anthropic:
            if keyword == "minItems", let count = value.intValue, count > 1 {
                add(here, keyword, .rejected, "Anthropic strict mode supports only `minItems` 0 or 1 (here \(count)); the request leaves it out and the validator checks it after the reply")
            } else if ProviderRules.anthropicUnsupported.contains(keyword) {
                add(here, keyword, .rejected, "Anthropic strict mode does not support `\(keyword)`; the request leaves it out and the validator checks it after the reply")
            } else if keyword == "format", let format = value.stringValue, !ProviderRules.anthropicFormats.contains(format) {
                add(here, keyword, .ignored, "Anthropic does not enforce format \"\(format)\"")
            }
        case .gemini:
            if keyword == "format", let format = value.stringValue, !ProviderRules.geminiFormats.contains(format) {
                add(here, keyword, .ignored, "Gemini does not enforce format \"\(format)\"; the validator checks it after the reply")
            } else if keyword == "oneOf" {
                add(here, keyword, .ignored, "Gemini reads `oneOf` as `anyOf`: that exactly one branch matches is not enforced")
            } else if keyword == "enum", value.arrayValue?.contains(where: { $0.stringValue == nil && $0.numberValue == nil }) == true {
                add(here, keyword, .ignored, "Gemini supports `enum` of strings and numbers only; the validator checks the other values after the reply")
            } else if !ProviderRules.geminiSupported.contains(keyword) {
                add(here, keyword, .ignored, "Gemini ignores `\(keyword)`; the reply may break this rule, and the validator checks it after the reply")
            }
        case .llamaCppGrammar:
            checkGrammarKeyword(keyword, value, in: object, at: here)
        }
        if keyword == "$ref", let reference = value.stringValue {
            checkReference(reference, at: here)
        }
    }

    /// Keywords a provider never looks at because of another keyword in the same schema,
    /// each reported once here.
    private mutating func checkHiddenSiblings(_ object: JSONObject, at location: JSONPointer) -> Set<String> {
        var hidden: [String] = []
        switch provider {
        case .gemini where object["$ref"] != nil:
            for member in object where !member.key.hasPrefix("$") {
                add(location.appending(member.key), member.key, .rejected,
                    "Gemini allows only keywords starting with `$` beside `$ref`; move `\(member.key)` into the referenced schema")
                hidden.append(member.key)
            }
        case .llamaCppGrammar:
            // The converter follows the first of these it finds and looks at nothing else.
            let winner = object["$ref"] != nil ? "$ref" : object["allOf"] != nil ? nil
                : object["oneOf"] != nil ? "oneOf" : object["anyOf"] != nil ? "anyOf" : nil
            guard let winner else { break }
            for member in object where member.key != winner
                && !ProviderRules.metadata.contains(member.key) && !ProviderRules.structural.contains(member.key)
            {
                add(location.appending(member.key), member.key, .ignored,
                    "llama.cpp's grammar follows only `\(winner)` here, so `\(member.key)` beside it is not enforced")
                hidden.append(member.key)
            }
        default:
            break
        }
        return Set(hidden)
    }

    private mutating func checkGrammarKeyword(_ keyword: String, _ value: JSONValue, in object: JSONObject, at here: JSONPointer) {
        let exhaustive = object["enum"] != nil || object["const"] != nil
        switch keyword {
        case _ where ProviderRules.grammarUnsupported.contains(keyword):
            add(here, keyword, .ignored, "llama.cpp's grammar does not enforce `\(keyword)`; the validator checks it after the reply")
        case "oneOf":
            add(here, keyword, .ignored, "llama.cpp reads `oneOf` as `anyOf`: that exactly one branch matches is not enforced")
        case "pattern":
            if let pattern = value.stringValue, !(pattern.hasPrefix("^") && pattern.hasSuffix("$")) {
                add(here, keyword, .ignored,
                    "llama.cpp converts only patterns anchored with `^` and `$`; any other fails the conversion and llama-cpp-python falls back to plain JSON, enforcing none of the schema")
            }
        case "format":
            guard !exhaustive, let format = value.stringValue else { break }
            if object["pattern"] != nil {
                add(here, keyword, .ignored, "llama.cpp's grammar follows `pattern` here, so format \"\(format)\" is not enforced")
            } else if !ProviderRules.grammarFormats.contains(format) {
                add(here, keyword, .ignored, "llama.cpp's grammar has no rule for format \"\(format)\"; the validator checks it after the reply")
            }
        case "minLength", "maxLength":
            guard !exhaustive else { break }
            if !LlamaGrammarSchema.keepsLength(value) {
                add(here, keyword, .ignored,
                    "bounds over \(LlamaGrammarSchema.lengthLimit) are not sent to llama.cpp's grammar (it refuses those over 2,000); the validator checks them after the reply")
            } else if object["pattern"] != nil {
                add(here, keyword, .ignored, "llama.cpp's grammar follows `pattern` here, so `\(keyword)` is not enforced")
            } else if let format = object["format"]?.stringValue, ProviderRules.grammarFormats.contains(format) {
                add(here, keyword, .ignored, "llama.cpp's grammar follows format \"\(format)\" here, so `\(keyword)` is not enforced")
            }
        case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
            guard !exhaustive else { break }
            let spelledOut = LlamaGrammarSchema.spelledOutRange(of: object) != nil && ["minimum", "maximum"].contains(keyword)
            if !spelledOut {
                add(here, keyword, .ignored,
                    "llama-cpp-python's grammar does not enforce `\(keyword)`; only an integer `minimum`...`maximum` range of under \(LlamaGrammarSchema.enumLimit) values is, sent as an `enum`")
            }
        default:
            break
        }
    }

    private mutating func checkObject(_ object: JSONObject, at location: JSONPointer) {
        guard provider == .openai || provider == .anthropic else { return }
        let additional = object["additionalProperties"]
        if additional != .bool(false), additional != nil || provider == .openai {
            add(location.appending("additionalProperties"), "additionalProperties", .rejected,
                "every object needs `\"additionalProperties\": false` in \(provider == .openai ? "OpenAI" : "Anthropic") strict mode")
        }
        guard provider == .openai, let properties = object["properties"]?.objectValue else { return }
        let required = Set((object["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        for name in properties.keys where !required.contains(name) {
            add(location.appending("properties").appending(name), "required", .rejected,
                "property `\(name)` must be listed in `required` (OpenAI strict mode requires every property; make it optional with a null type instead)")
        }
    }

    private mutating func checkReference(_ reference: String, at location: JSONPointer) {
        guard reference.hasPrefix("#") else {
            let severity: CompatibilityIssue.Severity = [.gemini, .llamaCppGrammar].contains(provider) ? .ignored : .rejected
            add(location, "$ref", severity, "only references within the schema (\"#/...\") are supported, not \"\(reference)\"")
            return
        }
        if provider == .anthropic, isRecursive(reference) {
            add(location, "$ref", .rejected, "Anthropic strict mode does not support recursive schemas (\"\(reference)\" refers back to itself)")
        }
    }

    /// Whether following local references from `reference` can come back to it.
    private func isRecursive(_ reference: String) -> Bool {
        guard let start = JSONPointer.fromURIFragment(String(reference.dropFirst())) else { return false }
        var pending = [start]
        var visited: Set<JSONPointer> = []
        while let pointer = pending.popLast() {
            guard visited.insert(pointer).inserted, let target = pointer.resolve(in: root) else { continue }
            for next in Self.localReferences(in: target) {
                if start.tokens.starts(with: next.tokens) { return true }
                pending.append(next)
            }
        }
        return false
    }

    private static func localReferences(in value: JSONValue) -> [JSONPointer] {
        switch value {
        case .object(let object):
            var found: [JSONPointer] = []
            for member in object {
                if member.key == "$ref", let text = member.value.stringValue, text.hasPrefix("#"),
                   let pointer = JSONPointer.fromURIFragment(String(text.dropFirst()))
                {
                    found.append(pointer)
                } else {
                    found += localReferences(in: member.value)
                }
            }
            return found
        case .array(let elements):
            return elements.flatMap(localReferences)
        default:
            return []
        }
    }

    private func isObjectSchema(_ object: JSONObject) -> Bool {
        if object["type"] == .string("object") { return true }
        if case .array(let types) = object["type"], types.contains(.string("object")) { return true }
        return object["properties"] != nil
    }

    private mutating func add(_ location: JSONPointer, _ keyword: String, _ severity: CompatibilityIssue.Severity, _ message: String) {
        issues.append(CompatibilityIssue(location: location, keyword: keyword, severity: severity, message: message))
    }
}
