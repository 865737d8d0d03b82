import Pipeline

/// A run that stopped starting model calls because a budget ran out: the calls under
/// way finished, the rest were skipped with `note`.
public struct BudgetStop: Sendable, Hashable {
    /// The note on every step the budget stopped, naming the budget.
    public var note: String
    /// Model steps not run, in every repeat asked for: a recording resume would call these.
    public var undoneModelSteps: Int

    public init(note: String, undoneModelSteps: Int) {
        self.note = note
        self.undoneModelSteps = undoneModelSteps
    }

    /// Model steps skipped with `note` in the repeats that began, plus every selected
    /// model step of the repeats that never began.
    static func undoneModelSteps(of repeats: [[FixtureResult]], repeatsAskedFor: Int, note: String) -> Int {
        let modelSteps = repeats.map { $0.flatMap(\.steps).filter { $0.id.step != nil } }
        let skipped = modelSteps.map { steps in steps.filter { $0.status == .skipped && $0.note == note }.count }.reduce(0, +)
        let selectedPerRepeat = modelSteps.first?.filter { !$0.wasNotSelected }.count ?? 0
        return skipped + max(0, repeatsAskedFor - repeats.count) * selectedPerRepeat
    }
}
