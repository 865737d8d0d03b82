import Foundation
import Providers
import TestSupport
import Testing

/// The test server itself: what it records, how it scripts answers, and that it stays bounded.
@Suite("Loopback server")
struct LoopbackServerTests {
    static func post(_ url: URL, _ body: String = "", headers: [String: String] = [:], deadline: Double = Patience.seconds) async throws -> HTTPResponse {
        try await CurlTransport(deadline: deadline).send(HTTPRequest(url: url, headers: headers, body: Data(body.utf8)))
    }

    @Test func recordsRequestsAndAnswersFromTheHandler() async throws {
        let server = try LoopbackServer { request in
            .json(#"{"echo": \#(request.bodyText.count)}"#, status: 201, headers: ["X-Request-Path": request.path])
        }
        let response = try await Self.post(
            server.url("/v1/things?limit=2"), #"{"a": 1}"#, headers: ["X-Custom-Header": "Value", "Content-Type": "application/json"])

        #expect(response.status == 201)
        #expect(response.headers["x-request-path"] == "/v1/things")
        #expect(response.headers["content-type"] == "application/json")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"echo": 8}"#)

        let request = try #require(server.lastRequest)
        #expect(request.method == "POST")
        #expect(request.target == "/v1/things?limit=2")
        #expect(request.path == "/v1/things")
        #expect(request.query == "limit=2")
        #expect(request.version == "HTTP/1.1")
        #expect(request.header("x-custom-header") == "Value")
        #expect(request.header("X-CUSTOM-HEADER") == "Value")
        #expect(request.headers.values(for: "content-type") == ["application/json"])
        #expect(request.bodyText == #"{"a": 1}"#)
        #expect(request.index == 0)
        #expect(server.requestCount == 1)
    }

    @Test func answersASequenceInOrderThenRepeatsTheLast() async throws {
        let sequence = ResponseSequence(.text("first"), .text("second", status: 202))
        let server = try LoopbackServer(sequence: sequence)
        var answers: [String] = []
        for _ in 0..<4 {
            let response = try await Self.post(server.baseURL)
            answers.append("\(response.status) \(String(decoding: response.body, as: UTF8.self))")
        }
        #expect(answers == ["200 first", "202 second", "202 second", "202 second"])
        #expect(sequence.callCount == 4)
        #expect(server.requests.map(\.index) == [0, 1, 2, 3])
    }

    @Test func answersASequenceThenAFallback() async throws {
        let sequence = ResponseSequence([.json(#"{"n": 1}"#, status: 503)], afterwards: .json(#"{"n": 2}"#))
        let server = try LoopbackServer(sequence: sequence)
        let statuses = [try await Self.post(server.baseURL).status, try await Self.post(server.baseURL).status, try await Self.post(server.baseURL).status]
        #expect(statuses == [503, 200, 200])
    }

    @Test func countsCallsAcrossThreads() async throws {
        let counter = CallCounter()
        let server = try LoopbackServer { _ in .text("call \(counter.increment())") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<16 { group.addTask { _ = try await Self.post(server.baseURL) } }
            try await group.waitForAll()
        }
        #expect(counter.value == 16)
        #expect(server.requestCount == 16)
        #expect(Set(server.requests.map(\.index)) == Set(0..<16))
    }

    @Test func servesSeveralRequestsOnAKeptAliveConnection() async throws {
        let server = try LoopbackServer(answering: .json("{}"))
        let client = try RawHTTPClient(port: server.port)
        for _ in 1...3 {
            client.send("POST /v1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}")
            let reply = client.read { $0.hasPrefix("HTTP/1.1 200") && $0.hasSuffix("{}") }
            #expect(reply.text.hasPrefix("HTTP/1.1 200") && !reply.closed)
        }
        #expect(server.requestCount == 3)
        #expect(server.connectionCount == 1)
    }

    @Test func receivesALargeBodyWhole() async throws {
        let body = String(repeating: "0123456789abcdef", count: 200_000)  // 3.2 MB
        let server = try LoopbackServer(answering: .json("{}"))
        let response = try await Self.post(server.baseURL, body)
        #expect(response.status == 200)
        #expect(server.lastRequest?.body.count == body.utf8.count)
        #expect(server.lastRequest?.bodyText == body)
    }

    @Test func sends100ContinueWhenAsked() throws {
        let server = try LoopbackServer { .text("got \($0.body.count)") }
        let client = try RawHTTPClient(port: server.port)
        client.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
        let interim = client.read { $0.hasSuffix("\r\n\r\n") }
        #expect(interim.text == "HTTP/1.1 100 Continue\r\n\r\n")
        client.send("hello")
        let final = client.read { $0.hasSuffix("got 5") }
        #expect(final.text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(final.text.contains("Content-Length: 5\r\n"))
        #expect(server.lastRequest?.bodyText == "hello")
    }

    @Test func decodesAChunkedBodyAndServesPipelinedRequests() throws {
        let server = try LoopbackServer { .text("[\($0.bodyText)]") }
        let client = try RawHTTPClient(port: server.port)
        client.send(
            "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nTrailer: t\r\n\r\n"
                + "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
        let answers = client.read { $0.contains("[abc]") }
        #expect(answers.text.contains("[hello world]"))
        #expect(answers.text.contains("[abc]"))
        #expect(server.requests.map(\.path) == ["/a", "/b"])
        #expect(server.requests.first?.bodyText == "hello world")
    }

    @Test func survivesGarbageAndAbandonedConnections() async throws {
        let server = try LoopbackServer(answering: .text("ok"))
        do {
            let garbage = try RawHTTPClient(port: server.port)
            garbage.send("NONSENSE\r\n\r\n")
            #expect(garbage.read(timeout: Patience.seconds).closed)
            let abandoned = try RawHTTPClient(port: server.port)
            abandoned.send("POST / HTTP/1.1\r\nContent-Length: 100\r\n\r\nonly a part")
        }
        let response = try await Self.post(server.baseURL)
        #expect(String(decoding: response.body, as: UTF8.self) == "ok")
        #expect(server.requestCount == 1)
    }

    @Test func cutsABodyShortAndCloses() throws {
        let server = try LoopbackServer(answering: .text("0123456789").closingMidBody(sentBytes: 4))
        let client = try RawHTTPClient(port: server.port)
        client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        let answer = client.read(timeout: Patience.seconds)
        #expect(answer.closed)
        #expect(answer.text.contains("Content-Length: 10\r\n"))
        #expect(answer.text.hasSuffix("\r\n\r\n0123"))
    }

    @Test func closesWithoutAnswering() throws {
        let server = try LoopbackServer(answering: .closeWithoutResponse)
        let client = try RawHTTPClient(port: server.port)
        client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        let answer = client.read(timeout: Patience.seconds)
        #expect(answer.closed)
        #expect(answer.text.isEmpty)
        #expect(server.requestCount == 1)
    }

    @Test func dripsTheBody() async throws {
        let server = try LoopbackServer(answering: .text(String(repeating: "x", count: 50)).dripped(chunkSize: 10, interval: 0.05))
        let start = Date()
        let response = try await Self.post(server.baseURL)
        #expect(response.body.count == 50)
        #expect(Date().timeIntervalSince(start) >= 0.2)
    }

    @Test func stopEndsAHangingAnswerPromptly() async throws {
        let server = try LoopbackServer(answering: .hang)
        let call = Task { try await Self.post(server.baseURL, deadline: Patience.seconds * 2) }
        // Generous: the bound only matters when something is broken, and a loaded machine is slow to connect.
        #expect(await server.waitForRequests(1, timeout: Patience.seconds))
        let start = Date()
        server.stop()
        #expect(Date().timeIntervalSince(start) < Patience.seconds, "stop() must end a hanging answer, not wait for it")
        await #expect(throws: TransportError.self) { try await call.value }
        server.stop()  // Twice is fine.
    }

    @Test func releasingTheServerStopsIt() async throws {
        var server: LoopbackServer? = try LoopbackServer(answering: .text("ok"))
        let url = try #require(server?.baseURL)
        _ = try await Self.post(url)
        server = nil
        await #expect(throws: TransportError.self) { try await Self.post(url) }
    }

    @Test func waitingForRequestsIsBounded() async throws {
        let server = try LoopbackServer(answering: .text("ok"))
        let start = Date()
        #expect(await !server.waitForRequests(1, timeout: 0.2))
        // Generous: the wait sleeps on the cooperative pool, which the tests running beside
        // it can hold for seconds on two cores; a hang would never return at all.
        #expect(Date().timeIntervalSince(start) < Patience.seconds, "a 0.2 s wait must return, not hang")
    }

    @Test func refusingPortRefuses() async throws {
        let port = try RefusingPort()
        #expect(throws: POSIXError.self) { _ = try RawHTTPClient(port: port.port) }
    }
}
