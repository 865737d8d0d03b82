import Intake
import JSONSchema

/// The confirm step: picks the goal option the scenario's user taps. No model involved.
public enum ConfirmStep {
    /// The first option whose summary or detail mentions a preferred word, else the
    /// option at the scenario's position (clamped to the list), with a note saying which rule chose it.
    public static func choose(from options: JSONValue, by choice: ConfirmChoice) -> (option: JSONValue, note: String)? {
        guard let list = options["options"]?.arrayValue, !list.isEmpty else { return nil }
        let texts = list.map { option in
            Array(((option["summary"]?.stringValue ?? "") + " " + (option["detail"]?.stringValue ?? "")).lowercased().utf8)
        }
        for word in choice.prefer ?? [] {
            let needle = Array(word.lowercased().utf8)
            if !needle.isEmpty, let match = texts.firstIndex(where: { $0.firstRange(of: needle) != nil }) {
                return (list[match], "option \(match + 1) of \(list.count): it mentions \"\(word)\"")
            }
        }
        let position = min(max(choice.position, 1), list.count)
        let reason = (choice.prefer ?? []).isEmpty ? "the scenario's position" : "no option mentions a preferred word; fell back to the scenario's position"
        return (list[position - 1], "option \(position) of \(list.count): \(reason)")
    }
}
