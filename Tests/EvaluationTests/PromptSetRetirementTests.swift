import Evaluation
import Foundation
import Intake
import Testing

/// Retiring is one step: a folder that cannot be moved leaves every folder in place.
struct PromptSetRetirementTests {
    static func project() throws -> ProjectLayout {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("retire-\(UUID().uuidString)")
        for path in ["prompts/goal-options/variants/old/system.md", "prompts/program-draft/variants/old/system.md",
                     "golden/variants/goal-options=old+program-draft=old/sam/goal-options.json"] {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try "x".write(to: url, atomically: true, encoding: .utf8)
        }
        return ProjectLayout(root: root)
    }

    @Test func aFolderThatCannotBeMovedPutsBackTheOnesAlreadyMoved() throws {
        let layout = try Self.project()
        defer { try? FileManager.default.removeItem(at: layout.root) }
        let retirement = try PromptSetRetirement(name: "old", layout: layout)
        #expect(retirement.promptFolders.map(\.path) == ["prompts/goal-options/variants/old", "prompts/program-draft/variants/old"])
        #expect(retirement.goldenFolders.map(\.path) == ["golden/variants/goal-options=old+program-draft=old"])
        #expect(retirement.goldenFolders.map(\.files) == [1])

        // The golden folder goes away between the plan and its application: the move fails
        // after both prompt folders were moved aside.
        let golden = layout.root.appendingPathComponent("golden/variants/goal-options=old+program-draft=old")
        let elsewhere = layout.root.appendingPathComponent("elsewhere")
        try FileManager.default.moveItem(at: golden, to: elsewhere)
        #expect(throws: PromptSetRetirementError.self) { try retirement.apply(layout: layout) }
        for path in ["prompts/goal-options/variants/old/system.md", "prompts/program-draft/variants/old/system.md"] {
            #expect(FileManager.default.fileExists(atPath: layout.root.appendingPathComponent(path).path), "\(path) is back")
        }
        #expect(!((try? FileManager.default.contentsOfDirectory(atPath: layout.root.path)) ?? []).contains { $0.hasPrefix(".retiring") })

        try FileManager.default.moveItem(at: elsewhere, to: golden)
        try retirement.apply(layout: layout)
        #expect(!FileManager.default.fileExists(atPath: layout.root.appendingPathComponent("prompts/goal-options/variants").path), "an emptied variants folder goes too")
        #expect(!FileManager.default.fileExists(atPath: golden.path))
    }
}
