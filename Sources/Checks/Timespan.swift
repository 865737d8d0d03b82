import Foundation
import JSONSchema

/// A length of time a text states in weeks or months ("16 weeks", "3-6 months",
/// "6 semanas"), as weeks: the first one it states.
public enum Timespan {
    private static let unitStems = ["wk", "week", "month", "semana", "mes"].map { Array($0.utf8) }

    /// The weeks `text` states, as a range for "3-6 months" and a single value otherwise; nil when it states none.
    public static func weeks(in text: String) -> ClosedRange<Double>? {
        // A span has a digit and a unit: most texts have neither and are done here.
        guard TextMatching.mayStateAmount(in: text, units: unitStems) else { return nil }
        let pattern = #"(\d+(?:[.,]\d+)?)(?:\s*(?:-|–|to|a)\s*(\d+(?:[.,]\d+)?))?\s*(weeks?|wks?|months?|semanas?|meses?)\b"#
        guard let regex = CompiledPatterns.shared.regex(pattern, options: [.caseInsensitive]),
              let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let unit = Range(match.range(at: 3), in: text)
        else { return nil }
        func number(_ group: Int) -> Double? {
            Range(match.range(at: group), in: text).flatMap { Double(text[$0].replacingOccurrences(of: ",", with: ".")) }
        }
        guard let first = number(1) else { return nil }
        let last = max(first, number(2) ?? first)
        let weeksPerUnit = text[unit].lowercased().hasPrefix("m") ? 4.345 : 1
        return (first * weeksPerUnit)...(last * weeksPerUnit)
    }
}
