import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bare TCP client for poking the loopback server with bytes no URLSession would send.
struct RawHTTPClient: ~Copyable {
    let descriptor: Int32

    init(port: UInt16) throws {
        // The descriptor is stored only once connected: a noncopyable value's deinit runs
        // whenever its init has stored every property, even if init then throws, and a
        // second close could hit a descriptor number another test has been given since.
        #if canImport(Glibc)
        let candidate = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let candidate = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(candidate, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(candidate)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .ECONNREFUSED)
        }
        descriptor = candidate
    }

    deinit {
        close(descriptor)
    }

    func send(_ text: String) {
        var bytes = Array(text.utf8)
        _ = send(&bytes)
    }

    func send(_ bytes: inout [UInt8]) -> Int {
        #if canImport(Glibc)
        bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        #else
        bytes.withUnsafeBytes { Darwin.send(descriptor, $0.baseAddress, $0.count, 0) }
        #endif
    }

    /// Reads until `predicate` holds for what arrived, the peer closes, or `timeout` seconds pass.
    func read(timeout: Double = 3, until predicate: (String) -> Bool = { _ in false }) -> (text: String, closed: Bool) {
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while Date() < deadline {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 20) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return (String(decoding: received, as: UTF8.self), true) }
            received += buffer[0..<count]
            if predicate(String(decoding: received, as: UTF8.self)) { break }
        }
        return (String(decoding: received, as: UTF8.self), false)
    }
}
