import Diff
import Intake
import JSONSchema

/// The insta-style review of pending outputs: what waits for approval, how each
/// differs from golden, and accepting or rejecting it. `pending`, `diff` and
/// `review` are views of this.
public struct PendingReview: Sendable {
    /// One pending output and how it differs from its approved one.
    public struct Item: Sendable {
        public var key: StepKey
        public var approved: GoldenEntry?
        public var pending: GoldenEntry
        public var diff: GoldenDiff

        /// `new` when nothing is approved yet, else `changed`.
        public var kind: String { approved == nil ? "new" : "changed" }

        /// Checks that passed in golden and fail now: accepting makes them known failures.
        public var acceptsRegression: Bool { !diff.newlyFailing.isEmpty }
    }

    public let store: GoldenStore
    /// How a step's outputs are diffed, by fixture step id (from each step's `prompt.yaml`).
    public let diffOptions: @Sendable (String) -> JSONDiff.Options

    public init(store: GoldenStore, diffOptions: @escaping @Sendable (String) -> JSONDiff.Options = { _ in .init() }) {
        self.store = store
        self.diffOptions = diffOptions
    }

    /// The pending outputs the selection includes, in fixture and step order.
    public func items(where includes: (StepKey) -> Bool = { _ in true }) throws(GoldenError) -> [Item] {
        var items: [Item] = []
        for key in store.entries(pending: true) where includes(key) {
            guard let pending = try store.pending(fixture: key.fixture, step: key.step) else { continue }
            let approved = try store.approved(fixture: key.fixture, step: key.step)
            let diff = GoldenDiff(approved: approved, pending: pending, options: diffOptions(key.step))
            items.append(Item(key: key, approved: approved, pending: pending, diff: diff))
        }
        return items
    }

    /// Makes the pending output golden.
    public func accept(_ item: Item) throws {
        try store.accept(fixture: item.key.fixture, step: item.key.step)
    }

    /// Discards the pending output; golden stays as it is.
    public func reject(_ item: Item) {
        store.reject(fixture: item.key.fixture, step: item.key.step)
    }
}
