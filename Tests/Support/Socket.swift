import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP socket descriptor with the few blocking calls the loopback server needs,
/// every wait bounded by `poll`.
struct Socket: Sendable {
    let descriptor: Int32

    /// What a bounded read produced.
    enum ReadResult {
        case data(Data)
        /// Nothing arrived within the timeout.
        case timedOut
        /// The peer closed its side, or the socket failed.
        case closed
    }

    /// A socket listening on 127.0.0.1 at an ephemeral port, and that port.
    static func listenOnLoopback(backlog: Int32) throws -> (socket: Socket, port: UInt16) {
        try bindLoopback(listening: true, backlog: backlog)
    }

    /// A socket bound to 127.0.0.1 at an ephemeral port, listening or not, and that port.
    static func bindLoopback(listening: Bool, backlog: Int32 = 1024) throws -> (socket: Socket, port: UInt16) {
        #if canImport(Glibc)
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw LoopbackServerError.systemCall("socket", errno) }
        let socket = Socket(descriptor: descriptor)
        socket.setOption(SOL_SOCKET, SO_REUSEADDR, 1)

        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            socket.close()
            throw LoopbackServerError.systemCall("bind", code)
        }
        guard !listening || listen(descriptor, backlog) == 0 else {
            let code = errno
            socket.close()
            throw LoopbackServerError.systemCall("listen", code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            let code = errno
            socket.close()
            throw LoopbackServerError.systemCall("getsockname", code)
        }
        return (socket, UInt16(bigEndian: address.sin_port))
    }

    /// The next connection, or nil when none arrived within `timeout` seconds.
    func accept(timeout: Double) -> Socket? {
        guard waitUntilReadable(timeout: timeout) else { return nil }
        #if canImport(Glibc)
        let client = Glibc.accept(descriptor, nil, nil)
        #else
        let client = Darwin.accept(descriptor, nil, nil)
        #endif
        guard client >= 0 else {
            usleep(10_000)  // A failed accept (e.g. out of descriptors) must not spin.
            return nil
        }
        let socket = Socket(descriptor: client)
        socket.setOption(Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        #if canImport(Darwin)
        socket.setOption(SOL_SOCKET, SO_NOSIGPIPE, 1)
        #endif
        return socket
    }

    /// True when a read would not block (data, end of stream or an error is pending).
    func waitUntilReadable(timeout: Double) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(max(0, min(timeout, 3600)) * 1000)
        while true {
            let result = poll(&entry, 1, milliseconds)
            if result < 0 && errno == EINTR { continue }
            return result > 0
        }
    }

    /// Up to `limit` bytes, waiting at most `timeout` seconds for the first of them.
    func read(limit: Int = 65_536, timeout: Double) -> ReadResult {
        guard waitUntilReadable(timeout: timeout) else { return .timedOut }
        var buffer = [UInt8](repeating: 0, count: limit)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, limit, 0) }
            if count > 0 { return .data(Data(buffer[0..<count])) }
            if count < 0 && errno == EINTR { continue }
            return .closed
        }
    }

    /// True when the peer has closed its side (a peek reads end of stream or fails).
    func peerHasClosed() -> Bool {
        guard waitUntilReadable(timeout: 0) else { return false }
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK))
        return count <= 0
    }

    /// Sends all of `data`; false when the peer is gone or the socket failed.
    @discardableResult
    func send(_ data: Data) -> Bool {
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        return data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Bool in
            var offset = 0
            while offset < bytes.count {
                let sent = systemSend(descriptor, bytes.baseAddress! + offset, bytes.count - offset, flags)
                if sent < 0 && errno == EINTR { continue }
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }

    /// Wakes any thread blocked on this socket; the descriptor stays allocated.
    func shutdown() {
        #if canImport(Glibc)
        _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
        #else
        _ = Darwin.shutdown(descriptor, SHUT_RDWR)
        #endif
    }

    func close() {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }

    func setOption(_ level: Int32, _ name: Int32, _ value: Int32) {
        var value = value
        _ = setsockopt(descriptor, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Bounds a blocking `send` so a client that never reads cannot wedge a thread.
    func setSendTimeout(_ seconds: Double) {
        var time = timeval()
        time.tv_sec = .init(seconds.rounded(.down))
        time.tv_usec = .init((seconds - seconds.rounded(.down)) * 1_000_000)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }
}

#if canImport(Glibc)
private func systemSend(_ socket: Int32, _ buffer: UnsafeRawPointer, _ length: Int, _ flags: Int32) -> Int {
    Glibc.send(socket, buffer, length, flags)
}
#else
private func systemSend(_ socket: Int32, _ buffer: UnsafeRawPointer, _ length: Int, _ flags: Int32) -> Int {
    Darwin.send(socket, buffer, length, flags)
}
#endif
