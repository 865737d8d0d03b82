import Foundation
import Intake
import JSONSchema
import Testing

/// The step catalogue: each step's traits in one place, and what is derived from them.
struct StepCatalogueTests {
    @Test func eachStepSaysWhatItWritesWhetherItEditsAndWhereItStarts() {
        #expect(PipelineStep.allCases.filter(\.writesProgram) == [.programDraft, .programEdit])
        #expect(PipelineStep.allCases.filter(\.edits) == [.goalOptionsEdit, .programEdit])
        #expect(PipelineStep.allCases.map(\.traits.firstID) == [.goalOptions, .optionEdit(round: 1), .programDraft, .programEdit])
        #expect(PipelineStep.allCases.allSatisfy { $0.traits.firstID.step == $0 }, "a step's first id runs that step")
    }

    @Test func theSchemaNameAndTheRunOrderFollowFromTheSteps() {
        #expect(PipelineStep.allCases.map(\.schemaName) == ["goal_options", "goal_options_edit", "program_draft", "program_edit"])
        #expect(PipelineStep.runOrder == ["goal-options", "goal-options-edit", "confirm", "program-draft", "program-edit"])
        #expect(StepSelector.spellings
            == "goal-options, goal-options-edit (every round) or goal-options-edit-N (round N), confirm, program-draft, program-edit")
        for name in PipelineStep.runOrder where name != PipelineStep.goalOptionsEdit.rawValue {
            #expect((try? StepSelector(parsing: name))?.description == name, "every step the help names parses")
        }
    }

    @Test func theDerivedTraitsEachPickOneStep() {
        #expect(PipelineStep.allCases.filter(\.draftsProgram) == [.programDraft])
        #expect(PipelineStep.allCases.filter(\.editsOptions) == [.goalOptionsEdit])
        #expect(PipelineStep.allCases.filter(\.editsProgram) == [.programEdit])
        #expect(StepID.confirm.callsModel == false)
        #expect(PipelineStep.allCases.allSatisfy { $0.traits.firstID.callsModel })
    }

    /// The schemas that list step kinds list exactly the catalogue's, so a new step
    /// that is missing from one of them fails here rather than in a user's validator.
    @Test(arguments: ["Reports/schema/results.schema.json", "prompts/schemas/scenario.schema.json"])
    func everySchemaListOfStepsIsTheCatalogue(path: String) throws {
        let text = try String(contentsOf: TemporaryProject.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
        let lists = Self.stepEnums(in: try JSONParser.parse(text))
        #expect(!lists.isEmpty, "\(path) lists no steps")
        for list in lists {
            #expect(list == PipelineStep.allCases.map(\.rawValue), "\(path)")
        }
    }

    @Test func theResultsSchemaTakesEveryStepIDAndNoOther() throws {
        let url = TemporaryProject.repositoryRoot.appendingPathComponent("Reports/schema/results.schema.json")
        let pattern = try #require(String(contentsOf: url, encoding: .utf8)
            .split(separator: "\n").first { $0.contains("\"pattern\": \"^(goal-options") }
            .map { String($0.split(separator: "\"")[3]).replacingOccurrences(of: "\\\\", with: "\\") })
        let ids: [StepID] = [.goalOptions, .optionEdit(round: 1), .optionEdit(round: 12), .confirm, .programDraft, .programEdit]
        for id in ids {
            #expect(id.description.range(of: pattern, options: .regularExpression) != nil, "\(id)")
        }
        #expect(PipelineStep.goalOptionsEdit.rawValue.range(of: pattern, options: .regularExpression) == nil)
    }

    @Test func stepStatsListsTheCatalogueInRunOrder() throws {
        let script = try String(contentsOf: TemporaryProject.repositoryRoot.appendingPathComponent("scripts/step-stats"), encoding: .utf8)
        func list(_ name: String) -> [String]? {
            script.split(separator: "\n").first { $0.hasPrefix("\(name) = [") }.map { line in
                line.split(separator: "[")[1].split(separator: "]")[0].split(separator: ",")
                    .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \"")) }
            }
        }
        #expect(list("STEPS") == PipelineStep.allCases.map(\.rawValue))
        #expect(list("ORDER") == PipelineStep.runOrder)
    }

    /// Every `enum` in a schema that names a step kind.
    private static func stepEnums(in value: JSONValue) -> [[String]] {
        switch value {
        case .object(let object):
            var found: [[String]] = []
            for member in object {
                if member.key == "enum", case .array(let items) = member.value, items.contains(.string(PipelineStep.programDraft.rawValue)) {
                    found.append(items.compactMap { if case .string(let name) = $0 { name } else { nil } })
                } else {
                    found += stepEnums(in: member.value)
                }
            }
            return found
        case .array(let items): return items.flatMap(stepEnums)
        default: return []
        }
    }
}
