import CCurl
import Foundation

/// The default transport on Linux: libcurl's easy interface on a thread of its own.
///
/// FoundationNetworking's URLSession busy-waits on Linux while a response is
/// pending (measured on a 2-core Linux machine: about 0.9 CPU-seconds per second of waiting, even for
/// a plain GET), which steals a core from a local model on a small machine.
/// libcurl itself waits in `poll` at no cost, and its `CURLOPT_TIMEOUT_MS` is a
/// true total deadline.
public struct CurlTransport: HTTPTransport {
    /// The longest a whole exchange may take, in seconds.
    public let deadline: Double
    /// The longest connecting may take, in seconds.
    public let connectTimeout: Double

    public init(deadline: Double = 300, connectTimeout: Double = 10) {
        self.deadline = deadline
        self.connectTimeout = connectTimeout
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let token = CancelToken()
        let deadline = self.deadline
        let connectTimeout = min(self.connectTimeout, deadline)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, Error>) in
                // A blocking call gets its own thread, never one of the cooperative pool's.
                let thread = Thread {
                    continuation.resume(with: Self.perform(request, deadline: deadline, connectTimeout: connectTimeout, token: token))
                }
                thread.name = "trainer-eval.http"
                thread.start()
            }
        } onCancel: {
            token.cancel()
        }
    }

    private static func perform(
        _ request: HTTPRequest, deadline: Double, connectTimeout: Double, token: CancelToken
    ) -> Result<HTTPResponse, Error> {
        let headerLines = request.headers.map { "\($0.key): \($0.value)" }
        var result = ccurl_result()
        defer { ccurl_result_free(&result) }
        let code = withCStrings(headerLines) { headers in
            request.body.withUnsafeBytes { body in
                ccurl_perform(
                    request.method, request.url.absoluteString, headers, headerLines.count,
                    request.body.isEmpty ? nil : body.baseAddress?.assumingMemoryBound(to: CChar.self), request.body.count,
                    Int(deadline * 1000), Int(connectTimeout * 1000), token.pointer, &result)
            }
        }
        let message = withUnsafeBytes(of: result.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        switch Int(code) {
        case Int(CCURL_OK):
            let body = result.body.data.map { Data(bytes: $0, count: result.body.length) } ?? Data()
            let headerText = result.headers.data.map { String(decoding: Data(bytes: $0, count: result.headers.length), as: UTF8.self) } ?? ""
            return .success(HTTPResponse(status: result.status, headers: parseHeaders(headerText), body: body))
        case Int(CCURL_OPERATION_TIMEDOUT):
            return .failure(TransportError.timedOut(url: request.url, seconds: deadline))
        case Int(CCURL_ABORTED_BY_CALLBACK):
            return .failure(TransportError.cancelled)
        case Int(CCURL_COULDNT_CONNECT), Int(CCURL_COULDNT_RESOLVE_HOST):
            return .failure(TransportError.unreachable(url: request.url, reason: message))
        case Int(CCURL_PARTIAL_FILE):
            return .failure(TransportError.connectionFailed(url: request.url, reason: "the connection closed before the whole response arrived (\(message))"))
        default:
            return .failure(TransportError.connectionFailed(url: request.url, reason: message))
        }
    }

    /// The headers of the final response (after any interim 1xx), names lower-cased.
    static func parseHeaders(_ text: String) -> [String: String] {
        let lines = text.components(separatedBy: "\r\n")
        let start = (lines.lastIndex { $0.hasPrefix("HTTP/") } ?? -1) + 1
        var headers: [String: String] = [:]
        for line in lines[start...] {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return headers
    }

    private static func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> T) -> T {
        let duplicates = strings.map { strdup($0) }
        defer { duplicates.forEach { free($0) } }
        let pointers: [UnsafePointer<CChar>?] = duplicates.map { $0.map { UnsafePointer($0) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}

/// Owns a libcurl cancel token for as long as a transfer may read it.
private final class CancelToken: @unchecked Sendable {
    let pointer: OpaquePointer?

    init() {
        pointer = ccurl_cancel_token_new()
    }

    func cancel() {
        ccurl_cancel_token_cancel(pointer)
    }

    deinit {
        ccurl_cancel_token_free(pointer)
    }
}
