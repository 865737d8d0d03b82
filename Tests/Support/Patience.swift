import Foundation

/// How long a test waits for something that must happen before it calls it a hang.
///
/// The tests run on shared two-core machines, beside builds and other test processes,
/// where a process can stall for tens of seconds. So a wait that stands in for "never"
/// is minutes long, and a test tells fast from slow by what happened (which error, how
/// many calls, what was cut short), never by a tight wall-clock bound. Where a test
/// needs something slow to be cut short, the slow thing takes far longer than this.
public enum Patience {
    /// The longest a test waits for an event that should come at once.
    public static let seconds: Double = 300

    /// `seconds` as a `Duration`.
    public static var duration: Duration { .seconds(seconds) }

    /// Far longer than any test waits: a call or a subprocess this slow is one that
    /// only cancellation, a deadline or a stop can end within a test.
    public static let forever: Duration = .seconds(3600)
}
