import Foundation

/// A request exactly as the loopback server received it.
public struct RecordedRequest: Sendable, CustomStringConvertible {
    /// For example `POST`.
    public var method: String
    /// The request target as sent, query included: `/v1/chat/completions?x=1`.
    public var target: String
    /// For example `HTTP/1.1`.
    public var version: String
    /// The headers in the order they arrived, names as the client wrote them.
    public var headers: [HTTPHeader]
    /// The body after any chunked transfer coding was removed.
    public var body: Data
    /// This request's position among all the server received, from 0.
    public var index: Int
    /// Which accepted connection carried it, from 0: requests on a reused connection share it.
    public var connection: Int

    public init(
        method: String, target: String, version: String = "HTTP/1.1", headers: [HTTPHeader] = [], body: Data = Data(),
        index: Int = 0, connection: Int = 0
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        self.index = index
        self.connection = connection
    }

    /// The target without its query, still percent-encoded as sent.
    public var path: String {
        String(target.prefix { $0 != "?" })
    }

    /// The query after `?`, if any, still percent-encoded.
    public var query: String? {
        guard let mark = target.firstIndex(of: "?") else { return nil }
        return String(target[target.index(after: mark)...])
    }

    /// The first value of the header called `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.value(for: name)
    }

    /// The body as UTF-8 text (invalid bytes replaced).
    public var bodyText: String {
        String(decoding: body, as: UTF8.self)
    }

    public var description: String {
        "#\(index) \(method) \(target) (\(body.count) bytes)"
    }
}
