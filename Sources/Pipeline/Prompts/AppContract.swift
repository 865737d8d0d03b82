import Foundation
import Intake
import JSONSchema

/// What the app accepts from a step (`prompts/schemas/contract/`): the shape its
/// `Codable` types decode, the same whatever prompt set wrote the output. It judges
/// outputs in `check` and the gate. A prompt set's reply schema (`prompt.yaml`'s
/// `schema`) only shapes the request: a model may be held to less than the app takes,
/// and a reply that meets the contract but not its reply schema is said to, not refused.
public struct AppContract: Sendable {
    /// The schema file, relative to the project.
    public let file: String
    public let schema: Schema

    /// The folder under `prompts/schemas/` that holds the contracts.
    public static let folderName = "contract"

    /// The contract's file name for `step`: options steps share one, program steps another.
    public static func fileName(for step: PipelineStep) -> String {
        step == .goalOptions || step.editsOptions ? "goal-options.schema.json" : "program.schema.json"
    }

    /// Every step's contract. A project without the folder has none, and its prompt sets'
    /// schemas judge alone; a contract that is there but broken is an error naming it.
    static func load(layout: ProjectLayout) throws(PromptError) -> [PipelineStep: AppContract] {
        let folder = layout.schemas.appendingPathComponent(folderName, isDirectory: true)
        guard FileManager.default.fileExists(atPath: folder.path) else { return [:] }
        var loaded: [String: AppContract] = [:]
        var contracts: [PipelineStep: AppContract] = [:]
        for step in PipelineStep.allCases {
            let name = fileName(for: step)
            if let contract = loaded[name] {
                contracts[step] = contract
                continue
            }
            let url = folder.appendingPathComponent(name)
            let display = layout.displayPath(of: url)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw PromptError(file: display, message: "the app's contract for \(step.rawValue) is missing (every step needs one once \(layout.displayPath(of: folder))/ exists)")
            }
            do {
                let document = try JSONParser.parse(data)
                let contract = AppContract(file: display, schema: try Schema(document, baseURI: url.absoluteString))
                loaded[name] = contract
                contracts[step] = contract
            } catch let error as JSONParseError {
                throw PromptError(file: display, location: error.location, message: "invalid JSON: \(error.reason)")
            } catch {
                throw PromptError(file: display, message: "invalid schema: \(error)")
            }
        }
        return contracts
    }

    /// Why `output` breaks the contract, each naming its field; empty when the app accepts it.
    public func problems(in output: JSONValue) -> [String] {
        schema.validate(output).errors.map(StepRunner.problem)
    }
}
