/// One HTTP header line, with its name as it was written.
public struct HTTPHeader: Hashable, Sendable, CustomStringConvertible {
    /// The name as written; compare names case-insensitively.
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    public var description: String { "\(name): \(value)" }
}

extension Array where Element == HTTPHeader {
    /// The first value of the header called `name`, compared case-insensitively.
    public func value(for name: String) -> String? {
        first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Every value of the header called `name`, compared case-insensitively, in order.
    public func values(for name: String) -> [String] {
        filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }
}
