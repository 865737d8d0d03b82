import Checks
import Foundation
import Intake
import JSONSchema

extension CoachingKnowledge {
    /// Reads `prompts/coaching/movements.yaml`, `conditions.yaml`, `equipment.yaml` and `dislikes.yaml`, and the
    /// exercise library `exercises.yaml`, `advice.yaml` and the catalogue `catalogue.yaml` when there are. A project without the folder has no coaching
    /// knowledge; a broken file is an error naming its line.
    public static func load(layout: ProjectLayout) throws(PromptError) -> CoachingKnowledge {
        let folder = layout.prompts.appendingPathComponent("coaching", isDirectory: true)
        guard FileManager.default.fileExists(atPath: folder.path) else { return .none }
        func document(_ name: CoachingKnowledgeError.Document) throws(PromptError) -> YAMLDocument {
            let url = folder.appendingPathComponent(name.rawValue)
            let file = layout.displayPath(of: url)
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw PromptError(file: file, message: "missing: the coaching rules need movements.yaml, conditions.yaml, equipment.yaml and dislikes.yaml")
            }
            do {
                return try YAMLDocument(text: String(decoding: data, as: UTF8.self))
            } catch {
                throw PromptError(file: file, location: error.location, message: error.reason)
            }
        }
        let movements = try document(.movements)
        let conditions = try document(.conditions)
        let equipment = try document(.equipment)
        let dislikes = try document(.dislikes)
        let hasLibrary = FileManager.default.fileExists(atPath: folder.appendingPathComponent(CoachingKnowledgeError.Document.exercises.rawValue).path)
        let exercises = hasLibrary ? try document(.exercises) : nil
        let hasAdvice = FileManager.default.fileExists(atPath: folder.appendingPathComponent(CoachingKnowledgeError.Document.advice.rawValue).path)
        let advice = hasAdvice ? try document(.advice) : nil
        let hasCatalogue = FileManager.default.fileExists(atPath: folder.appendingPathComponent(CoachingKnowledgeError.Document.catalogue.rawValue).path)
        let catalogue = hasCatalogue ? try document(.catalogue) : nil
        do {
            return try CoachingKnowledge(
                movements: movements.value, conditions: conditions.value, equipment: equipment.value, dislikes: dislikes.value,
                exercises: exercises?.value, advice: advice?.value, catalogue: catalogue?.value)
        } catch {
            let source: YAMLDocument? = switch error.document {
            case .movements: movements
            case .conditions: conditions
            case .equipment: equipment
            case .dislikes: dislikes
            case .exercises: exercises
            case .advice: advice
            case .catalogue: catalogue
            }
            let location = JSONPointer(error.pointer).flatMap { source?.location(of: $0) }
            throw PromptError(
                file: layout.displayPath(of: folder.appendingPathComponent(error.document.rawValue)), location: location,
                message: "\(error.pointer): \(error.message)")
        }
    }
}
