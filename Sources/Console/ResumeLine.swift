import Intake

/// The command line that picks up a run a budget stopped: the arguments as given,
/// with `--record-missing` (in place of `--record`), so what was recorded is reused.
/// Every budget is kept: the resumed run is held to the same limits, counted afresh.
/// `--ci` is dropped, since it never records: the gate is a run of its own, after.
public struct ResumeLine: Sendable {
    public let arguments: [String]

    /// `arguments` are the command's own, without the program name.
    public init(arguments: [String]) {
        var resumed = arguments.filter { $0 != "--ci" }.map { $0 == "--record" ? "--record-missing" : $0 }
        if !resumed.contains("--record-missing") { resumed.append("--record-missing") }
        var seen = false
        self.arguments = resumed.filter { argument in
            guard argument == "--record-missing" else { return true }
            defer { seen = true }
            return !seen
        }
    }

    /// As typed in a POSIX shell.
    public var line: String {
        ([Invocation.command] + arguments.map(Self.quoted)).joined(separator: " ")
    }

    /// `argument` as one shell word: bare when it holds only safe characters, else in single quotes.
    public static func quoted(_ argument: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-")
        if !argument.isEmpty, argument.allSatisfy(safe.contains) { return argument }
        return "'" + argument.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}

extension ResumeLine {
    /// The options of `arguments` that choose what a run covers (`--fixture`, `--tag`,
    /// `--until`, `--shard`), as typed: a suggested command keeps them, so following it
    /// records what this run covered and nothing more.
    public static func scope(of arguments: [String]) -> String {
        let scoping: Set<String> = ["--fixture", "--tag", "--until", "--shard"]
        var kept: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if scoping.contains(argument), index + 1 < arguments.count {
                kept += [argument, arguments[index + 1]]
                index += 1
            } else if scoping.contains(where: { argument.hasPrefix($0 + "=") }) {
                kept.append(argument)
            }
            index += 1
        }
        return kept.map { " " + quoted($0) }.joined()
    }
}
