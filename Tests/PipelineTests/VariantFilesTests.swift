import Foundation
import Intake
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
