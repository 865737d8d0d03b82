import Foundation

/// What the loopback server answers to one request, and how it misbehaves while doing so.
public struct ScriptedResponse: Sendable, CustomStringConvertible {
    /// How the answer goes out on the wire.
    public enum Delivery: Sendable, Hashable {
        /// Head and body at once; the connection stays open for the next request.
        case normal
        /// Never answer; the connection stays open until the client leaves or the server stops.
        case hang
        /// The head at once, then the body `chunkSize` bytes at a time, `interval` seconds apart.
        case drip(chunkSize: Int, interval: Double)
        /// The head with the full `Content-Length`, then only `sentBytes` of the body
        /// (half of it when nil), then the connection is closed.
        case closeMidBody(sentBytes: Int?)
        /// Close the connection without sending a single byte.
        case closeWithoutResponse
    }

    /// The HTTP status code, e.g. `429`.
    public var status: Int
    /// Headers to send. `Content-Length` is added unless present (a wrong one is sent as given).
    public var headers: [HTTPHeader]
    /// The body exactly as it goes out (for `.closeMidBody`, the part sent is a prefix).
    public var body: Data
    /// Seconds to wait before anything is sent.
    public var delay: Double
    /// How the answer goes out: at once, slowly, cut off, or not at all.
    public var delivery: Delivery

    public init(
        status: Int = 200, headers: [HTTPHeader] = [], body: Data = Data(), delay: Double = 0,
        delivery: Delivery = .normal
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
        self.delivery = delivery
    }

    /// A response with `text` as its body and `contentType`, plus `headers`.
    public static func body(
        _ text: String, contentType: String, status: Int = 200, headers: [String: String] = [:]
    ) -> ScriptedResponse {
        var all = [HTTPHeader("Content-Type", contentType)]
        all += headers.sorted { $0.key < $1.key }.map { HTTPHeader($0.key, $0.value) }
        return ScriptedResponse(status: status, headers: all, body: Data(text.utf8))
    }

    /// A JSON answer (`application/json`); `text` is sent exactly as given.
    public static func json(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> ScriptedResponse {
        body(text, contentType: "application/json", status: status, headers: headers)
    }

    /// A plain-text answer.
    public static func text(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> ScriptedResponse {
        body(text, contentType: "text/plain; charset=utf-8", status: status, headers: headers)
    }

    /// An HTML answer, like a proxy's or load balancer's error page.
    public static func html(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> ScriptedResponse {
        body(text, contentType: "text/html; charset=utf-8", status: status, headers: headers)
    }

    /// A bare status with an empty body.
    public static func status(_ status: Int, headers: [String: String] = [:]) -> ScriptedResponse {
        ScriptedResponse(status: status, headers: headers.sorted { $0.key < $1.key }.map { HTTPHeader($0.key, $0.value) })
    }

    /// Accept the request and never answer.
    public static let hang = ScriptedResponse(delivery: .hang)

    /// Close the connection as soon as the request has arrived, sending nothing.
    public static let closeWithoutResponse = ScriptedResponse(delivery: .closeWithoutResponse)

    /// `response`, sent after waiting `seconds`.
    public static func delay(_ seconds: Double, _ response: ScriptedResponse) -> ScriptedResponse {
        response.delayed(by: seconds)
    }

    /// This response, sent after waiting `seconds`.
    public func delayed(by seconds: Double) -> ScriptedResponse {
        var copy = self
        copy.delay = seconds
        return copy
    }

    /// This response with its body sent slowly: `chunkSize` bytes every `interval` seconds.
    public func dripped(chunkSize: Int, interval: Double) -> ScriptedResponse {
        var copy = self
        copy.delivery = .drip(chunkSize: max(1, chunkSize), interval: interval)
        return copy
    }

    /// This response cut off: its full `Content-Length`, `sentBytes` of its body (default half), then a close.
    public func closingMidBody(sentBytes: Int? = nil) -> ScriptedResponse {
        var copy = self
        copy.delivery = .closeMidBody(sentBytes: sentBytes)
        return copy
    }

    /// This response with one more header.
    public func adding(header name: String, _ value: String) -> ScriptedResponse {
        var copy = self
        copy.headers.append(HTTPHeader(name, value))
        return copy
    }

    /// For example `200 application/json, 863 bytes, closeMidBody(sentBytes: nil)`.
    public var description: String {
        var parts = ["\(status) \(headers.value(for: "Content-Type") ?? "(no type)"), \(body.count) bytes"]
        if delay > 0 { parts.append("after \(delay) s") }
        if delivery != .normal { parts.append("\(delivery)") }
        return parts.joined(separator: ", ")
    }
}
