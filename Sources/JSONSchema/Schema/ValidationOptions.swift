/// How a compiled schema validates.
public struct ValidationOptions: Hashable, Sendable {
    /// Treat `format` as an assertion (date, date-time, time, duration, email,
    /// uuid, uri, ipv4, ipv6, and a few more) instead of an annotation.
    public var assertsFormat: Bool = false

    public init(assertsFormat: Bool = false) {
        self.assertsFormat = assertsFormat
    }
}
