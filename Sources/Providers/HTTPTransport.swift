import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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

/// The real transport: URLSession, with a total deadline per request.
///
/// On Linux `URLRequest.timeoutInterval` is only an idle timeout, so the total
/// deadline is enforced here by racing the request against a sleep.
public struct URLSessionTransport: HTTPTransport {
    let session: URLSession
    /// The longest a whole exchange may take, in seconds.
    public let deadline: Double

    public init(deadline: Double = 300, maximumConnections: Int = 8) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = maximumConnections
        configuration.timeoutIntervalForRequest = deadline
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
        self.deadline = deadline
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let session = self.session
        let deadline = self.deadline
        return try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
            group.addTask {
                var urlRequest = URLRequest(url: request.url)
                urlRequest.httpMethod = request.method
                urlRequest.httpBody = request.body
                urlRequest.timeoutInterval = deadline
                for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
                urlRequest.setValue("", forHTTPHeaderField: "Expect")
                do {
                    let (data, response) = try await session.data(for: urlRequest)
                    guard let http = response as? HTTPURLResponse else {
                        throw TransportError.notHTTP(url: request.url)
                    }
                    var headers: [String: String] = [:]
                    for (name, value) in http.allHeaderFields {
                        headers[String(describing: name).lowercased()] = String(describing: value)
                    }
                    return HTTPResponse(status: http.statusCode, headers: headers, body: data)
                } catch let error as URLError {
                    throw TransportError(urlError: error, url: request.url, deadline: deadline)
                }
            }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(deadline * 1_000_000_000))
                throw TransportError.timedOut(url: request.url, seconds: deadline)
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }
}

/// A request that got no HTTP response.
public enum TransportError: Error, Equatable, CustomStringConvertible {
    case timedOut(url: URL, seconds: Double)
    case connectionFailed(url: URL, reason: String)
    case cancelled
    case notHTTP(url: URL)

    init(urlError: URLError, url: URL, deadline: Double) {
        switch urlError.code {
        case .timedOut: self = .timedOut(url: url, seconds: deadline)
        case .cancelled: self = .cancelled
        default: self = .connectionFailed(url: url, reason: urlError.localizedDescription)
        }
    }

    public var description: String {
        switch self {
        case .timedOut(let url, let seconds):
            return "No complete response from \(url.host ?? url.absoluteString) within \(Int(seconds)) s."
        case .connectionFailed(let url, let reason):
            return "Could not reach \(url.scheme ?? "http")://\(url.host ?? "")\(url.port.map { ":\($0)" } ?? ""): \(reason). Is the server running and the base URL right?"
        case .cancelled:
            return "The request was cancelled."
        case .notHTTP(let url):
            return "\(url.absoluteString) did not answer with HTTP."
        }
    }
}
