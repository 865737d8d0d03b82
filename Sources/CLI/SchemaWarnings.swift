import Pipeline
import Providers

/// Warnings about step schemas the chosen provider cannot enforce.
enum SchemaWarnings {
    static func forRun(prompts: PromptLibrary, configuration: ProviderConfiguration) -> [String] {
        []
    }
}
