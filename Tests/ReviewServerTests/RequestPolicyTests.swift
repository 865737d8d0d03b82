import Testing
@testable import ReviewServer

/// Who may ask what of the review server, request by request.
struct RequestPolicyTests {
    let policy = RequestPolicy(token: "t0k3n", host: "127.0.0.1", port: 8765)

    @Test func onlyTheServersOwnAddressIsAnswered() {
        for host in ["127.0.0.1:8765", "localhost:8765", "LOCALHOST:8765", "[::1]:8765"] {
            #expect(policy.checkHost(host) == nil, "\(host)")
        }
        // Another port, a rebound name, no Host at all.
        for host in ["127.0.0.1:8766", "evil.example:8765", "evil.example", "127.0.0.1"] {
            #expect(policy.checkHost(host) == .foreignHost(host), "\(host)")
        }
        #expect(policy.checkHost(nil) == .foreignHost(nil))
        #expect(RequestPolicy.Refusal.foreignHost(nil).status == 421)
    }

    @Test func aServerOnAnotherAddressAnswersThatAddressOnly() {
        let wide = RequestPolicy(token: "t", host: "192.168.1.20", port: 80)
        #expect(wide.checkHost("192.168.1.20:80") == nil)
        // A browser leaves out port 80.
        #expect(wide.checkHost("192.168.1.20") == nil)
        #expect(wide.checkHost("localhost:80") == .foreignHost("localhost:80"))
        #expect(policy.checkHost("127.0.0.1") == .foreignHost("127.0.0.1"))
        let ipv6 = RequestPolicy(token: "t", host: "::1", port: 8765)
        #expect(ipv6.checkHost("[::1]:8765") == nil)
        #expect(RequestPolicy.urlHost("::1") == "[::1]")
        #expect(RequestPolicy.urlHost("localhost") == "127.0.0.1")
        for host in ["0.0.0.0", "::"] { #expect(RequestPolicy.isWildcard(host)) }
        #expect(!RequestPolicy.isWildcard("192.168.1.20"))
    }

    @Test func aWriteNeedsTheTokenAndNoOtherOrigin() {
        #expect(policy.checkWrite(origin: "http://127.0.0.1:8765", fetchSite: "same-origin", token: "t0k3n") == nil)
        // A client that sends no Origin (a script, curl) still needs the token.
        #expect(policy.checkWrite(origin: nil, fetchSite: nil, token: "t0k3n") == nil)
        #expect(policy.checkWrite(origin: nil, fetchSite: nil, token: nil) == .missingToken)
        #expect(policy.checkWrite(origin: nil, fetchSite: nil, token: "") == .missingToken)
        #expect(policy.checkWrite(origin: nil, fetchSite: nil, token: "t0k3m") == .wrongToken)
        #expect(policy.checkWrite(origin: nil, fetchSite: nil, token: "t0k3n0") == .wrongToken)
        for origin in ["http://evil.example", "null", "https://127.0.0.1:8765", "http://127.0.0.1:8766", "http://127.0.0.1:8765.evil.example"] {
            #expect(policy.checkWrite(origin: origin, fetchSite: nil, token: "t0k3n") == .foreignOrigin(origin), "\(origin)")
        }
        for site in ["cross-site", "same-site"] {
            #expect(policy.checkWrite(origin: nil, fetchSite: site, token: "t0k3n") == .crossSite(site))
        }
    }

    @Test func tokensAreFreshAndLong() {
        let first = RequestPolicy.makeToken(), second = RequestPolicy.makeToken()
        #expect(first.count == 64 && second.count == 64)
        #expect(first != second)
        #expect(first.allSatisfy { $0.isHexDigit })
    }
}

/// Query strings and form bodies as browsers encode them.
struct FormFieldsTests {
    @Test func decodesRepeatedNamesSpacesAndEscapes() {
        let form = FormFields("reason=cut-text&reason=wrong-level&note=two+words%3A+%22quoted%22&empty=&flag&=ignored")
        #expect(form.all("reason") == ["cut-text", "wrong-level"])
        #expect(form["note"] == "two words: \"quoted\"")
        #expect(form["empty"] == "")
        #expect(form["flag"] == "")
        #expect(form["missing"] == nil)
        #expect(FormFields(nil).pairs.isEmpty)
    }

    @Test func encodesWhatItDecodes() {
        let value = "goal-options=v5+program-draft=v3 & <more>"
        let query = FormFields.query([("track", value), ("page", nil), ("step", "a/b")])
        #expect(!query.contains("page"))
        let decoded = FormFields(query)
        #expect(decoded["track"] == value)
        #expect(decoded["step"] == "a/b")
    }
}

/// Long lists a page at a time.
struct PagingTests {
    @Test func clampsThePageAndCoversEveryItemOnce() {
        let paging = Paging(requested: "3", perPage: 50, total: 120)
        #expect(paging.pages == 3)
        #expect(paging.range == 100..<120)
        #expect(Paging(requested: "99", perPage: 50, total: 120).page == 3)
        #expect(Paging(requested: "-1", perPage: 50, total: 120).page == 1)
        #expect(Paging(requested: "x", perPage: 50, total: 0).range == 0..<0)
        let covered = (1...3).flatMap { Array(Paging(requested: String($0), perPage: 50, total: 120).range) }
        #expect(covered == Array(0..<120))
        #expect(paging.navigation { "/q?page=\($0)" }.contains("href=\"/q?page=2\" rel=\"prev\""))
        #expect(Paging(requested: nil, perPage: 50, total: 10).navigation { "\($0)" }.isEmpty)
    }
}
