import JSONSchema

/// A structural diff of two JSON values that matches array elements by their identifying keys.
///
/// Objects are compared member by member. Arrays of objects are matched by the
/// first of `Options.arrayKeys` that every element of both arrays has, with
/// unique values; matched elements are diffed recursively and reordering is
/// reported as moves. Other arrays are aligned on their equal elements (a
/// longest common subsequence), and the runs between those are compared by
/// position, so one inserted element is one addition.
public struct JSONDiff: Sendable, Hashable {
    /// What counts as the same element and the same number.
    public struct Options: Sendable, Hashable {
        /// Keys that identify array elements, tried in order.
        ///
        /// An array of objects is matched by the first key that every element
        /// of both arrays has, with a string or number value unique within its
        /// array; otherwise elements are matched by position.
        public var arrayKeys: [String]
        /// Numbers whose absolute difference is at most this are equal.
        public var numericTolerance: Double

        /// Options with the usual identifying keys (`id`, `day`, `name`, `weeks`) and exact numbers.
        public init(arrayKeys: [String] = ["id", "day", "name", "weeks"], numericTolerance: Double = 0) {
            self.arrayKeys = arrayKeys
            self.numericTolerance = numericTolerance
        }
    }

    /// One difference, located by a readable path.
    public struct Change: Sendable, Hashable {
        /// The sort of difference.
        public enum Kind: String, Sendable, Hashable, Codable {
            case added, removed, changed, moved
        }

        /// Where a keyed element was in the old array and is in the new one.
        public struct Move: Sendable, Hashable {
            /// The element's index in the old array.
            public let from: Int
            /// The element's index in the new array.
            public let to: Int

            public init(from: Int, to: Int) {
                self.from = from
                self.to = to
            }
        }

        /// Whether the value was added, removed, changed or moved.
        public let kind: Kind
        /// The location, with keyed elements named by their key:
        /// `program_json.sessions[day=2].exercises[name="Goblet squat"].reps`,
        /// `options[id="run-5k"]`, `program_json.equipment[3]`, or `(root)`.
        ///
        /// Positions are indices in the new value, except for removals, which
        /// give the index the element had in the old value.
        public let path: String
        /// The value before; nil for `added` and `moved`.
        public let oldValue: JSONValue?
        /// The value after; nil for `removed` and `moved`.
        public let newValue: JSONValue?
        /// The old and new index of a `moved` element; nil for other kinds.
        public let move: Move?

        public init(
            kind: Kind, path: String, oldValue: JSONValue? = nil, newValue: JSONValue? = nil, move: Move? = nil
        ) {
            self.kind = kind
            self.path = path
            self.oldValue = oldValue
            self.newValue = newValue
            self.move = move
        }
    }

    /// How many changes of each kind a diff has.
    public struct Counts: Sendable, Hashable {
        public var added = 0
        public var removed = 0
        public var changed = 0
        public var moved = 0

        public init(added: Int = 0, removed: Int = 0, changed: Int = 0, moved: Int = 0) {
            self.added = added
            self.removed = removed
            self.changed = changed
            self.moved = moved
        }

        /// All changes, whatever their kind.
        public var total: Int { added + removed + changed + moved }
    }

    /// The changes in the new value's document order; removals sit where the removed value was.
    public let changes: [Change]

    /// Diffs `old` against `new`.
    public init(old: JSONValue, new: JSONValue, options: Options = .init()) {
        var differ = Differ(options: options)
        differ.diff(old, new, at: "")
        changes = differ.changes
    }

    /// True when the two values are equal under the options.
    public var isEmpty: Bool { changes.isEmpty }

    /// The number of changes of each kind.
    public var counts: Counts {
        var counts = Counts()
        for change in changes {
            switch change.kind {
            case .added: counts.added += 1
            case .removed: counts.removed += 1
            case .changed: counts.changed += 1
            case .moved: counts.moved += 1
            }
        }
        return counts
    }
}

private struct Differ {
    let options: JSONDiff.Options
    var changes: [JSONDiff.Change] = []

    init(options: JSONDiff.Options) {
        self.options = options
    }

    mutating func diff(_ old: JSONValue, _ new: JSONValue, at path: String) {
        switch (old, new) {
        case (.object(let before), .object(let after)):
            diffObjects(before, after, at: path)
        case (.array(let before), .array(let after)):
            if let key = identifyingKey(before, after) {
                diffKeyed(before, after, key: key, at: path)
            } else {
                diffByPosition(before, after, at: path)
            }
        default:
            if !equivalent(old, new) { record(.changed, path, old: old, new: new) }
        }
    }

    private mutating func diffObjects(_ old: JSONObject, _ new: JSONObject, at path: String) {
        let oldPositions = new.members.map { old.position(of: $0.key) }
        let anchors = nextAnchors(oldPositions, oldCount: old.count)
        var cursor = 0
        func removals(before end: Int) -> [JSONDiff.Change] {
            guard cursor < end else { return [] }
            defer { cursor = end }
            return old.members[cursor..<end].filter { new[$0.key] == nil }.map {
                .init(kind: .removed, path: JSONDiff.path(path, key: $0.key), oldValue: $0.value)
            }
        }
        for (position, member) in new.members.enumerated() {
            changes += removals(before: anchors[position])
            let memberPath = JSONDiff.path(path, key: member.key)
            if let oldPosition = oldPositions[position] {
                diff(old.members[oldPosition].value, member.value, at: memberPath)
            } else {
                record(.added, memberPath, new: member.value)
            }
        }
        changes += removals(before: old.count)
    }

    private mutating func diffKeyed(_ old: [JSONValue], _ new: [JSONValue], key: String, at path: String) {
        let oldIDs = old.map { $0[key]! }
        let newIDs = new.map { $0[key]! }
        let oldIndex = Dictionary(uniqueKeysWithValues: oldIDs.enumerated().map { ($1, $0) })
        let newIndex = Dictionary(uniqueKeysWithValues: newIDs.enumerated().map { ($1, $0) })
        let commonOld = oldIDs.filter { newIndex[$0] != nil }
        let commonNew = newIDs.filter { oldIndex[$0] != nil }
        // New against old, so that ties keep the earlier old elements in place and report the ones brought forward.
        let stable = Set(longestCommonSubsequence(commonNew.count, commonOld.count) { commonNew[$0] == commonOld[$1] }
            .map { commonNew[$0.old] })
        let anchors = nextAnchors(newIDs.map { stable.contains($0) ? oldIndex[$0] : nil }, oldCount: old.count)

        var cursor = 0
        func removals(before end: Int) -> [JSONDiff.Change] {
            guard cursor < end else { return [] }
            defer { cursor = end }
            return (cursor..<end).filter { newIndex[oldIDs[$0]] == nil }.map {
                .init(kind: .removed, path: JSONDiff.path(path, key: key, id: oldIDs[$0]), oldValue: old[$0])
            }
        }
        for (position, id) in newIDs.enumerated() {
            changes += removals(before: anchors[position])
            let elementPath = JSONDiff.path(path, key: key, id: id)
            guard let oldPosition = oldIndex[id] else {
                record(.added, elementPath, new: new[position])
                continue
            }
            if !stable.contains(id) {
                changes.append(.init(kind: .moved, path: elementPath, move: .init(from: oldPosition, to: position)))
            }
            diff(old[oldPosition], new[position], at: elementPath)
        }
        changes += removals(before: old.count)
    }

    /// For each new position, the old position of the first anchor at or after it (`oldCount` when none),
    /// so that the removals in a gap between anchors are reported before the gap's new elements.
    private func nextAnchors(_ oldPositions: [Int?], oldCount: Int) -> [Int] {
        var result = [Int](repeating: oldCount, count: oldPositions.count + 1)
        for position in oldPositions.indices.reversed() {
            result[position] = oldPositions[position] ?? result[position + 1]
        }
        return result
    }

    private mutating func diffByPosition(_ old: [JSONValue], _ new: [JSONValue], at path: String) {
        let anchors = longestCommonSubsequence(old.count, new.count) { equivalent(old[$0], new[$1]) }
        var oldStart = 0, newStart = 0
        for anchor in anchors + [(old: old.count, new: new.count)] {
            let oldRun = oldStart..<anchor.old, newRun = newStart..<anchor.new
            let paired = min(oldRun.count, newRun.count)
            for offset in 0..<paired {
                diff(old[oldStart + offset], new[newStart + offset], at: JSONDiff.path(path, index: newStart + offset))
            }
            for index in oldRun.dropFirst(paired) {
                record(.removed, JSONDiff.path(path, index: index), old: old[index])
            }
            for index in newRun.dropFirst(paired) {
                record(.added, JSONDiff.path(path, index: index), new: new[index])
            }
            oldStart = anchor.old + 1
            newStart = anchor.new + 1
        }
    }

    private mutating func record(
        _ kind: JSONDiff.Change.Kind, _ path: String, old: JSONValue? = nil, new: JSONValue? = nil
    ) {
        changes.append(.init(kind: kind, path: path.isEmpty ? "(root)" : path, oldValue: old, newValue: new))
    }

    /// The first of the option keys that identifies every element of both arrays uniquely.
    private func identifyingKey(_ old: [JSONValue], _ new: [JSONValue]) -> String? {
        func identifies(_ key: String, _ elements: [JSONValue]) -> Bool {
            var seen = Set<JSONValue>()
            return elements.allSatisfy { element in
                guard let id = element[key], id.stringValue != nil || id.numberValue != nil else { return false }
                return seen.insert(id).inserted
            }
        }
        return options.arrayKeys.first { identifies($0, old) && identifies($0, new) }
    }

    private func equivalent(_ old: JSONValue, _ new: JSONValue) -> Bool {
        guard options.numericTolerance > 0 else { return old == new }
        switch (old, new) {
        case (.number(let before), .number(let after)):
            return abs(before - after) <= options.numericTolerance
        case (.array(let before), .array(let after)):
            return before.count == after.count && zip(before, after).allSatisfy { equivalent($0, $1) }
        case (.object(let before), .object(let after)):
            return before.count == after.count
                && before.allSatisfy { member in after[member.key].map { equivalent(member.value, $0) } ?? false }
        default:
            return old == new
        }
    }
}

/// Index pairs of a longest common subsequence of two sequences given by their lengths and an equality.
private func longestCommonSubsequence(
    _ oldCount: Int, _ newCount: Int, _ equal: (Int, Int) -> Bool
) -> [(old: Int, new: Int)] {
    var head = 0
    while head < oldCount, head < newCount, equal(head, head) { head += 1 }
    var tail = 0
    while tail < oldCount - head, tail < newCount - head, equal(oldCount - 1 - tail, newCount - 1 - tail) { tail += 1 }
    let rows = oldCount - head - tail, columns = newCount - head - tail
    var pairs = (0..<head).map { (old: $0, new: $0) }
    if rows > 0, columns > 0 {
        // lengths[i][j]: LCS length of the middle's old[i...] and new[j...].
        var lengths = [[Int]](repeating: [Int](repeating: 0, count: columns + 1), count: rows + 1)
        for i in stride(from: rows - 1, through: 0, by: -1) {
            for j in stride(from: columns - 1, through: 0, by: -1) {
                lengths[i][j] = equal(head + i, head + j)
                    ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var i = 0, j = 0
        while i < rows, j < columns {
            if equal(head + i, head + j) {
                pairs.append((old: head + i, new: head + j)); i += 1; j += 1
            } else if lengths[i + 1][j] >= lengths[i][j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
    }
    pairs += (0..<tail).reversed().map { (old: oldCount - 1 - $0, new: newCount - 1 - $0) }
    return pairs
}
