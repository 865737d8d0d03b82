import Foundation
import Providers
import Testing

/// `trainer-eval serve` running on a project folder, on a port it picked, and a
/// client that speaks to it over loopback as a browser or another site would.
final class ServedProject: @unchecked Sendable {
    let project: URL
    let process = Process()
    /// The printed address, token included.
    let address: URL
    let token: String
    /// `http://127.0.0.1:PORT`
    let origin: String
    private let output = Pipe()

    init(_ project: URL) throws {
        self.project = project
        process.executableURL = CommandRunner.executable
        process.arguments = ["serve", "--project", project.path, "--port", "0"]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        try process.run()
        let printed = LineCollector()
        output.fileHandleForReading.readabilityHandler = { handle in printed.append(handle.availableData) }
        // Only bounds a hang: the server prints its address once it listens.
        let deadline = Date().addingTimeInterval(120)
        var found: URL?
        while found == nil, Date() < deadline, process.isRunning {
            found = printed.text.split(separator: "\n").lazy.compactMap { line in
                line.split(separator: " ").first { $0.hasPrefix("http://") }.flatMap { URL(string: String($0)) }
            }.first
            if found == nil { Thread.sleep(forTimeInterval: 0.05) }
        }
        guard let found, let components = URLComponents(url: found, resolvingAgainstBaseURL: false),
            let fragment = components.fragment, fragment.hasPrefix("token="), let port = components.port
        else {
            process.terminate()
            throw ServeFailure(description: "serve printed no address: \(printed.text)")
        }
        address = found
        token = String(fragment.dropFirst("token=".count))
        origin = "http://127.0.0.1:\(port)"
    }

    deinit {
        stop()
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    struct ServeFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// A GET of `path`.
    func get(_ path: String, headers: [String: String] = [:]) async throws -> HTTPResponse {
        try await CurlTransport(deadline: 120).send(HTTPRequest(method: "GET", url: URL(string: origin + path)!, headers: headers))
    }

    /// A form POST to `path`, with `fields` encoded and, as the page's script adds it,
    /// the token; the headers are the caller's (a browser adds `Origin`).
    func post(_ path: String, _ fields: [(String, String)], withToken: Bool = true, headers: [String: String] = [:]) async throws -> HTTPResponse {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let sent = fields + (withToken ? [("token", token)] : [])
        let body = sent.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
        var all = headers
        all["Content-Type"] = "application/x-www-form-urlencoded"
        return try await CurlTransport(deadline: 120).send(
            HTTPRequest(method: "POST", url: URL(string: origin + path)!, headers: all, body: Data(body.utf8)))
    }

    /// The value of the hidden field `name` in the form `id` of a page.
    static func field(_ name: String, inForm id: String, of page: String) -> String? {
        guard let start = page.range(of: "id=\"\(id)\""), let end = page.range(of: "</form>", range: start.upperBound..<page.endIndex) else { return nil }
        let form = page[start.upperBound..<end.lowerBound]
        guard let field = form.range(of: "name=\"\(name)\" value=\"") else { return nil }
        let value = form[field.upperBound...].prefix { $0 != "\"" }
        return String(value).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }
}

private final class LineCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func append(_ chunk: Data) {
        lock.withLock { data.append(chunk) }
    }

    var text: String {
        lock.withLock { String(decoding: data, as: UTF8.self) }
    }
}

extension HTTPResponse {
    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}
