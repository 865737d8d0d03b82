/// Suggests the known name a mistyped one was probably meant to be.
public enum ClosestMatch {
    /// The candidate nearest to `word` (case-insensitive edit distance), when it
    /// is close enough to be a plausible typo.
    public static func suggestion(for word: String, among candidates: [String]) -> String? {
        let lowered = Array(word.lowercased())
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, Array(candidate.lowercased()))
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        guard let best else { return nil }
        let allowed = max(2, min(lowered.count, best.candidate.count) / 3)
        return best.distance <= allowed ? best.candidate : nil
    }

    /// Levenshtein distance, with a transposition counted as one edit.
    static func editDistance(_ source: [Character], _ target: [Character]) -> Int {
        if source.isEmpty { return target.count }
        if target.isEmpty { return source.count }
        var previousPrevious = [Int](repeating: 0, count: target.count + 1)
        var previous = Array(0...target.count)
        var current = [Int](repeating: 0, count: target.count + 1)
        for i in 1...source.count {
            current[0] = i
            for j in 1...target.count {
                let cost = source[i - 1] == target[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, source[i - 1] == target[j - 2], source[i - 2] == target[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[target.count]
    }
}
