import Evaluation
import Foundation
import Pipeline

/// Live progress on standard error: a line per finished step (or, when replaying,
/// per step that failed), and on a terminal a status line of the
/// steps still running. Events arrive from concurrent fixtures; a lock keeps lines whole.
public final class ProgressPrinter: @unchecked Sendable {
    let terminal: Terminal
    let printsValidSteps: Bool
    /// Latencies and tokens come from the recordings, not from this run.
    let replaying: Bool
    private let lock = NSLock()
    private var running: [String: ContinuousClock.Instant] = [:]
    /// Redraws the status line every second, so a long call's timer keeps counting.
    private var ticker: Task<Void, Never>?

    public init(terminal: Terminal, printsValidSteps: Bool, replaying: Bool = false) {
        self.terminal = terminal
        self.printsValidSteps = printsValidSteps
        self.replaying = replaying
        guard terminal.isInteractive else { return }
        ticker = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                guard let self else { return }
                self.lock.withLock { if !self.running.isEmpty { self.redrawStatus() } }
            }
        }
    }

    public func handle(_ event: Evaluation.Event) {
        lock.withLock {
            switch event {
            case .repeatStarted(let index, let count):
                write(terminal.styled("Repeat \(index) of \(count)", .bold))
            case .pipeline(.stepStarted(let fixture, let step)):
                guard terminal.isInteractive else { return }
                running["\(fixture)/\(step)"] = .now
                redrawStatus()
            case .pipeline(.stepFinished(let fixture, let result)):
                running["\(fixture)/\(result.id)"] = nil
                // Steps past `--until` were never meant to run: the summary counts them.
                guard !result.wasNotSelected else { return }
                // A stale recording is not news step by step: the summary groups them by cause.
                // A replayed invalid reply was recorded so: the comparison with golden
                // says whether it is a known failure or a regression.
                let stale = result.failure?.kind.isStaleRecording ?? false
                let news = (result.status == .invalid && !replaying) || (result.status == .error && !stale)
                if printsValidSteps || news {
                    write(line(fixture: fixture, result: result))
                } else {
                    redrawStatus()
                }
            }
        }
    }

    public func finish() {
        ticker?.cancel()
        lock.withLock {
            running.removeAll()
            clearStatus()
        }
    }

    /// A finished line, with the status line redrawn under it.
    private func write(_ line: String) {
        clearStatus()
        terminal.writeLine(line)
        drawStatus()
    }

    private func redrawStatus() {
        guard terminal.isInteractive else { return }
        clearStatus()
        drawStatus()
    }

    private func line(fixture: String, result: StepResult) -> String {
        let mark: String
        switch result.status {
        case .valid: mark = terminal.styled(result.repaired ? "✓ repaired" : "✓", .green)
        case .invalid: mark = terminal.styled("✗ invalid", .red)
        case .error: mark = terminal.styled("✗ error", .red)
        case .skipped: mark = terminal.styled("- skipped", .dim)
        }
        var text = "\(mark) \(fixture) \(result.id)"
        if !result.attempts.isEmpty {
            // Several attempts (a repair) add up: say so, or 2 × 1800 tokens reads as a broken limit.
            let attempts = result.attempts.count > 1 ? " over \(result.attempts.count) attempts" : ""
            text += (replaying ? " recorded" : "") + String(format: " %.1fs", result.latency)
                + " \(result.usage.input)→\(result.usage.output) tok\(attempts)"
        }
        let retries = result.attempts.reduce(0) { $0 + $1.retries } + (result.failure?.retries ?? 0)
        if retries > 0 { text += " (\(retries) \(retries == 1 ? "retry" : "retries"))" }
        if let failure = result.failure, result.status != .valid {
            text += ": \(failure.kind): " + terminal.styledDiff(failure.message)
        }
        if result.status == .skipped, let note = result.note { text += ": \(note)" }
        for check in result.failedChecks { text += "\n    " + terminal.styled("check failed", .yellow) + " \(check.name): \(check.message)" }
        return text
    }

    private func clearStatus() {
        if terminal.isInteractive { terminal.write("\r\u{1B}[K") }
    }

    private func drawStatus() {
        guard terminal.isInteractive, !running.isEmpty else { return }
        let now = ContinuousClock.now
        let parts = running.sorted { $0.key < $1.key }.map { key, start in
            "\(key) \(Int((now - start).components.seconds))s"
        }
        // A status line that wraps could not be cleared with a carriage return.
        var status = "… " + parts.joined(separator: ", ")
        if let columns = terminal.columns, status.count >= columns {
            status = String(status.prefix(max(columns - 2, 1))) + "…"
        }
        terminal.write(terminal.styled(status, .dim))
    }
}
