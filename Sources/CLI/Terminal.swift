import Foundation

/// Writes to standard output or error, with colour only on a terminal that wants it.
struct Terminal: Sendable {
    static let standardOutput = Terminal(handle: .standardOutput, fileDescriptor: 1)
    static let standardError = Terminal(handle: .standardError, fileDescriptor: 2)

    let handle: FileHandle
    let fileDescriptor: Int32
    /// True on an interactive terminal, unless `NO_COLOR` is set or `TERM` is `dumb`.
    let usesColor: Bool
    let isInteractive: Bool

    init(handle: FileHandle, fileDescriptor: Int32) {
        self.handle = handle
        self.fileDescriptor = fileDescriptor
        isInteractive = isatty(fileDescriptor) == 1
        let environment = ProcessInfo.processInfo.environment
        if environment["NO_COLOR"] != nil || environment["TERM"] == "dumb" {
            usesColor = false
        } else {
            usesColor = environment["FORCE_COLOR"] != nil || isInteractive
        }
    }

    func write(_ text: String) {
        handle.write(Data(text.utf8))
    }

    func writeLine(_ text: String = "") {
        write(text + "\n")
    }

    enum Style: String {
        case red = "31", green = "32", yellow = "33", blue = "34", magenta = "35", cyan = "36", bold = "1", dim = "2"
    }

    /// `text` wrapped in an ANSI style when colour is on.
    func styled(_ text: String, _ style: Style) -> String {
        usesColor ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }
}
