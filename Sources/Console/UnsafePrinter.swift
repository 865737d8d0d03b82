import Golden
import Intake

/// Prints `unsafe`: each approved output that fails a safety check, allowed or not.
public struct UnsafePrinter {
    let terminal: Terminal

    public init(terminal: Terminal) {
        self.terminal = terminal
    }

    public func printAllowed(_ allowed: [GoldenReview.ApprovedUnsafe]) {
        for item in allowed { terminal.writeLine(terminal.styled("allowed", .yellow) + " \(item.key): \(item.checks.joined(separator: ", "))") }
    }

    public func print(_ found: [GoldenReview.ApprovedUnsafe], policy: SafetyPolicy, scope: String) {
        guard !found.isEmpty else {
            terminal.writeLine("No approved output fails a safety check.")
            return
        }
        for item in found {
            let why = item.checks.compactMap { policy.rule(for: $0)?.why }
            let unique = why.enumerated().filter { why.firstIndex(of: $0.element) == $0.offset }.map(\.element)
            terminal.writeLine((item.allowance == nil ? terminal.styled("unsafe ", .red) : terminal.styled("allowed", .yellow))
                + " \(item.key): \(item.checks.joined(separator: ", ")) (\(unique.joined(separator: "; ")))")
            if let allowance = item.allowance {
                terminal.writeLine("        \(allowance.reviewer), \(allowance.date): \(allowance.reason)")
            }
        }
        let open = found.filter { $0.allowance == nil }.count
        terminal.writeLine("\(found.count) approved output\(found.count == 1 ? " fails" : "s fail") a safety check: \(found.count - open) allowed, \(open) not.")
        if open > 0 {
            terminal.writeLine("Fix them (change the prompt in a variant, record, accept), or allow them for a reason: `\(Invocation.command) unsafe --allow \"REASON\"\(scope)`.")
        }
    }
}
