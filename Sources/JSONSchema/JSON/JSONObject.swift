/// The members of a JSON object, in source order, with fast lookup by key.
///
/// Keys are unique: building an object from members that repeat a key keeps the
/// last value in the first key's position (the parser decides separately
/// whether a repeated key is an error).
public struct JSONObject: Sendable {
    public struct Member: Hashable, Sendable {
        public var key: String
        public var value: JSONValue

        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// Below this many members a linear scan beats hashing.
    private static let indexThreshold = 12

    public private(set) var members: [Member]
    private var index: [String: Int]?

    public init() {
        members = []
        index = nil
    }

    public init(_ members: [Member]) {
        self.init()
        self.members.reserveCapacity(members.count)
        for member in members { self[member.key] = member.value }
    }

    /// Members already known to have distinct keys (the parser checks as it reads).
    init(uniqueMembers: [Member]) {
        members = uniqueMembers
        index = nil
        rebuildIndex()
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    public var keys: [String] { members.map(\.key) }

    public func position(of key: String) -> Int? {
        if let index { return index[key] }
        return members.firstIndex { $0.key == key }
    }

    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            if let position = position(of: key) {
                if let newValue {
                    members[position].value = newValue
                } else {
                    members.remove(at: position)
                    rebuildIndex()
                }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
                if index != nil {
                    index![key] = members.count - 1
                } else if members.count > Self.indexThreshold {
                    rebuildIndex()
                }
            }
        }
    }

    /// The same members ordered by key (Unicode code point order), for canonical output.
    public func sortedByKey() -> JSONObject {
        var copy = self
        copy.members.sort(by: Self.keyOrder)
        copy.rebuildIndex()
        return copy
    }

    /// Code point order of keys; comparing UTF-8 bytes gives it cheaply.
    static func keyOrder(_ left: Member, _ right: Member) -> Bool {
        left.key.utf8.lexicographicallyPrecedes(right.key.utf8)
    }

    /// Whether both are copies of one value: then they are equal without comparing a member.
    private func sharesStorage(with other: JSONObject) -> Bool {
        members.withUnsafeBufferPointer { mine in
            other.members.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress }
        }
    }

    private mutating func rebuildIndex() {
        guard members.count > Self.indexThreshold else {
            index = nil
            return
        }
        var built = [String: Int](minimumCapacity: members.count)
        for (position, member) in members.enumerated() { built[member.key] = position }
        index = built
    }
}

extension JSONObject: Sequence {
    public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }
}

extension JSONObject: Hashable {
    /// Objects are equal when they have the same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.sharesStorage(with: rhs) { return true }
        for member in lhs.members where rhs[member.key] != member.value { return false }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent: combine the members' own hashes commutatively.
        var combined = 0
        for member in members { combined ^= member.hashValue }
        hasher.combine(count)
        hasher.combine(combined)
    }
}
