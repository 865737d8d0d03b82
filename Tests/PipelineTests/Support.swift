import Foundation
import Intake
import JSONSchema
import Pipeline
import Providers

/// The repository this test file belongs to, and its real prompts and fixtures.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let layout = ProjectLayout(root: root)

    static func fixture(_ name: String) throws -> Fixture {
        try FixtureCorpus(layout: layout).load(name)
    }

    /// The prompts of sets v5 (goal options) and v3 (programs), where the model writes
    /// the whole options and program, which the harness's tests script.
    static func prompts() throws -> PromptLibrary {
        try PromptLibrary(layout: layout, variants: VariantSelection(resolving: ["v5", "v3"], layout: layout))
    }

    /// A project in a new temporary folder holding copies of the real prompts and
    /// fixtures, for a test that adds a variant or breaks a file; the caller removes it.
    static func temporaryCopy(named name: String) throws -> URL {
        let project = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        for folder in ["prompts", "fixtures"] {
            try FileManager.default.copyItem(at: root.appendingPathComponent(folder), to: project.appendingPathComponent(folder))
        }
        return project
    }

    /// The prompts with every step's variant `v2` (prompt set v2, the base before v3).
    static func promptsV2() throws -> PromptLibrary {
        try PromptLibrary(layout: layout, variants: VariantSelection(resolving: ["v2"], layout: layout))
    }
}

enum Samples {
    static let options = #"{"options": [{"id": "energy-3x-week", "summary": "More energy: 3 short workouts a week", "detail": "20 minutes, three evenings."}, {"id": "monkey-bars-8-weeks", "summary": "Do the monkey bars in 8 weeks", "detail": "Grip and pulling strength."}, {"id": "walk-10k-steps", "summary": "Walk 10,000 steps a day by June", "detail": "Build up by 1,000 a week."}]}"#

    /// A reply to a goal step of the base (set v6): the words of as many options as the
    /// request's schema asks for.
    static func writtenOptions(for request: CompletionRequest) -> String {
        let count = request.responseSchema?["properties"]?["options"]?["minItems"]?.intValue ?? 3
        let option = #"{"summary": "You walk a little further each week.", "detail": "You walk three days a week and add five minutes every week, at an easy pace."}"#
        return #"{"options": ["# + Array(repeating: option, count: count).joined(separator: ", ") + "]}"
    }

    static let program = ##"{"program_json": {"title": "Evening Energy", "goal": "More energy: 3 short workouts a week", "duration_weeks": 8, "days_per_week": 2, "session_minutes": 25, "equipment": ["bodyweight", "mat", "dumbbell"], "sessions": [{"day": 1, "name": "Full body A", "minutes": 25, "exercises": [{"name": "Goblet squat", "sets": 3, "reps": "10", "rest_seconds": 60, "notes": ""}, {"name": "Glute bridge", "sets": 3, "reps": "12", "rest_seconds": 45, "notes": ""}, {"name": "Plank", "sets": 3, "reps": "30 s", "rest_seconds": 45, "notes": ""}]}, {"day": 2, "name": "Full body B", "minutes": 25, "exercises": [{"name": "Dumbbell row", "sets": 3, "reps": "10 each side", "rest_seconds": 60, "notes": ""}, {"name": "Dead bug", "sets": 3, "reps": "8 each side", "rest_seconds": 45, "notes": ""}, {"name": "Bird dog", "sets": 3, "reps": "8 each side", "rest_seconds": 45, "notes": ""}]}], "progression": [{"weeks": "1-4", "focus": "Learn the moves"}, {"weeks": "5-8", "focus": "Add a set"}], "safety_notes": ["Warm up for 3 minutes."]}}"##
}

extension FixturePlan {
    /// The input `render` shows for the first step that runs `step`, with placeholders upstream.
    static func placeholderInput(for step: PipelineStep, fixture: Fixture) throws -> StepInput {
        let id = FixturePlan(fixture).steps.first { $0.modelStep == step }?.id ?? .optionEdit(round: 1)
        return try FixturePlan(fixture).rendering(of: id).input
    }
}
