import Foundation

/// One accepted connection: reads requests (keep-alive, pipelining, `Expect: 100-continue`,
/// chunked bodies), records them, and writes the scripted answers with their faults.
struct HTTPConnection {
    let socket: Socket
    let number: Int
    let core: ServerCore
    private var buffer: [UInt8] = []

    /// A connection that sends nothing for this long is closed.
    static let idleLimit: Double = 30
    static let maximumHeadBytes = 1 << 20
    static let maximumBodyBytes = 256 << 20

    init(socket: Socket, number: Int, core: ServerCore) {
        self.socket = socket
        self.number = number
        self.core = core
    }

    /// Answers requests until the client leaves, a fault closes the connection, or the server stops.
    mutating func serve() {
        socket.setSendTimeout(10)
        while !core.isStopped {
            guard let request = readRequest() else { return }
            let recorded = core.record(request)
            let response = core.handler(recorded)
            guard respond(response, to: recorded) else { return }
        }
    }

    // MARK: Reading

    /// Reads more bytes into the buffer; false when the client left, went idle, or the server stopped.
    private mutating func readMore() -> Bool {
        var waited = 0.0
        while !core.isStopped && waited < Self.idleLimit {
            switch socket.read(timeout: 0.05) {
            case .data(let data):
                buffer.append(contentsOf: data)
                return true
            case .timedOut:
                waited += 0.05
            case .closed:
                return false
            }
        }
        return false
    }

    /// Makes sure the buffer holds at least `count` bytes.
    private mutating func fill(to count: Int) -> Bool {
        while buffer.count < count {
            guard readMore() else { return false }
        }
        return true
    }

    /// The next line ending in CRLF, without it, consumed from the buffer.
    private mutating func readLine() -> String? {
        var searchedUpTo = 0
        while true {
            if let end = Self.find([13, 10], in: buffer, from: searchedUpTo) {
                let line = String(decoding: buffer[0..<end], as: UTF8.self)
                buffer.removeFirst(end + 2)
                return line
            }
            searchedUpTo = max(0, buffer.count - 1)
            guard buffer.count < Self.maximumHeadBytes, readMore() else { return nil }
        }
    }

    /// The next request, or nil when none can be read (client gone, malformed, stopped).
    private mutating func readRequest() -> RecordedRequest? {
        // Tolerate stray CRLFs between requests (RFC 9112 §2.2).
        var requestLine = ""
        while requestLine.isEmpty {
            guard let line = readLine() else { return nil }
            requestLine = line
        }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 3 else { return nil }
        var headers: [HTTPHeader] = []
        var headBytes = requestLine.utf8.count
        while true {
            guard let line = readLine() else { return nil }
            if line.isEmpty { break }
            headBytes += line.utf8.count
            guard headBytes < Self.maximumHeadBytes, let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.append(HTTPHeader(name, value))
        }
        let chunked = headers.value(for: "Transfer-Encoding")?.lowercased().contains("chunked") ?? false
        let length = chunked ? 0 : Int(headers.value(for: "Content-Length") ?? "0") ?? -1
        guard length >= 0, length <= Self.maximumBodyBytes else { return nil }

        let wantsContinue = headers.value(for: "Expect")?.lowercased() == "100-continue"
        if wantsContinue && (chunked || buffer.count < length) {
            guard socket.send(Data("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return nil }
        }
        let body: [UInt8]
        if chunked {
            guard let decoded = readChunkedBody() else { return nil }
            body = decoded
        } else {
            guard fill(to: length) else { return nil }
            body = Array(buffer[0..<length])
            buffer.removeFirst(length)
        }
        return RecordedRequest(
            method: String(parts[0]), target: String(parts[1]), version: String(parts[2]), headers: headers,
            body: Data(body), index: 0, connection: number)
    }

    private mutating func readChunkedBody() -> [UInt8]? {
        var body: [UInt8] = []
        while true {
            guard let line = readLine() else { return nil }
            let sizeText = line.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
            guard let size = Int(sizeText, radix: 16), size >= 0, body.count + size <= Self.maximumBodyBytes else {
                return nil
            }
            if size == 0 {
                // Trailer fields, up to the empty line.
                while true {
                    guard let trailer = readLine() else { return nil }
                    if trailer.isEmpty { return body }
                }
            }
            guard fill(to: size + 2) else { return nil }
            body.append(contentsOf: buffer[0..<size])
            buffer.removeFirst(size + 2)
        }
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        for index in start...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
        }
        return nil
    }

    // MARK: Writing

    /// Sends `response` as scripted; true when the connection can carry another request.
    private func respond(_ response: ScriptedResponse, to request: RecordedRequest) -> Bool {
        if response.delay > 0 {
            guard core.pause(response.delay) else { return false }
        }
        let body = request.method == "HEAD" ? Data() : response.body
        let keepAlive = Self.keepsAlive(request: request, response: response)
        switch response.delivery {
        case .closeWithoutResponse:
            return false
        case .hang:
            while !core.isStopped && !socket.peerHasClosed() {
                usleep(20_000)
            }
            return false
        case .normal:
            return socket.send(Self.head(for: response) + body) && keepAlive
        case .drip(let chunkSize, let interval):
            guard socket.send(Self.head(for: response)) else { return false }
            var offset = 0
            while offset < body.count {
                let end = min(body.count, offset + chunkSize)
                guard socket.send(body.subdata(in: offset..<end)) else { return false }
                offset = end
                if offset < body.count {
                    guard core.pause(interval) else { return false }
                }
            }
            return keepAlive
        case .closeMidBody(let sentBytes):
            let count = min(body.count, max(0, sentBytes ?? body.count / 2))
            socket.send(Self.head(for: response) + body.prefix(count))
            return false
        }
    }

    static func keepsAlive(request: RecordedRequest, response: ScriptedResponse) -> Bool {
        let asked = request.header("Connection")?.lowercased()
        let answered = response.headers.value(for: "Connection")?.lowercased()
        if asked == "close" || answered == "close" { return false }
        return request.version == "HTTP/1.1" || asked == "keep-alive"
    }

    static func head(for response: ScriptedResponse) -> Data {
        var lines = ["HTTP/1.1 \(response.status) \(reasonPhrase(response.status))"]
        lines += response.headers.map(\.description)
        if response.headers.value(for: "Content-Length") == nil && response.headers.value(for: "Transfer-Encoding") == nil {
            lines.append("Content-Length: \(response.body.count)")
        }
        return Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 201: return "Created"
        case 204: return "No Content"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 408: return "Request Timeout"
        case 413: return "Content Too Large"
        case 422: return "Unprocessable Content"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        case 529: return "Overloaded"
        default: return "Status \(status)"
        }
    }
}
