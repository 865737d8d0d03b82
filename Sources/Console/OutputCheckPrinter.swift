import Pipeline

/// Prints `check`'s answer: a line per check (pass, FAIL or not run) and a summary line.
public struct OutputCheckPrinter {
    let out: Terminal

    public init(out: Terminal) {
        self.out = out
    }

    public func print(_ result: OutputCheck) {
        for item in result.items {
            let label = switch item.passed {
            case true: out.styled("pass   ", .green)
            case false: out.styled("FAIL   ", .red)
            case nil: out.styled("not run", .yellow)
            }
            out.writeLine("\(label) \(item.name): \(item.message)")
        }
        if let replySchema = result.replySchema {
            out.writeLine(out.styled("note   ", .yellow) + " the app accepts it, but the prompt set's schema (\(replySchema.file)) would not: "
                + replySchema.problems.joined(separator: "; ") + ". A model on this prompt set is asked for that; the output is judged by the contract.")
        }
        let failed = result.items.filter { $0.passed == false }.count
        let notRun = result.items.filter { $0.passed == nil }.count
        out.writeLine("\(result.fixture) \(result.step.rawValue): \(result.valid ? "valid" : "invalid") · "
            + "\(result.items.count - failed - notRun) pass · \(failed) fail" + (notRun > 0 ? " · \(notRun) not run" : ""))
    }
}
