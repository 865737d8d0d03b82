import Foundation
import Intake

/// A throwaway project folder with the real schemas and an empty fixture folder.
struct TemporaryProject {
    let layout: ProjectLayout

    /// The repository this test file belongs to.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var repositoryLayout: ProjectLayout { ProjectLayout(root: repositoryRoot) }

    init() throws {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("trainer-eval-tests-\(UUID().uuidString)", isDirectory: true)
        layout = ProjectLayout(root: root)
        try FileManager.default.createDirectory(at: layout.prompts, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.repositoryLayout.schemas, to: layout.schemas)
        try FileManager.default.createDirectory(at: layout.fixtures, withIntermediateDirectories: true)
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        try write(name, Data(text.utf8))
    }

    @discardableResult
    func write(_ name: String, _ data: Data) throws -> URL {
        let url = layout.fixtures.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    func remove() {
        try? FileManager.default.removeItem(at: layout.root)
    }

    static let minimalScenario = """
        summary: A test person.
        program_edit:
          feedback: Fewer days please.
        """
}
