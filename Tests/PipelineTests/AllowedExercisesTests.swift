import Checks
import Foundation
import Intake
import JSONSchema
import Pipeline
import Testing

/// The catalogue's exercises a program request can offer one person, per session
/// pattern: enough of each main pattern is left for everyone, whatever their
/// conditions, equipment and dislikes.
struct AllowedExercisesTests {
    /// The slots a full-body session fills, each from the patterns that can fill it.
    static let standingSlots: [(slot: String, patterns: Set<String>)] = [
        ("legs", ["knee-dominant", "single-leg"]), ("hip-hinge", ["hip-hinge"]), ("push", ["horizontal-push", "vertical-push"]),
        ("pull", ["horizontal-pull", "vertical-pull"]), ("core", ["core"]),
    ]

    /// Someone in a wheelchair (a condition keeping out standing-legs) trains seated: push,
    /// pull and core. Knee-dominant, single-leg and hip-hinge work all stands or starts on the
    /// floor, so what is left of them is only what the checks cannot tell is standing (a
    /// kettlebell swing names no standing word); the request leaves those slots out.
    static let seatedSlots = Array(standingSlots.filter { ["push", "pull", "core"].contains($0.slot) })

    static let fewestPerSlot = 3

    static func counts(_ allowed: [String: [Catalogue.Exercise]], slots: [(slot: String, patterns: Set<String>)]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: slots.map { slot in (slot.slot, slot.patterns.reduce(0) { $0 + (allowed[$1]?.count ?? 0) }) })
    }

    static func seated(_ record: LocalIntakeData, knowledge: CoachingKnowledge) -> Bool {
        knowledge.conditions.contains { condition in
            condition.avoid.contains("standing-legs") && knowledge.cautions(for: record).contains { $0.hasPrefix(condition.label) }
        }
    }

    /// One line a condition the intake names: its first word, or its age; and the
    /// experience level that narrows it, when it has one.
    static func intake(naming condition: CoachingKnowledge.Condition) -> LocalIntakeData {
        if let word = condition.words.first {
            return LocalIntakeData(experienceLevel: condition.experienceWords.first, injuries: "I have \(word).")
        }
        return LocalIntakeData(age: condition.minimumAge)
    }

    @Test func everyConditionLeavesEnoughOfEverySlot() throws {
        let knowledge = try Repository.prompts().coaching
        #expect(knowledge.catalogue.exercises.count >= 150, "the Pipeline loads catalogue.yaml")
        for condition in knowledge.conditions {
            let record = Self.intake(naming: condition)
            #expect(knowledge.cautions(for: record).contains { $0.hasPrefix(condition.label) }, "\(condition.id) is found")
            let allowed = knowledge.allowedExercises(for: record, equipment: nil)
            let seated = Self.seated(record, knowledge: knowledge)
            #expect(seated == (condition.id == "spinal-cord"))
            for (slot, count) in Self.counts(allowed, slots: seated ? Self.seatedSlots : Self.standingSlots) {
                #expect(count >= Self.fewestPerSlot, "\(condition.id): \(count) \(slot)")
            }
            for exercise in allowed.values.joined() {
                #expect(Set(exercise.families).isDisjoint(with: condition.avoid), "\(condition.id): \(exercise.id)")
            }
        }
    }

    @Test func seatedSlotsAreAllThatIsLeftOfLegWorkForSomeoneInAWheelchair() throws {
        let knowledge = try Repository.prompts().coaching
        let condition = try #require(knowledge.conditions.first { $0.id == "spinal-cord" })
        let allowed = knowledge.allowedExercises(for: Self.intake(naming: condition), equipment: nil)
        let legWork = ["knee-dominant", "single-leg", "hip-hinge"].flatMap { allowed[$0] ?? [] }.map(\.id)
        #expect(legWork.allSatisfy { ["machine-leg-extension", "banded-good-morning", "kettlebell-swing"].contains($0) }, "\(legWork)")
        #expect((allowed["knee-dominant"] ?? []).count + (allowed["single-leg"] ?? []).count < Self.fewestPerSlot)
    }

    @Test(arguments: try FixtureCorpus(layout: Repository.layout).fixtureNames())
    func everyFixtureLeavesEnoughOfEverySlot(fixture name: String) throws {
        let prompts = try Repository.prompts()
        let record = try Repository.fixture(name).record
        let allowed = prompts.coaching.allowedExercises(for: record, equipment: prompts.intakeLimits?.limits(for: record).equipment)
        let seated = Self.seated(record, knowledge: prompts.coaching)
        #expect(seated == (name == "wheelchair-user"))
        let counts = Self.counts(allowed, slots: seated ? Self.seatedSlots : Self.standingSlots)
        for (slot, count) in counts {
            #expect(count >= Self.fewestPerSlot, "\(name): \(count) \(slot)")
        }
        if ["knee-injury", "spanish-speaker", "busy-parent"].contains(name) {
            let total = allowed.values.map(\.count).reduce(0, +)
            print("\(name): \(total) allowed exercises; " + prompts.coaching.catalogue.patterns.map { "\($0) \(allowed[$0]?.count ?? 0)" }.joined(separator: ", "))
        }
    }

    @Test func theAllowedSetLeavesOutWhatTheEquipmentLacksWhatAConditionKeepsOutAndWhatTheyDislike() throws {
        let prompts = try Repository.prompts()
        func allowed(_ fixture: String) throws -> Set<String> {
            let record = try Repository.fixture(fixture).record
            return Set(prompts.coaching.allowedExercises(for: record, equipment: prompts.intakeLimits?.limits(for: record).equipment).values.joined().map(\.id))
        }
        let knee = try allowed("knee-injury")
        #expect(knee.contains("chair-squat") && !knee.contains("leg-press") && !knee.contains("reverse-lunge") && !knee.contains("jumping-jacks"))
        let home = try allowed("busy-parent")
        #expect(home.contains("dumbbell-goblet-squat") && !home.contains("lat-pulldown") && !home.contains("kettlebell-swing"))
        let bare = try allowed("home-no-equipment")
        #expect(bare.contains("doorframe-row") && !bare.contains("kneeling-cat-cow"), "no mat, not even a mat")

        let hatesRunning = LocalIntakeData(movementPrefs: "I hate running and burpees.")
        let noRunning = Set(prompts.coaching.allowedExercises(for: hatesRunning, equipment: nil).values.joined().map(\.id))
        #expect(!noRunning.contains("outdoor-jog") && !noRunning.contains("treadmill-run") && !noRunning.contains("burpee") && noRunning.contains("brisk-walk"))

        let fineWithLunges = LocalIntakeData(injuries: "Meniscus tear last year. Reverse lunge is fine, my physio cleared it.")
        let okayed = Set(prompts.coaching.allowedExercises(for: fineWithLunges, equipment: nil).values.joined().map(\.id))
        #expect(okayed.contains("reverse-lunge") && !okayed.contains("walking-lunge"))
    }

    @Test func aBrokenCatalogueNamesItsLineAndAMissingOneLeavesTheCatalogueEmpty() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("prompts-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(at: Repository.layout.prompts, to: root.appendingPathComponent("prompts"))
        let layout = ProjectLayout(root: root)
        let file = layout.prompts.appendingPathComponent("coaching/catalogue.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        let line = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("    pattern: ") }) + 1
        try text.replacing("    pattern: knee-dominant", with: "    pattern: legs", maxReplacements: 1).write(to: file, atomically: true, encoding: .utf8)
        let error = try #require(throws: PromptLibraryError.self) { try PromptLibrary(layout: layout) }
        let pinned = "`plan: pinned` needs prompts/program-plan.yaml with `sessions` and `prescriptions`, prompts/intake-limits.yaml and prompts/coaching/catalogue.yaml"
        #expect(error.errors.map(\.description).sorted() == [
            "prompts/coaching/catalogue.yaml:\(line):14: /exercises/0/pattern: `legs` is not one of the patterns: knee-dominant, single-leg, hip-hinge, "
                + "horizontal-push, vertical-push, horizontal-pull, vertical-pull, core, carry, conditioning, mobility, balance",
            "prompts/program-draft: \(pinned)", "prompts/program-edit: \(pinned)",
        ])

        // Without a catalogue, the base (which pins the plan to it) cannot be used; prompt set v3 runs on an empty one.
        try FileManager.default.removeItem(at: file)
        let missing = try #require(throws: PromptLibraryError.self) { try PromptLibrary(layout: layout) }
        #expect(missing.errors.map(\.description).sorted() == ["prompts/program-draft: \(pinned)", "prompts/program-edit: \(pinned)"])
        let knowledge = try PromptLibrary(layout: layout, variants: VariantSelection(resolving: ["v3"], layout: layout)).coaching
        #expect(knowledge.catalogue.exercises.isEmpty && !knowledge.exerciseGroups.isEmpty)
    }
}
