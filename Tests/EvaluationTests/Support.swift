import Evaluation
import Foundation
import Golden
import History
import Intake
import Pipeline
import Providers
import Reports
import Storage
import Testing
import TestSupport

/// The repository this test file belongs to, and its real prompts and fixtures.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let layout = ProjectLayout(root: root)

    static func fixtures(_ names: [String]) throws -> [Fixture] {
        try FixtureCorpus(layout: layout).load(names: names)
    }

    /// The prompts of sets v5 (goal options) and v3 (programs), where the model writes
    /// the whole options and program, which the harness's tests script.
    static func prompts() throws -> PromptLibrary {
        try PromptLibrary(layout: layout, variants: VariantSelection(resolving: ["v5", "v3"], layout: layout))
    }
}

/// Replies that are valid for every step of `busy-parent` and pass all its checks
/// (the draft holds the jump its edit is asked to take out),
/// so a run of them compares with golden as `new`, then `matches` once approved.
enum Replies {
    static let options = #"{"options": [{"id": "energy-3x-week", "summary": "More energy: 3 short workouts a week", "detail": "20 minutes, three evenings."}, {"id": "monkey-bars-8-weeks", "summary": "Do the monkey bars in 8 weeks", "detail": "Grip and pulling strength."}, {"id": "walk-10k-steps", "summary": "Walk 10,000 steps a day by June", "detail": "Build up by 1,000 a week."}]}"#

    /// Other goal options, as a model gives on another try.
    static let otherOptions = #"{"options": [{"id": "energy-evenings", "summary": "Get your energy back with 3 evening sessions", "detail": "20 minutes after bedtime."}, {"id": "lose-baby-weight", "summary": "Lose 10 pounds by summer", "detail": "Short strength sessions and walks."}, {"id": "pull-up-strength", "summary": "Hang from the monkey bars for 20 seconds", "detail": "Grip work twice a week."}]}"#

    static let editedOptions = #"{"options": [{"id": "energy-20-minutes", "summary": "More energy in 20 minutes, 3 evenings a week", "detail": "Short sessions after bedtime."}, {"id": "monkey-bars-8-weeks", "summary": "Do the monkey bars in 8 weeks", "detail": "Grip and pulling strength."}, {"id": "dance-cardio", "summary": "Dance cardio you enjoy, twice a week", "detail": "Music on, 20 minutes."}]}"#

    static let program = ##"{"program_json": {"title": "Evening Energy for Keisha", "goal": "More energy: 3 short workouts a week", "duration_weeks": 8, "days_per_week": 2, "session_minutes": 25, "equipment": ["bodyweight", "mat", "dumbbell"], "sessions": [{"day": 1, "name": "Full body A", "minutes": 25, "exercises": [{"name": "Goblet squat", "sets": 3, "reps": "10", "rest_seconds": 60, "notes": ""}, {"name": "Squat jump", "sets": 2, "reps": "6", "rest_seconds": 45, "notes": "Land softly and quietly."}, {"name": "Dumbbell row", "sets": 3, "reps": "10 each side", "rest_seconds": 60, "notes": ""}, {"name": "Plank", "sets": 3, "reps": "30 s", "rest_seconds": 45, "notes": ""}]}, {"day": 2, "name": "Full body B", "minutes": 25, "exercises": [{"name": "Dumbbell row", "sets": 3, "reps": "10 each side", "rest_seconds": 60, "notes": ""}, {"name": "Glute bridge", "sets": 3, "reps": "12", "rest_seconds": 45, "notes": ""}, {"name": "Dead bug", "sets": 3, "reps": "8 each side", "rest_seconds": 45, "notes": ""}]}], "progression": [{"weeks": "1-4", "focus": "Learn the moves"}, {"weeks": "5-8", "focus": "Add a set"}], "safety_notes": ["Warm up for 3 minutes, Keisha."]}}"##

    static let editedProgram = ##"{"program_json": {"title": "Quiet Evening Energy for Keisha", "goal": "More energy: 3 short workouts a week", "duration_weeks": 8, "days_per_week": 2, "session_minutes": 25, "equipment": ["bodyweight", "mat", "dumbbell"], "sessions": [{"day": 1, "name": "Full body A", "minutes": 25, "exercises": [{"name": "Goblet squat", "sets": 3, "reps": "10", "rest_seconds": 60, "notes": "Lower slowly, no bouncing."}, {"name": "Dumbbell row", "sets": 3, "reps": "10 each side", "rest_seconds": 60, "notes": ""}, {"name": "Plank", "sets": 3, "reps": "30 s", "rest_seconds": 45, "notes": ""}]}, {"day": 2, "name": "Full body B", "minutes": 25, "exercises": [{"name": "Dumbbell row", "sets": 3, "reps": "10 each side", "rest_seconds": 60, "notes": ""}, {"name": "Glute bridge", "sets": 3, "reps": "12", "rest_seconds": 45, "notes": ""}, {"name": "Dead bug", "sets": 3, "reps": "8 each side", "rest_seconds": 45, "notes": ""}]}], "progression": [{"weeks": "1-4", "focus": "Learn the moves"}, {"weeks": "5-8", "focus": "Add a set"}], "safety_notes": ["Warm up for 3 minutes, Keisha."]}}"##

    /// The reply to a request, by the step it belongs to.
    static func valid(for request: CompletionRequest) -> ScriptedProvider.Reply {
        switch request.context?.step ?? "" {
        case "goal-options": .success(options)
        case let step where step.hasPrefix("goal-options-edit"): .success(editedOptions)
        case "program-draft": .success(program)
        default: .success(editedProgram)
        }
    }

    /// The failure of a provider nobody answers for.
    static let unreachable = ProviderError(
        kind: .unreachable, provider: "scripted", message: "Could not reach http://127.0.0.1:9/v1: connection refused")
}

/// Evaluations of the repository's prompts and fixtures on in-memory golden and
/// history stores, writing their reports to a temporary folder.
struct Bench {
    let golden = MemoryGoldenStore()
    let history = MemoryRunHistory()
    let reports = FileManager.default.temporaryDirectory.appendingPathComponent("evaluation-reports-\(UUID().uuidString)")

    var stores: Evaluation.Stores {
        Evaluation.Stores(golden: golden, history: history, reports: ReportWriter(root: reports))
    }

    /// Options for a scripted run: one call in flight, one repair, nothing else changed.
    static func options(_ change: (inout Evaluation.Options) -> Void = { _ in }) -> Evaluation.Options {
        var options = Evaluation.Options()
        options.providerName = "scripted"
        change(&options)
        return options
    }

    func evaluation(_ provider: any ModelProvider, options: Evaluation.Options = Bench.options()) throws -> Evaluation {
        Evaluation(
            layout: Repository.layout, prompts: try Repository.prompts(), prices: try PriceTable.load(layout: Repository.layout),
            provider: provider, options: options, stores: stores)
    }

    /// Runs `fixtures` to the end.
    func run(_ fixtures: [String], provider: any ModelProvider, options: Evaluation.Options = Bench.options()) async throws -> Evaluation.Outcome {
        try await evaluation(provider, options: options).run(try Repository.fixtures(fixtures))
    }

    /// Accepts every pending output, as `trainer-eval accept` does.
    func acceptAll() throws {
        for key in golden.entries(pending: true) { try golden.accept(key) }
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: reports)
    }
}

extension Evaluation.Outcome {
    /// Every step of every fixture, as `fixture/step`, with its result.
    var steps: [(key: String, result: StepResult)] {
        results.flatMap { fixture in fixture.steps.map { ("\(fixture.fixture)/\($0.id)", $0) } }
    }

    /// The failing checks of each step, for a message when a test fails.
    var failedChecks: [String] {
        steps.flatMap { step in step.result.checks.filter { !$0.passed }.map { "\(step.key) \($0.name): \($0.message)" } }
    }
}

/// Polls `condition` every 5 ms until it holds; after `Patience.seconds` the test fails
/// as hung.
func waitUntil(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + Patience.duration
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("the condition never became true")
            return
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// The files under a folder, relative to it.
func listing(of folder: URL) -> Set<String> {
    Set(FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? [])
}
