import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real HTTP/1.1 server on 127.0.0.1 for tests: records every request and answers
/// each with what a handler scripts, faults included.
///
/// It listens on an ephemeral port from the moment it is created, serves each
/// connection on its own thread, and stops when `stop()` is called or it is released.
/// Every wait inside is bounded, and `stop()` returns within a few seconds at most.
///
/// ```swift
/// let server = try LoopbackServer { request in .json(#"{"ok": true}"#) }
/// let url = server.url("/v1/chat/completions")
/// ```
public final class LoopbackServer: Sendable {
    /// The port the server listens on.
    public let port: UInt16
    /// `http://127.0.0.1:PORT`, without a trailing slash.
    public let baseURL: URL
    private let core: ServerCore

    /// Starts a server that answers every request with `handler`'s response.
    ///
    /// The handler runs on the connection's thread; it must not call `stop()`.
    public init(backlog: Int32 = 1024, handler: @escaping @Sendable (RecordedRequest) -> ScriptedResponse) throws {
        let (listener, port) = try Socket.listenOnLoopback(backlog: backlog)
        self.port = port
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        core = ServerCore(listener: listener, port: port, handler: handler)
        core.start()
    }

    /// Starts a server that gives every request the same answer.
    public convenience init(answering response: ScriptedResponse) throws {
        try self.init { _ in response }
    }

    /// Starts a server that answers from `sequence`, one response per request, in order.
    public convenience init(sequence: ResponseSequence) throws {
        try self.init(handler: sequence.handler)
    }

    /// Starts a server that answers `responses` in order, then repeats the last one.
    public convenience init(responses: [ScriptedResponse]) throws {
        try self.init(sequence: ResponseSequence(responses))
    }

    deinit {
        core.stop()
    }

    /// `baseURL` followed by `path` exactly as written (e.g. `"/v1"`).
    public func url(_ path: String) -> URL {
        URL(string: baseURL.absoluteString + path)!
    }

    /// Every complete request received so far, in arrival order.
    public var requests: [RecordedRequest] { core.requests }

    /// How many complete requests arrived.
    public var requestCount: Int { core.requests.count }

    /// The most recent complete request.
    public var lastRequest: RecordedRequest? { core.requests.last }

    /// How many connections were accepted (a reused keep-alive connection counts once).
    public var connectionCount: Int { core.connectionCount }

    /// Waits until at least `count` requests have arrived; false if `timeout` seconds pass
    /// first or the task is cancelled.
    ///
    /// It suspends rather than blocks: a blocking wait would hold one of the few threads
    /// of Swift's cooperative pool, which the request it waits for may need to start.
    @discardableResult
    public func waitForRequests(_ count: Int, timeout: Double = 5) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while core.requests.count < count {
            guard Date() < deadline, !Task.isCancelled else { return false }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return true
    }

    /// Stops listening, drops every connection (hanging answers end), and waits briefly for
    /// the server's threads. Safe to call more than once.
    public func stop() {
        core.stop()
    }
}

/// The server's shared state; connection threads hold this, not the server, so that
/// releasing the server stops it.
final class ServerCore: @unchecked Sendable {
    let listener: Socket
    let port: UInt16
    let handler: @Sendable (RecordedRequest) -> ScriptedResponse
    private let lock = NSLock()
    private let threads = DispatchGroup()
    private var stopped = false
    private var recorded: [RecordedRequest] = []
    /// Open connections by number. A socket is shut down or closed only under `lock` and
    /// only while listed here, so no call can reach a descriptor number the kernel has
    /// already handed to another socket.
    private var open: [Int: Socket] = [:]
    private var listening = true
    private var accepted = 0

    init(listener: Socket, port: UInt16, handler: @escaping @Sendable (RecordedRequest) -> ScriptedResponse) {
        self.listener = listener
        self.port = port
        self.handler = handler
    }

    var isStopped: Bool { lock.withLock { stopped } }
    var requests: [RecordedRequest] { lock.withLock { recorded } }
    var connectionCount: Int { lock.withLock { accepted } }

    func start() {
        threads.enter()
        let thread = Thread { [self] in
            acceptConnections()
            threads.leave()
        }
        thread.name = "LoopbackServer :\(port) accept"
        thread.start()
    }

    private func acceptConnections() {
        defer {
            lock.withLock {
                listening = false
                listener.close()
            }
        }
        while !isStopped {
            guard let socket = listener.accept(timeout: 0.05) else { continue }
            guard let number = register(socket) else {
                socket.close()
                return
            }
            threads.enter()
            let thread = Thread { [self] in
                var connection = HTTPConnection(socket: socket, number: number, core: self)
                connection.serve()
                close(number)
                threads.leave()
            }
            thread.name = "LoopbackServer :\(port) connection \(number)"
            thread.start()
        }
    }

    /// Numbers a new connection, or nil when the server has stopped.
    private func register(_ socket: Socket) -> Int? {
        lock.withLock {
            guard !stopped else { return nil }
            defer { accepted += 1 }
            open[accepted] = socket
            return accepted
        }
    }

    private func close(_ number: Int) {
        lock.withLock {
            guard let socket = open.removeValue(forKey: number) else { return }
            socket.shutdown()
            socket.close()
        }
    }

    /// Stores a complete request, numbering it in arrival order.
    func record(_ request: RecordedRequest) -> RecordedRequest {
        lock.withLock {
            var numbered = request
            numbered.index = recorded.count
            recorded.append(numbered)
            return numbered
        }
    }

    /// Sleeps `seconds` in short slices; false if the server stopped meanwhile.
    func pause(_ seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if isStopped { return false }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return true }
            usleep(useconds_t(min(remaining, 0.02) * 1_000_000))
        }
    }

    func stop() {
        let first: Bool = lock.withLock {
            guard !stopped else { return false }
            stopped = true
            // Shutting down (not closing) wakes the threads blocked on these sockets;
            // each thread closes its own descriptor on the way out.
            if listening { listener.shutdown() }
            for socket in open.values { socket.shutdown() }
            return true
        }
        guard first else { return }
        _ = threads.wait(timeout: .now() + 3)
    }
}
