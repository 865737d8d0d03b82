import Foundation
import Intake
import JSONSchema

/// A YAML rules file of the prompts folder (`intake-limits.yaml`, `program-plan.yaml`),
/// parsed, with a way to name a value at fault by its file and line.
struct RulesFile {
    let document: YAMLDocument
    /// The file's path relative to the project, as messages name it.
    let display: String

    /// The file at `url`, nil when the project has none; a file that is not YAML is an error naming its line.
    static func read(_ url: URL, layout: ProjectLayout) throws(PromptError) -> RulesFile? {
        let display = layout.displayPath(of: url)
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        do {
            return RulesFile(document: try YAMLDocument(text: String(decoding: data, as: UTF8.self)), display: display)
        } catch {
            throw PromptError(file: display, location: error.location, message: error.reason)
        }
    }

    /// An error about the value at `tokens`, located at its line.
    func problem(_ tokens: [String], _ message: String) -> PromptError {
        PromptError(file: display, location: document.location(of: JSONPointer(tokens: tokens)), message: message)
    }
}
