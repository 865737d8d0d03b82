import Foundation
import Providers
import Testing

@testable import Pipeline

/// The warnings `run` prints about schema keywords a provider cannot enforce name only
/// the schemas of the steps the run reaches.
struct SchemaWarningsTests {
    @Test func aRunIsWarnedAboutTheSchemasOfTheStepsItReachesOnly() throws {
        let prompts = try PromptLibrary(layout: Repository.layout)
        let anthropic = ProviderConfiguration(preset: .anthropic)
        func schemas(_ warnings: [String]) -> [String] {
            warnings.compactMap { $0.split(separator: ":").first.map(String.init) }
        }
        #expect(schemas(SchemaWarnings.forRun(prompts: prompts, configuration: anthropic, through: .goalOptions))
                == ["prompts/schemas/goal-options-v6.schema.json"])
        let whole = SchemaWarnings.forRun(prompts: prompts, configuration: anthropic)
        #expect(schemas(whole) == [
            "prompts/schemas/goal-options-v6.schema.json", "prompts/schemas/program-v5.schema.json", "prompts/schemas/program-edit-v5.schema.json",
        ])
        #expect(whole[1].contains("anthropic cannot enforce") && whole[1].contains("(maxItems, maxLength, maximum, minItems, minLength, minimum, uniqueItems)"),
                "\(whole[1])")
        #expect(SchemaWarnings.forRun(prompts: prompts, configuration: anthropic, through: .programDraft).count == 2)
        // The program steps send llama.cpp a grammar of their own (`compact_json`), which holds every keyword.
        #expect(SchemaWarnings.forRun(prompts: prompts, configuration: ProviderConfiguration(preset: .local)).isEmpty)
    }
}
