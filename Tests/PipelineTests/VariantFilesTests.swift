import Foundation
import Intake
import JSONSchema
import Providers
import Testing

@testable import Pipeline

/// What `render --variant` says of a variant's files: which replace the base's and
/// which it still takes from the base.
struct VariantFilesTests {
    @Test func aVariantNamesWhatItOverridesAndWhatItInherits() throws {
        let root = try Repository.temporaryCopy(named: "variant-files")
        defer { try? FileManager.default.removeItem(at: root) }
        let variant = root.appendingPathComponent("prompts/goal-options/variants/shorter")
        try FileManager.default.createDirectory(at: variant, withIntermediateDirectories: true)
        try "You write goal options. Write two of them.".write(to: variant.appendingPathComponent("system.md"), atomically: true, encoding: .utf8)
        let layout = ProjectLayout(root: root)
        let prompts = try PromptLibrary(layout: layout, variants: VariantSelection(resolving: ["goal-options=shorter"], layout: layout))
        let files = prompts[.goalOptions].variantFiles
        #expect(files.overridden == ["system.md"])
        #expect(files.inherited.map(\.file) == ["user.mustache", "prompt.yaml"])
        #expect(files.inherited.first?.from == "prompts/goal-options/user.mustache")
        #expect(prompts[.programDraft].variantFiles.overridden.isEmpty)
    }
}

/// A promotion changes the base, never another variant: what a variant inherited from
/// the old base becomes its own, so it sends what it sent before.
struct PromotionKeepsOtherVariantsTests {
    @Test func anotherVariantSendsTheSameRequestAfterAPromotion() throws {
        let root = try Repository.temporaryCopy(named: "promotion-others")
        defer { try? FileManager.default.removeItem(at: root) }
        let variants = root.appendingPathComponent("prompts/program-draft/variants")
        // `lean` changes the system prompt and two settings; `wordy` only its template.
        for name in ["lean", "wordy"] {
            try? FileManager.default.removeItem(at: variants.appendingPathComponent(name))
            try FileManager.default.createDirectory(at: variants.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        try "You draft programs. Keep them short.".write(to: variants.appendingPathComponent("lean/system.md"), atomically: true, encoding: .utf8)
        try "max_tokens: 900\ncompact_json: true\n".write(to: variants.appendingPathComponent("lean/prompt.yaml"), atomically: true, encoding: .utf8)
        let base = try String(contentsOf: root.appendingPathComponent("prompts/program-draft/user.mustache"), encoding: .utf8)
        try (base + "\nBe generous with cues.").write(to: variants.appendingPathComponent("wordy/user.mustache"), atomically: true, encoding: .utf8)

        let layout = ProjectLayout(root: root)
        let input = try FixturePlan.placeholderInput(for: .programDraft, fixture: try Repository.fixture("busy-parent"))
        func request(_ variant: String) throws -> CompletionRequestSummary {
            let prompts = try PromptLibrary(layout: layout, variants: VariantSelection(resolving: [variant], layout: layout))
            return CompletionRequestSummary(prompts.render(.programDraft, input: input).completionRequest)
        }
        let before = try request("program-draft=wordy")
        let promoted = try PromptPromotion(step: .programDraft, variant: "lean", keepingBaseAs: "old").apply(layout: layout)
        #expect(promoted.changedFiles.contains("prompts/program-draft/variants/wordy/system.md"))
        #expect(promoted.changedFiles.contains("prompts/program-draft/variants/wordy/prompt.yaml"))
        #expect(try request("program-draft=wordy") == before, "the other variant is what it was")
        let old = try request("program-draft=old")
        #expect(old != before && old.system == before.system, "its template is still its own; the system prompt was the old base's")
        let newBase = CompletionRequestSummary(try PromptLibrary(layout: layout).render(.programDraft, input: input).completionRequest)
        #expect(newBase.system == "You draft programs. Keep them short." && newBase.maxTokens == 900 && newBase.compactJSON)
    }
}

/// What a request sends, as a comparable value.
private struct CompletionRequestSummary: Equatable {
    var system: String
    var messages: [String]
    var maxTokens: Int
    var compactJSON: Bool
    var schema: String?

    init(_ request: CompletionRequest) {
        system = request.system
        messages = request.messages.map(\.content)
        maxTokens = request.maxTokens
        compactJSON = request.compactJSON
        schema = request.responseSchema.map { $0.serialized() }
    }
}
