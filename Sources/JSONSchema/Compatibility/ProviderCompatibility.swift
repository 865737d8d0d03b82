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
        for member in object {
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
                add(here, keyword, .rejected, "OpenAI strict mode does not support `\(keyword)`; remove it and check the rule in code")
            } else if keyword == "format", let format = value.stringValue, !ProviderRules.openAIFormats.contains(format) {
                add(here, keyword, .rejected, "OpenAI strict mode does not support format \"\(format)\"")
            }
        case .anthropic:
            if keyword == "minItems", let count = value.intValue, count > 1 {
                add(here, keyword, .rejected, "Anthropic strict mode supports only `minItems` 0 or 1 (here \(count)); check the count in code")
            } else if ProviderRules.anthropicUnsupported.contains(keyword) {
                add(here, keyword, .rejected, "Anthropic strict mode does not support `\(keyword)`; remove it and check the rule in code")
            } else if keyword == "format", let format = value.stringValue, !ProviderRules.anthropicFormats.contains(format) {
                add(here, keyword, .ignored, "Anthropic does not enforce format \"\(format)\"")
            }
        case .gemini:
            if keyword == "format", let format = value.stringValue, !ProviderRules.geminiFormats.contains(format) {
                add(here, keyword, .ignored, "Gemini ignores format \"\(format)\" (it supports date-time and enum for strings)")
            } else if keyword == "type", case .array(let types) = value {
                let hint = types.contains(.string("null")) ? "; use `nullable: true` with a single type" : ""
                add(here, keyword, .ignored, "Gemini does not accept a list of types\(hint)")
            } else if !ProviderRules.geminiSupported.contains(keyword) {
                add(here, keyword, .ignored, "Gemini ignores `\(keyword)`; the output may break this rule, so check it in code")
            }
        }
        if keyword == "$ref", let reference = value.stringValue {
            checkReference(reference, at: here)
        }
    }

    private mutating func checkObject(_ object: JSONObject, at location: JSONPointer) {
        guard provider != .gemini else { return }
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
            let severity: CompatibilityIssue.Severity = provider == .gemini ? .ignored : .rejected
            add(location, "$ref", severity, "only references within the schema (\"#/...\") are supported, not \"\(reference)\"")
            return
        }
        if provider == .anthropic, isRecursive(reference) {
            add(location, "$ref", .rejected, "Anthropic strict mode does not support recursive schemas (\"\(reference)\" refers back to itself)")
        }
    }

    /// Whether following local references from `reference` can come back to it.
    private func isRecursive(_ reference: String) -> Bool {
        guard let start = JSONPointer(URIReference.percentDecoded(String(reference.dropFirst()))) else { return false }
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
                   let pointer = JSONPointer(URIReference.percentDecoded(String(text.dropFirst())))
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
