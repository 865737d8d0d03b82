/// One of N parts of a run, for spreading the fixtures over CI machines
/// (`run --shard K/N`): fixture K, K+N, K+2N... of the names in sorted order.
///
/// The split depends only on the fixture list, so every machine of a CI matrix
/// computes the same one, and the parts are within one fixture of each other in size.
public struct Shard: Sendable, Hashable, Codable, CustomStringConvertible {
    /// 1-based.
    public let index: Int
    public let count: Int

    public init(index: Int, count: Int) throws(ShardError) {
        guard count >= 1, (1...count).contains(index) else { throw ShardError(text: "\(index)/\(count)") }
        self.index = index
        self.count = count
    }

    /// `2/3`: shard 2 of 3.
    public init(parsing text: String) throws(ShardError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count <= 1000 else {
            throw ShardError(text: text)
        }
        try self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }

    /// The names this shard runs, in sorted order.
    public func select(_ names: [String]) -> [String] {
        Set(names).sorted().enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }

    /// Whether this shard reports the orphaned golden files of `fixture`: a fixture of
    /// the list belongs to its shard; one no longer in the list, to shard 1 alone.
    public func reportsOrphans(of fixture: String, fixtureNames: [String]) -> Bool {
        fixtureNames.contains(fixture) ? select(fixtureNames).contains(fixture) : index == 1
    }
}

/// A `--shard` value that is not K/N with 1 ≤ K ≤ N.
public struct ShardError: Error, Sendable, CustomStringConvertible {
    public let text: String

    public var description: String {
        "`\(text)` is not a shard: write K/N, shard K of N, with 1 ≤ K ≤ N ≤ 1000 (for example 2/4)."
    }
}
