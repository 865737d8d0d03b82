import Intake
import JSONSchema
import Providers

/// Warnings, once per run, about schema keywords the chosen provider cannot enforce.
public enum SchemaWarnings {
    /// One warning per schema file the run's steps use (steps sharing a schema share its
    /// warning); a run that stops after `lastStep` is not warned about the steps after it.
    public static func forRun(prompts: PromptLibrary, configuration: ProviderConfiguration, through lastStep: StepSelector? = nil) -> [String] {
        guard let rules = configuration.structuredOutputRules else { return [] }
        var warnings: [String] = []
        var seen: Set<String> = []
        for step in PipelineStep.allCases where lastStep?.reaches(step) ?? true {
            let prompt = prompts[step]
            let compact = rules == .llamaCppGrammar && prompt.metadata.compactJSON == true
            guard seen.insert(prompt.metadata.schema + (compact ? " compact" : "")).inserted else { continue }
            var issues = providerCompatibilityIssues(schema: prompt.replySchemaDocument, provider: rules)
            if compact {
                // Such a step is sent its own grammar, which holds more than llama.cpp's.
                issues.removeAll { CompactJSONGrammar.enforces($0, in: prompt.replySchemaDocument) }
            }
            guard !issues.isEmpty else { continue }
            let keywords = Set(issues.map(\.keyword)).sorted().joined(separator: ", ")
            warnings.append(
                "prompts/schemas/\(prompt.metadata.schema): \(configuration.structuredOutputLabel) cannot enforce \(issues.count) keyword use\(issues.count == 1 ? "" : "s") (\(keywords)); \(issues.count == 1 ? "it is" : "they are") checked after the reply instead. First: \(issues[0])")
        }
        return warnings
    }
}
