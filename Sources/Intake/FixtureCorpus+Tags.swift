extension FixtureCorpus {
    /// The fixtures named in `names` or whose scenario carries any of `tags` (a union:
    /// each selects on its own), each once: the named ones in the order given, then the
    /// tagged ones in name order. Neither given selects every fixture. A tag no fixture
    /// carries is an error listing the known tags, with the nearest one.
    public func load(names: [String], tags: [String]) throws(FixtureError) -> [Fixture] {
        guard !tags.isEmpty else { return try load(names: names) }
        try checkNames(names)
        let every = try load(names: [])
        let known = Set(every.flatMap(\.scenario.tags)).sorted()
        for tag in tags where !known.contains(tag) {
            throw .unknownTag(tag, suggestion: ClosestMatch.suggestion(for: tag, among: known), known: known)
        }
        let byName = Dictionary(uniqueKeysWithValues: every.map { ($0.name, $0) })
        var seen: Set<String> = []
        let named = names.filter { seen.insert($0).inserted }.compactMap { byName[$0] }
        let wanted = Set(tags)
        let tagged = every.filter { !seen.contains($0.name) && !wanted.isDisjoint(with: $0.scenario.tags) }
        return named + tagged
    }
}
