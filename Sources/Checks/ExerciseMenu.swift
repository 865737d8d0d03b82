import Intake
import JSONSchema

extension CoachingKnowledge {
    /// A group of the library as one person's menu shows it.
    public struct MenuGroup: Sendable, Hashable {
        public let label: String
        public let exercises: [String]
    }

    /// The library's exercises that suit `record`'s person, by group, at most `limit` a
    /// group: those `equipment` allows (nil: any), and none that a condition their
    /// answers mention keeps out or that they said they dislike, judged as the checks
    /// judge a program. A program step's request shows it, so the model chooses among
    /// exercises the checks accept instead of recalling ones that need a barbell or
    /// load an injured knee.
    public func exerciseMenu(for record: LocalIntakeData, equipment: [Equipment]?, perGroup limit: Int = 8) -> [MenuGroup] {
        let key = "\(identity)\u{0}\(equipment?.map(\.rawValue).joined(separator: ",") ?? "any")\u{0}\(limit)\u{0}"
            + "\(record.age ?? -1)\u{0}\(SafetyChecks.healthText(of: record))\u{0}\(DislikeChecks.movementText(of: record))"
        return Self.menus.value(for: key) {
            let avoided = SafetyChecks.conditions(of: record, knowledge: self).flatMap(\.condition.avoid).compactMap { families[$0] }
            let okayed = SafetyChecks.Searchable(SafetyChecks.healthText(of: record))
            let dislikes = DislikeChecks.dislikes(of: record, knowledge: self)
            let allowed = equipment.map(Set.init)
            return exerciseGroups.compactMap { group in
                // With the equipment known, what uses it comes first: a gym's menu shows the gym.
                let ordered = allowed == nil ? group.exercises : group.exercises.filter { !$0.needs.isEmpty } + group.exercises.filter(\.needs.isEmpty)
                let names = ordered.filter { exercise in
                    if let allowed, !exercise.needs.allSatisfy(allowed.contains) { return false }
                    let item = SafetyChecks.Item(name: exercise.name, kind: .exercise, knowledge: self)
                    let keptOut = avoided.contains { SafetyChecks.belongs(item, to: $0) } && !SafetyChecks.saidToBeFine(exercise.name, in: okayed)
                    return !keptOut && !dislikes.contains { DislikeChecks.matches(item, $0) }
                }.prefix(limit).map(\.name)
                return names.isEmpty ? nil : MenuGroup(label: group.label, exercises: Array(names))
            }
        }
    }

    private static let menus = SharedCache<String, [MenuGroup]>()
}
