import Intake
import JSONSchema
import Pipeline
import Providers

/// Warnings, once per run, about schema keywords the chosen provider cannot enforce.
enum SchemaWarnings {
    static func forRun(prompts: PromptLibrary, configuration: ProviderConfiguration) -> [String] {
        guard let provider = structuredOutputProvider(for: configuration) else { return [] }
        var warnings: [String] = []
        var seen: Set<String> = []
        for step in PipelineStep.allCases {
            let prompt = prompts[step]
            guard seen.insert(prompt.metadata.schema).inserted else { continue }
            let issues = providerCompatibilityIssues(schema: prompt.schemaDocument, provider: provider)
            guard !issues.isEmpty else { continue }
            let keywords = Set(issues.map(\.keyword)).sorted().joined(separator: ", ")
            warnings.append(
                "prompts/schemas/\(prompt.metadata.schema): \(configuration.preset.rawValue) cannot enforce \(issues.count) keyword use\(issues.count == 1 ? "" : "s") (\(keywords)); they are checked after the reply instead. First: \(issues[0])")
        }
        return warnings
    }

    /// Which provider's structured-output rules apply, if any.
    static func structuredOutputProvider(for configuration: ProviderConfiguration) -> StructuredOutputProvider? {
        switch configuration.preset {
        case .anthropic: return .anthropic
        case .gemini: return .gemini
        case .openai, .openaiCompatible:
            return configuration.structuredOutput == .jsonSchema ? .openai : nil
        case .local: return nil
        }
    }
}
