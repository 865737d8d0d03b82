/// A fixed list of strings (property names, `enum` values) searched by exact
/// code points, the equality JSON Schema uses.
///
/// Schemas list few names, so a search compares UTF-8 bytes one entry after
/// another, which is cheaper than hashing the key; only long lists get a
/// dictionary. The bytes live in one buffer the table owns, so a search does
/// no reference counting.
final class ExactStrings {
    let strings: [String]
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private let spans: UnsafeMutableBufferPointer<Span>
    private let lookup: [String: Int]?

    /// Where one string's bytes are in `bytes`.
    private struct Span {
        let start: Int
        let count: Int
    }

    /// Above this many strings a dictionary beats comparing bytes.
    private static let scanLimit = 16

    /// `strings` in order; a repeated string is found at its first position.
    init(_ strings: [String]) {
        self.strings = strings
        let all = strings.flatMap(\.utf8)
        bytes = .allocate(capacity: max(all.count, 1))
        _ = bytes.initialize(from: all)
        spans = .allocate(capacity: strings.count)
        var start = 0
        for (position, string) in strings.enumerated() {
            let count = string.utf8.count
            (spans.baseAddress! + position).initialize(to: Span(start: start, count: count))
            start += count
        }
        var lookup: [String: Int] = [:]
        for (position, string) in strings.enumerated().reversed() { lookup[string] = position }
        self.lookup = strings.count > Self.scanLimit ? lookup : nil
    }

    deinit {
        bytes.deallocate()
        spans.deallocate()
    }

    var count: Int { strings.count }

    /// The position of `key`, or nil. `hint` is checked first: instances
    /// usually list properties in the schema's order.
    @inline(__always)
    func position(of key: String, hint: Int = 0) -> Int? {
        if let lookup {
            // The dictionary equates canonically equivalent strings; confirm by code points.
            guard let position = lookup[key] else { return nil }
            if strings[position].hasSameScalars(as: key) { return position }
            return strings.firstIndex { $0.hasSameScalars(as: key) }
        }
        let scanned = key.utf8.withContiguousStorageIfAvailable { key -> Int? in
            if hint < spans.count, matches(hint, key) { return hint }
            for position in 0..<spans.count where matches(position, key) { return position }
            return nil
        }
        return scanned ?? strings.firstIndex { $0.hasSameScalars(as: key) }
    }

    @inline(__always)
    private func matches(_ position: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let span = spans[position]
        guard span.count == key.count else { return false }
        return span.count == 0 || bytesEqual(bytes.baseAddress! + span.start, key.baseAddress!, count: span.count)
    }
}
