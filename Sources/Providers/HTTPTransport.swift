import Foundation

/// An HTTP request as providers build it.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: URL
    public var headers: [String: String]
    public var body: Data

    public init(method: String = "POST", url: URL, headers: [String: String] = [:], body: Data = Data()) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// An HTTP response: status, headers (names lower-cased) and body.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// The one seam between providers and the network.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// A request that got no HTTP response.
public enum TransportError: Error, Equatable, CustomStringConvertible {
    case timedOut(url: URL, seconds: Double)
    case connectionFailed(url: URL, reason: String)
    /// Refused, no route, or a host name that does not resolve: nothing is listening there.
    case unreachable(url: URL, reason: String)
    case cancelled

    public var description: String {
        switch self {
        case .timedOut(let url, let seconds):
            return "No complete response from \(url.host ?? url.absoluteString) within \(String(format: "%g", seconds)) s."
        case .connectionFailed(let url, let reason), .unreachable(let url, let reason):
            return "Could not reach \(url.scheme ?? "http")://\(url.host ?? "")\(url.port.map { ":\($0)" } ?? ""): \(reason). Is the server running and the base URL right?"
        case .cancelled:
            return "The request was cancelled."
        }
    }
}
