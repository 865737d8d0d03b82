import Foundation

/// Writes to standard output or error, with colour only on a terminal that wants it.
public struct Terminal: Sendable {
    public static let standardOutput = Terminal(handle: .standardOutput, fileDescriptor: 1)
    public static let standardError = Terminal(handle: .standardError, fileDescriptor: 2)

    public let handle: FileHandle
    public let fileDescriptor: Int32
    /// True on an interactive terminal, unless `NO_COLOR` is set or `TERM` is `dumb`.
    public let usesColor: Bool
    public let isInteractive: Bool

    public init(handle: FileHandle, fileDescriptor: Int32) {
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

    /// A terminal on `handle` that says what it is, whatever the handle: how tests
    /// read what a printer writes, in colour or not, as a terminal or a pipe.
    public init(handle: FileHandle, usesColor: Bool, isInteractive: Bool) {
        self.handle = handle
        fileDescriptor = handle.fileDescriptor
        self.usesColor = usesColor
        self.isInteractive = isInteractive
    }

    /// Whether this runs on CI: `CI` set to anything but `false` or `0`.
    public static var isContinuousIntegration: Bool {
        guard let value = ProcessInfo.processInfo.environment["CI"] else { return false }
        return !["", "false", "0"].contains(value.lowercased())
    }

    /// The terminal's width in columns; nil when it is not a terminal.
    public var columns: Int? {
        guard isInteractive else { return nil }
        var size = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    public func write(_ text: String) {
        handle.write(Data(text.utf8))
    }

    public func writeLine(_ text: String = "") {
        write(text + "\n")
    }

    public enum Style: String {
        case red = "31", green = "32", yellow = "33", blue = "34", magenta = "35", cyan = "36", bold = "1", dim = "2"
    }

    /// `text` wrapped in an ANSI style when colour is on.
    public func styled(_ text: String, _ style: Style) -> String {
        usesColor ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// The diff lines in `text` (each after `indent`) coloured as `git diff` does:
    /// removals red, additions green, file headers dim, hunk headers cyan; the
    /// structural JSON diff's changes (`~`) and moves (`↕`) yellow.
    /// A context line starts with a space after the indent, so it stays plain.
    public func styledDiff(_ text: String, indent: String = "") -> String {
        guard usesColor else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard line.hasPrefix(indent) else { return String(line) }
            let body = String(line.dropFirst(indent.count))
            let style: Style?
            if body.hasPrefix("+++ ") || body.hasPrefix("--- ") { style = .dim }
            else if body.hasPrefix("@@") { style = .cyan }
            else if body.hasPrefix("~ ") || body.hasPrefix("↕ ") { style = .yellow }
            else if body.hasPrefix("+") { style = .green }
            else if body.hasPrefix("-") { style = .red }
            else { style = nil }
            return style.map { indent + styled(body, $0) } ?? String(line)
        }.joined(separator: "\n")
    }
}
