import ArgumentParser
import Console
import Foundation
import ReviewServer

/// `trainer-eval serve`: the review pages in a browser.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Review in the browser: runs, outputs beside their approved ones, the pending queue, labels, agreement and comparisons.",
        discussion: """
            Serves the project on 127.0.0.1 and prints the address to open. Accepting, discarding \
            and labelling go through the same code as `accept`, `reject` and `label`, and need the \
            token that address carries (a new one each time `serve` starts); a page of another site \
            cannot act. A page that changed since it was opened (a run, a command or another tab) \
            gets a conflict, not a silent overwrite. Keys: press ? on any page. Ctrl-C stops.
            """
    )

    @OptionGroup var projectOptions: ProjectOptions

    @Option(help: ArgumentHelp("The port; 0 picks a free one.", valueName: "n"))
    var port: Int = 8765

    @Option(help: ArgumentHelp("Listen on this address instead of 127.0.0.1 (anyone who reaches it can read the outputs).", valueName: "address"))
    var host: String = "127.0.0.1"

    @Flag(help: "Open the address in the default browser (xdg-open).")
    var open = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535; got \(port).") }
        if RequestPolicy.isWildcard(host) {
            throw ValidationError(
                "--host needs the one address browsers will use, such as 192.168.1.20: with \(host) any name could reach the server, and a page of another site could rebind its own name to it.")
        }
    }

    func run() async throws {
        let project = try projectOptions.openProject()
        if !RequestPolicy.isLoopback(host) {
            Terminal.standardError.writeLine(
                "warning: listening on \(host), not loopback: anyone who can reach it can read every output. Accepting and labelling still need the token.")
        }
        let server = ReviewServer(project: project, host: host, port: port)
        let opens = open
        try await Failure.exitingOnError {
            try await server.run { url in
                Terminal.standardOutput.writeLine("Serving \(project.layout.displayPath(of: project.layout.root)) at \(url.absoluteString)")
                Terminal.standardOutput.writeLine("Open that address: its token lets the pages accept, reject and label. Ctrl-C stops.")
                if opens { Self.openInBrowser(url) }
            }
        }
    }

    /// Opens the address through a page only this user can read, which forwards to it:
    /// a browser's command line, which every user of the machine can read, never holds the token.
    private static func openInBrowser(_ url: URL) {
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("trainer-eval-serve-\(UUID().uuidString).html")
        let forward = "<!doctype html><meta http-equiv=\"refresh\" content=\"0; url=\(url.absoluteString)\"><title>trainer-eval serve</title>"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", page.path]
        do {
            guard FileManager.default.createFile(atPath: page.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteNoPermission)
            }
            try Data(forward.utf8).write(to: page)
            try process.run()
        } catch {
            Terminal.standardError.writeLine("note: could not open a browser (\(error)); open the address above.")
        }
    }
}
