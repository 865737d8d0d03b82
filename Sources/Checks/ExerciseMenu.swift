import Intake
import JSONSchema

extension CoachingKnowledge {
    /// A group of the library as one person's menu shows it.
    public struct MenuGroup: Sendable, Hashable {
        public let label: String
        public let exercises: [String]
    }

    /// What one person may do, judged as the checks judge a program: what their
    /// equipment allows (nil: any), leaving out what a condition their health answers
    /// mention keeps out, unless they said that very exercise is fine, and what they
    /// said they dislike.
    struct PersonalScreen {
        let equipment: Set<Equipment>?
        let avoided: [Family]
        let okayed: TextMatching.Searchable
        let dislikes: [DislikeChecks.Dislike]
        let knowledge: CoachingKnowledge

        init(record: LocalIntakeData, equipment: [Equipment]?, knowledge: CoachingKnowledge) {
            self.equipment = equipment.map(Set.init)
            avoided = SafetyChecks.conditions(of: record, knowledge: knowledge).flatMap(\.condition.avoid).compactMap { knowledge.families[$0] }
            okayed = SafetyChecks.Searchable(SafetyChecks.healthText(of: record))
            dislikes = DislikeChecks.dislikes(of: record, knowledge: knowledge)
            self.knowledge = knowledge
        }

        /// The library's names read for movements, by coaching data: the same few hundred for every person.
        private static let catalogueItems = SharedCache<String, SafetyChecks.Item>()

        /// Whether the exercise called `names` (one name in each language it has) suits the person.
        func allows(names: [String], needs: [Equipment]) -> Bool {
            if let equipment, !needs.allSatisfy(equipment.contains) { return false }
            let items = names.map { name in
                Self.catalogueItems.value(for: "\(knowledge.identity)\u{0}\(name)") { SafetyChecks.Item(name: name, kind: .exercise, knowledge: knowledge) }
            }
            let keptOut = avoided.contains { family in items.contains { SafetyChecks.belongs($0, to: family) } }
                && !names.contains { SafetyChecks.saidToBeFine($0, in: okayed) }
            return !keptOut && !dislikes.contains { dislike in items.contains { DislikeChecks.matches($0, dislike) } }
        }
    }

    /// The library's exercises that suit `record`'s person (`PersonalScreen`), by group,
    /// at most `limit` a group. A program step's request shows it, so the model chooses
    /// among exercises the checks accept instead of recalling ones that need a barbell
    /// or load an injured knee.
    public func exerciseMenu(for record: LocalIntakeData, equipment: [Equipment]?, perGroup limit: Int = 8) -> [MenuGroup] {
        let key = "\(identity)\u{0}\(equipment?.map(\.rawValue).joined(separator: ",") ?? "any")\u{0}\(limit)\u{0}"
            + "\(record.age ?? -1)\u{0}\(SafetyChecks.healthText(of: record))\u{0}\(DislikeChecks.movementText(of: record))"
        return Self.menus.value(for: key) {
            let screen = PersonalScreen(record: record, equipment: equipment, knowledge: self)
            return exerciseGroups.compactMap { group in
                // With the equipment known, what uses it comes first: a gym's menu shows the gym.
                let ordered = equipment == nil ? group.exercises : group.exercises.filter { !$0.needs.isEmpty } + group.exercises.filter(\.needs.isEmpty)
                let names = ordered.filter { screen.allows(names: [$0.name], needs: $0.needs) }.prefix(limit).map(\.name)
                return names.isEmpty ? nil : MenuGroup(label: group.label, exercises: Array(names))
            }
        }
    }

    private static let menus = SharedCache<String, [MenuGroup]>()

    /// The catalogue's exercises that suit `record`'s person (`PersonalScreen`, judged
    /// by both names), for every pattern of the catalogue, in catalogue order; a pattern
    /// nothing suits has an empty list. A program request offers these per session slot.
    public func allowedExercises(for record: LocalIntakeData, equipment: [Equipment]?) -> [String: [Catalogue.Exercise]] {
        let screen = PersonalScreen(record: record, equipment: equipment, knowledge: self)
        var allowed = Dictionary(uniqueKeysWithValues: catalogue.patterns.map { ($0, [Catalogue.Exercise]()) })
        for exercise in catalogue.exercises where screen.allows(names: [exercise.en, exercise.es], needs: exercise.needs) {
            allowed[exercise.pattern, default: []].append(exercise)
        }
        return allowed
    }

    /// The equipment the checks read in an exercise name: named by its telltale words
    /// (`Equipment+Words.swift`) or implied (`equipment.yaml`: "Deadlifts" need a barbell).
    func equipmentNeeded(by name: String) -> Set<Equipment> {
        let text = TextMatching.Searchable(name)
        var needs = Set(ProgramChecks.namedEquipment(in: text).map(\.item))
        for rule in impliedEquipment where rule.word(in: text, notes: TextMatching.Searchable("")) != nil {
            needs.formUnion(rule.needs)
        }
        return needs
    }
}

extension CoachingKnowledge {
    /// The activities (`advice.yaml`'s goal_activities) that `goalText` names and that
    /// no condition of `record`'s person keeps out, in the file's order.
    public func activities(namedIn goalText: String, for record: LocalIntakeData) -> [AdviceRules.GoalActivity] {
        let keptOut = Set(SafetyChecks.conditions(of: record, knowledge: self).flatMap(\.condition.avoid))
        return advice.goalActivities.filter { activity in
            activity.family.map { !keptOut.contains($0) } ?? true
        }.filter { AdviceChecks.firstMention(of: $0.goalWords, in: goalText) != nil }
    }

    /// Whether the exercise called `name` is `activity` (an "Outdoor jog" is running), as
    /// `program.serves-goal` reads exercise names.
    public func isActivity(_ name: String, _ activity: AdviceRules.GoalActivity) -> Bool {
        activity.exerciseWords.contains { TextMatching.firstMatch(of: $0, in: TextMatching.Searchable(name)) != nil }
    }
}

extension CoachingKnowledge {
    /// The ids of the conditions (`conditions.yaml`) `record`'s health answers show.
    public func conditionIDs(for record: LocalIntakeData) -> [String] {
        SafetyChecks.conditions(of: record, knowledge: self).map(\.condition.id)
    }
}

extension CoachingKnowledge {
    /// The movement families (`conditions.yaml`'s `include`) the conditions of `record`'s
    /// person call for: an older adult's program includes balance work.
    public func includedFamilies(for record: LocalIntakeData) -> [String] {
        SafetyChecks.conditions(of: record, knowledge: self).compactMap(\.condition.include)
    }

    /// The effort note for `language` when `record`'s health answers name a beta blocker,
    /// which blunts the heart rate; nil otherwise.
    public func effortNote(for record: LocalIntakeData, language: String) -> String? {
        guard AdviceChecks.firstMention(of: advice.betaBlockers, in: SafetyChecks.healthText(of: record)) != nil else { return nil }
        return advice.effortNotes[language] ?? advice.effortNotes["en"]
    }
}
