import Foundation
import Intake
import JSONSchema

/// Checks on a goal-options list: count, unique ids, one-line summaries, diversity,
/// and for an edit, that the feedback shows.
enum GoalOptionChecks {
    /// Summaries sharing more than this share of their words are near-duplicates.
    static let duplicateSimilarity = 0.6
    /// The longest summary the app shows on one line.
    static let summaryLimit = 80

    /// `refused` names what the feedback asks for that a trainer never writes: then
    /// options left as they were are the right answer.
    static func check(_ output: JSONValue, edit: OptionEdit?, before: JSONValue?, refused: String? = nil) -> [CheckResult] {
        let options = output["options"]?.arrayValue ?? []
        var results: [CheckResult] = []

        let count = options.count
        results.append((3...4).contains(count)
            ? .pass("options.count", "\(count) options")
            : .fail("options.count", "\(count) options; the app shows 3 or 4"))

        let ids = options.compactMap { $0["id"]?.stringValue }
        let repeated = Set(ids.filter { id in ids.filter { $0 == id }.count > 1 }).sorted()
        results.append(repeated.isEmpty
            ? .pass("options.unique-ids", "ids are unique")
            : .fail("options.unique-ids", "repeated id" + (repeated.count == 1 ? " " : "s ") + repeated.map { "`\($0)`" }.joined(separator: ", ")))

        let summaries = options.compactMap { $0["summary"]?.stringValue }
        let notOneShortLine = summaries.compactMap { summary -> String? in
            let reason = summary.utf8.contains(UInt8(ascii: "\n")) ? "a line break"
                : summary.count > summaryLimit ? "\(summary.count) characters; at most \(summaryLimit)" : nil
            return reason.map { "\"\(oneLine(summary, limit: 100))\" (\($0))" }
        }
        results.append(notOneShortLine.isEmpty
            ? .pass("options.one-line-summaries", "every summary fits one line")
            : .fail("options.one-line-summaries", "not one short line: " + notOneShortLine.joined(separator: "; ")))

        var duplicates: [String] = []
        // What a goal is about, without the plan's frame ("3x a week for 8 weeks") that
        // different directions share: "Strength train" and "Endurance train" differ.
        let words = summaries.map { TextMatching.words($0).subtracting(framingWords).filter { !$0.allSatisfy(\.isNumber) } }
        for i in summaries.indices {
            for j in summaries.indices where j > i {
                let similarity = TextMatching.similarity(words[i], words[j])
                if similarity > duplicateSimilarity {
                    duplicates.append("\"\(summaries[i])\" ~ \"\(summaries[j])\" (\(Int(similarity * 100))% shared words)")
                }
            }
        }
        // Details that say the same thing make the options one option, whatever their titles.
        let details = options.compactMap { $0["detail"]?.stringValue }
        let detailWords = details.map { TextMatching.words($0) }
        for i in details.indices {
            for j in details.indices where j > i && !detailWords[i].isEmpty {
                let similarity = TextMatching.similarity(detailWords[i], detailWords[j])
                if similarity > duplicateDetailSimilarity {
                    duplicates.append("details \(i + 1) and \(j + 1) \(similarity == 1 ? "are the same" : "share \(Int(similarity * 100))% of their words"): \"\(oneLine(details[i], limit: 60))\"")
                }
            }
        }
        results.append(duplicates.isEmpty
            ? .pass("options.distinct", "no two summaries or details are near-duplicates")
            : .fail("options.distinct", "near-duplicate options: " + duplicates.joined(separator: "; ")))

        results.append(addressedToUser(options))
        if let edit {
            results += editChecks(output, edit: edit, before: before, refused: refused)
        }
        return results
    }

    /// Words that frame a plan rather than say what it is for.
    static let framingWords: Set<String> = [
        "the", "and", "for", "with", "your", "you", "week", "weeks", "day", "days", "times", "month", "months", "per", "every",
        "minute", "minutes", "min", "mins", "train", "training", "workout", "workouts", "session", "sessions", "plan", "program",
        "build", "get", "start", "into", "from", "can", "more", "semana", "semanas", "días", "dias", "por", "con", "para", "tu",
    ]

    /// Options speak to the person ("Run your first 5K"), not in their words copied
    /// back ("I want to lose weight").
    /// Details this alike (shared words over all words) are one detail said twice.
    static let duplicateDetailSimilarity = 0.8

    /// Summaries and details speak to the person; an option in their own first person
    /// ("I want to…", "Comenzaré con…") copied their sentences.
    private static func addressedToUser(_ options: [JSONValue]) -> CheckResult {
        let firstPerson = options.flatMap { option -> [String] in
            [option["summary"]?.stringValue, option["detail"]?.stringValue].compactMap { $0 }
                .filter(speaksInFirstPerson).map { "\"\(oneLine($0, limit: 80))\"" }
        }
        return firstPerson.isEmpty
            ? .pass("options.addressed-to-user", "every summary speaks to the person")
            : .fail("options.addressed-to-user", "written in the person's own first person: " + firstPerson.joined(separator: "; "))
    }

    static let firstPersonWords: Set<String> = [
        "i", "i'm", "i’m", "i've", "i'd", "i'll", "my", "me", "myself", "mine", "yo", "mi", "mis", "quiero", "voy", "puedo", "tengo", "estoy",
    ]

    /// Endings of the Spanish first person's future ("comenzaré", "haré", "correré").
    static let firstPersonFutureEndings = ["aré", "eré", "iré"]

    /// Whether `text` has a word of `firstPersonWords`; words are runs of letters and apostrophes.
    static func speaksInFirstPerson(_ text: String) -> Bool {
        var word = ""
        // A word after a slash is a unit ("10:45/mi"), never a pronoun.
        var afterSlash = false
        var previous: Unicode.Scalar = " "
        // A space after the text ends its last word like any other.
        for scalar in text.unicodeScalars + [" "] {
            defer { previous = scalar }
            if scalar.properties.isAlphabetic || scalar == "'" || scalar == "’" {
                if word.isEmpty { afterSlash = previous == "/" }
                word.unicodeScalars.append(scalar)
                continue
            }
            if !word.isEmpty, !afterSlash, word.utf8.count <= longestFirstPersonWord, firstPersonWords.contains(word.lowercased()) { return true }
            if word.count > 4, firstPersonFutureEndings.contains(where: { word.lowercased().hasSuffix($0) }) { return true }
            word = ""
        }
        return false
    }

    private static let longestFirstPersonWord = firstPersonWords.map(\.utf8.count).max() ?? 0

    /// The summaries and details of a list of options, the text a person reads.
    static func optionTexts(_ output: JSONValue) -> [String] {
        (output["options"]?.arrayValue ?? []).flatMap { option in
            [option["summary"]?.stringValue, option["detail"]?.stringValue].compactMap { $0 }
        }
    }

    /// The first of the feedback's wish words found in `text`: as a word, or, for a
    /// longer word, as another word of its family ("caminar" finds "camina", "bailar" "baila").
    private static func wishWord(_ words: [String], in text: TextMatching.Searchable) -> String? {
        if let word = words.first(where: { TextMatching.firstMatch(of: $0, in: text) != nil }) { return word }
        return words.first { word in
            let folded = TextMatching.folded(word).lowercased()
            guard folded.count >= 6, folded.allSatisfy(\.isLetter) else { return false }
            let stem = NSRegularExpression.escapedPattern(for: String(folded.dropLast(2)))
            return TextMatching.firstMatch(ofPattern: "(?i)(?<![\\p{L}])\(stem)\\p{L}{0,4}(?![\\p{L}])", in: text.folded) != nil
        }
    }

    /// `text` on one line, its line breaks shown as ⏎, cut to `limit` characters.
    private static func oneLine(_ text: String, limit: Int) -> String {
        let flat = text.replacingOccurrences(of: "\r\n", with: "⏎").replacingOccurrences(of: "\n", with: "⏎")
        return flat.count > limit ? flat.prefix(limit) + "…" : flat
    }

    private static func editChecks(_ output: JSONValue, edit: OptionEdit, before: JSONValue?, refused: String?) -> [CheckResult] {
        var results: [CheckResult] = []
        let note = output["note"]?.stringValue.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        if let before {
            // The options, not a note beside them: a note saying nothing changed is no change.
            let unchanged = TextMatching.whitespaceNormalized(before["options"] ?? before) == TextMatching.whitespaceNormalized(output["options"] ?? output)
            results.append(unchanged && refused != nil
                ? .pass("edit.changed", "the options are unchanged, refusing what the feedback asks for (\(refused!))")
                : unchanged && note != nil
                ? .pass("edit.changed", "the options are unchanged, and a note tells the person why: \"\(note!.prefix(80))\"")
                : unchanged
                ? .fail("edit.changed", "the options are identical\(before["options"] == output["options"] ? "" : ", but for whitespace,") to the ones before the feedback \"\(edit.feedback.prefix(80))\"")
                : .pass("edit.changed", "the options changed after the feedback"))
        }
        if let words = edit.expect?.mentionAny, !words.isEmpty {
            // Only what the options say to the person, and only what the edit changed: an
            // id or a summary kept from before shows nothing about the feedback.
            let earlier = Set(before.map(optionTexts) ?? [])
            let changed = optionTexts(output).filter { !earlier.contains($0) }
            let found = wishWord(words, in: TextMatching.Searchable(changed.joined(separator: "\n")))
            // A round that changes nothing answers the feedback in its note, a sentence the person reads.
            if found == nil, changed.isEmpty, let note {
                results.append(.pass("edit.reflects-feedback", "nothing changed, and a note answers the feedback: \"\(note.prefix(80))\""))
                return results
            }
            // What the feedback wants is already an option it kept, and the rest changed around it.
            let kept = optionTexts(output).filter { earlier.contains($0) }
            if found == nil, !changed.isEmpty, let answered = wishWord(words, in: TextMatching.Searchable(kept.joined(separator: "\n"))) {
                results.append(.pass("edit.reflects-feedback", "an option kept from before already mentions \"\(answered)\", and the options changed around it"))
                return results
            }
            results.append(found.map { .pass("edit.reflects-feedback", "the changed options mention \"\($0)\"") }
                ?? .fail("edit.reflects-feedback", "none of " + words.map { "\"\($0)\"" }.joined(separator: ", ")
                    + " appears in what changed after the feedback \"\(edit.feedback.prefix(80))\"" + (changed.isEmpty ? " (nothing changed)" : "")))
        }
        return results
    }
}
