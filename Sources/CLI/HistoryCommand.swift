import ArgumentParser
import Console
import Foundation
import History

/// `trainer-eval history`: recent runs with their pass rates, and pruning old ones.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List recent runs with their pass rates (from .history/runs.sqlite), or prune old ones.",
        discussion: """
            Every `trainer-eval run` is recorded. Refer to a run by its id, a unique prefix of it, `latest` or `latest~N`. \
            The history keeps the newest \(Retention.defaultKeep) runs (\(Retention.keepVariable) changes that; 0 keeps every run): \
            each run recorded prunes the older ones, and their space is reused.
            """,
        subcommands: [List.self, Prune.self],
        defaultSubcommand: List.self
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List recent runs, newest first (the default).")

        @OptionGroup var projectOptions: ProjectOptions

        @Option(help: ArgumentHelp("How many runs to list, newest first.", valueName: "n"))
        var limit: Int = 20

        func validate() throws {
            guard limit >= 1 else { throw ValidationError("--limit must be at least 1.") }
        }

        func run() throws {
            let history = try Failure.exitingOnError { try projectOptions.openProject().history() }
            let runs = try Failure.exitingOnError { try history.recentRuns(limit: limit) }
            HistoryPrinter().print(runs)
        }
    }

    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prune",
            abstract: "Remove old runs from the history and give their space back (their report folders stay).")

        @OptionGroup var projectOptions: ProjectOptions

        @Option(help: ArgumentHelp("Keep the newest N runs.", valueName: "n"))
        var keep: Int?

        @Option(
            name: .customLong("older-than"),
            help: ArgumentHelp("Remove runs started before this: an age (90d, 12w, 36h) or a date (2026-11-01).", valueName: "age|date"),
            transform: { text in
                guard let date = Self.cutoff(text) else {
                    throw ValidationError("--older-than takes an age such as 90d, 12w or 36h, or a date such as 2026-11-01; got '\(text)'.")
                }
                return date
            })
        var olderThan: Date?

        func validate() throws {
            guard keep != nil || olderThan != nil else { throw ValidationError("Say what to keep: --keep N, --older-than AGE, or both.") }
            if let keep, keep < 1 { throw ValidationError("--keep must be at least 1; to empty the history, delete .history/.") }
        }

        func run() throws {
            let history = try Failure.exitingOnError { try projectOptions.openProject().history() }
            let removed = try Failure.exitingOnError { try history.prune(Retention(keep: keep, olderThan: olderThan), compacting: true) }
            let left = try Failure.exitingOnError { try history.recentRuns(limit: .max).count }
            HistoryPrinter().printPruned(removed, left: left)
        }

        /// The date `text` names: an age back from now (`90d`, `12w`, `36h`) or a day (`2026-11-01`, UTC).
        static func cutoff(_ text: String, now: Date = Date()) -> Date? {
            if let unit = text.last, let amount = Double(text.dropLast()), amount >= 0 {
                let hours: Double? = switch unit {
                case "h": amount
                case "d": amount * 24
                case "w": amount * 24 * 7
                default: nil
                }
                if let hours { return now.addingTimeInterval(-hours * 3600) }
            }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd"
            return formatter.date(from: text)
        }
    }
}
