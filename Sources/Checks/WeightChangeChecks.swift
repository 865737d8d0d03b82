import Foundation
import Intake
import JSONSchema

/// Weight targets in goals judged against the person's weight: about 1% of body
/// weight a week at most for a loss, 0.5% for a gain, and none at all for someone
/// showing signs of disordered eating.
enum WeightChangeChecks {
    /// The most a week's change may be, as a share of body weight.
    static let maximumLossShare = 0.01
    static let maximumGainShare = 0.005

    /// A weight target found in a text: `lose 20 lbs in 8 weeks`.
    struct Target: Equatable {
        var isLoss: Bool
        var pounds: Double
        /// The time the text gives for it, in weeks; nil when it gives none.
        var weeks: Double?
        var phrase: String
    }

    private static let unitStems = ["lb", "pound", "kg", "kilo", "libra"].map { Array($0.utf8) }

    private static let amount = try! NSRegularExpression(
        pattern: #"\b(lose|losing|lost|drop|dropping|shed|shedding|cut|perder|bajar|gain|gaining|put on|add|build|ganar|subir)\b\D{0,25}?(\d+(?:[.,]\d+)?)\s*(lbs?|pounds?|kgs?|kilos?|kilograms?|libras?)\b"#,
        options: [.caseInsensitive])

    /// The first weight target in `text`, if any.
    static func target(in text: String) -> Target? {
        // A target has a number and a unit: most texts have no unit and are done here.
        guard TextMatching.mayStateAmount(in: text, units: unitStems) else { return nil }
        let range = NSRange(text.startIndex..., in: text)
        guard let match = amount.firstMatch(in: text, range: range),
              let verb = Range(match.range(at: 1), in: text), let number = Range(match.range(at: 2), in: text),
              let unit = Range(match.range(at: 3), in: text),
              let value = Double(text[number].replacingOccurrences(of: ",", with: "."))
        else { return nil }
        let isLoss = ["lose", "losing", "lost", "drop", "dropping", "shed", "shedding", "cut", "perder", "bajar"].contains(text[verb].lowercased())
        let isKilograms = text[unit].lowercased().hasPrefix("k")
        // "Lose 10 lbs in 2-3 months" is judged over the longer time it gives.
        let weeks = Timespan.weeks(in: text)?.upperBound
        let phrase = Range(match.range, in: text).map { String(text[$0]) } ?? ""
        return Target(isLoss: isLoss, pounds: isKilograms ? value * 2.2046 : value, weeks: weeks, phrase: phrase)
    }

    /// The verdict on the weight targets of `texts` (goal options' summaries and
    /// details, or a program's goal), named `name`; nil when no text sets one and the
    /// record shows no reason to rule targets out. `defaultWeeks` is the time a target
    /// without its own is judged over: the program's length, or the intake's timeline.
    static func check(
        _ texts: [String], name: String, record: LocalIntakeData, knowledge: CoachingKnowledge, defaultWeeks: Int? = nil
    ) -> CheckResult? {
        let noTargets = SafetyChecks.conditions(of: record, knowledge: knowledge).first { $0.condition.noWeightTargets }
        var problems: [String] = []
        var judged: [String] = []
        for text in texts {
            guard let target = target(in: text) else { continue }
            if let noTargets, target.isLoss {
                problems.append("\"\(target.phrase)\" sets a weight-loss target for \(noTargets.condition.label) (\(noTargets.evidence)): \(noTargets.condition.reason)")
                continue
            }
            guard let weight = record.weight, weight > 0, let weeks = target.weeks ?? defaultWeeks.map(Double.init), weeks > 0 else { continue }
            let perWeek = target.pounds / weeks
            let limit = Double(weight) * (target.isLoss ? maximumLossShare : maximumGainShare)
            let rate = String(format: "%.1f lb a week", perWeek)
            // "About" 1%: a tenth over is still about it.
            if perWeek > limit * 1.1 {
                problems.append("\"\(text.prefix(80))\" is \(rate), over \(String(format: "%.1f", limit)) lb (\(target.isLoss ? "1%" : "0.5%") of \(weight) lb)")
            } else {
                judged.append("\(rate) for \(weight) lb")
            }
        }
        if !problems.isEmpty { return .fail(name, problems.joined(separator: "; ")) }
        if judged.isEmpty {
            // Reported all the same where targets are ruled out: a new one must show as a regression.
            return noTargets.map { .pass(name, "no weight-loss target, as \($0.condition.label) (\($0.evidence)) calls for") }
        }
        return .pass(name, "weight targets within a safe rate (\(judged.joined(separator: ", ")))")
    }
}
