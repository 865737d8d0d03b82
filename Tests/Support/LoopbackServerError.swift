#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the loopback server could not start.
public enum LoopbackServerError: Error, CustomStringConvertible {
    case systemCall(String, Int32)

    public var description: String {
        switch self {
        case .systemCall(let call, let code):
            return "\(call)() failed: \(String(cString: strerror(code))) (errno \(code))."
        }
    }
}
