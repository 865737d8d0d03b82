import Foundation

/// A loopback port where nothing listens: connections to it are refused.
///
/// The port stays bound (but not listening) while this value lives, so no other
/// test can start a server on it meanwhile.
public final class RefusingPort: Sendable {
    /// The bound port nobody listens on.
    public let port: UInt16
    /// `http://127.0.0.1:PORT`.
    public let baseURL: URL
    private let socket: Socket

    public init() throws {
        (socket, port) = try Socket.bindLoopback(listening: false)
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    deinit {
        socket.close()
    }
}
