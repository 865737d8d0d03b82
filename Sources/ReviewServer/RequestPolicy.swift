import Foundation

/// Who may ask what of the review server.
///
/// Pages hold outputs written to be hostile and the server can change golden files,
/// so every request is checked before it is routed:
/// - its `Host` must name the address the server listens on, which a page of another
///   site that rebinds its own name to 127.0.0.1 (DNS rebinding) cannot do;
/// - a request that changes anything must carry the per-process token, which only
///   the address `serve` printed holds, and must not come from another origin
///   (`Origin`, `Sec-Fetch-Site`).
public struct RequestPolicy: Sendable {
    public let token: String
    /// The `host:port` values a request's `Host` header may carry.
    public let allowedHosts: Set<String>

    public init(token: String, host: String, port: Int) {
        self.token = token
        var names: Set<String> = [Self.bracketed(host).lowercased()]
        if Self.isLoopback(host) { names.formUnion(["127.0.0.1", "localhost", "[::1]"]) }
        // A browser leaves out the port it need not say.
        allowedHosts = Set(names.map { "\($0):\(port)" }).union(port == 80 ? names : [])
    }

    /// A fresh token: 32 random bytes as hex.
    public static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// Whether `host` stands for every address of the machine (`0.0.0.0`, `::`): a
    /// request could then name the server by any name, so `Host` could not be checked.
    public static func isWildcard(_ host: String) -> Bool {
        ["0.0.0.0", "::", "[::]", "*"].contains(host)
    }

    /// Whether `host` only answers this machine.
    public static func isLoopback(_ host: String) -> Bool {
        ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased())
    }

    /// How an address names `host`: 127.0.0.1 for IPv4 loopback and `localhost`, an
    /// IPv6 address in brackets.
    public static func urlHost(_ host: String) -> String {
        ["127.0.0.1", "localhost"].contains(host.lowercased()) ? "127.0.0.1" : bracketed(host)
    }

    private static func bracketed(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }

    /// Why a request is refused.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case foreignHost(String?)
        case foreignOrigin(String)
        case crossSite(String)
        case missingToken
        case wrongToken

        /// 421 for a request meant for another host, 403 otherwise.
        public var status: Int {
            if case .foreignHost = self { return 421 }
            return 403
        }

        public var description: String {
            switch self {
            case .foreignHost(let host?):
                "This server answers requests for its own address only, not for Host \(host)."
            case .foreignHost(nil):
                "The request names no Host; this server answers requests for its own address only."
            case .foreignOrigin(let origin):
                "Refused: a page from \(origin) may not change anything here."
            case .crossSite(let site):
                "Refused: a \(site) request may not change anything here."
            case .missingToken:
                "Refused: this action needs the token of the address `trainer-eval serve` printed. Open that address, then try again."
            case .wrongToken:
                "Refused: the token does not match this server's. It changes each time `serve` starts: open the address it printed."
            }
        }
    }

    /// Checks the `Host` header of any request.
    public func checkHost(_ host: String?) -> Refusal? {
        guard let host, allowedHosts.contains(host.lowercased()) else { return .foreignHost(host) }
        return nil
    }

    /// Checks a request that changes something: no other origin, and the token.
    public func checkWrite(origin: String?, fetchSite: String?, token: String?) -> Refusal? {
        if let origin {
            guard let hostPart = origin.lowercased().split(separator: "/", omittingEmptySubsequences: true).last,
                origin.lowercased().hasPrefix("http://"), allowedHosts.contains(String(hostPart))
            else { return .foreignOrigin(origin) }
        }
        if let fetchSite, !["same-origin", "none"].contains(fetchSite.lowercased()) { return .crossSite(fetchSite) }
        guard let token, !token.isEmpty else { return .missingToken }
        return matches(token) ? nil : .wrongToken
    }

    /// Whether `candidate` is the token, compared in constant time.
    public func matches(_ candidate: String) -> Bool {
        let expected = Array(token.utf8), given = Array(candidate.utf8)
        guard expected.count == given.count else { return false }
        return zip(expected, given).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
