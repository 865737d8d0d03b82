import ArgumentParser
import Golden
import Intake
import Pipeline

/// `trainer-eval accept`: promote pending outputs to golden.
struct AcceptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accept",
        abstract: "Approve pending outputs: each .new file replaces its golden file.",
        discussion: "With --prune, also delete golden outputs and recordings that no fixture step produces any more."
    )

    @OptionGroup var projectOptions: ProjectOptions
    @OptionGroup var selection: GoldenSelection

    @Flag(help: "Delete golden outputs and cassettes of fixture steps that no longer exist.")
    var prune = false

    func run() async throws {
        let layout = try projectOptions.layout()
        let store = GoldenStore(folder: layout.golden)
        let out = Terminal.standardOutput
        var accepted = 0
        for key in store.entries(pending: true) where selection.includes(key) {
            try Failure.exitingOnError { try store.accept(fixture: key.fixture, step: key.step) }
            out.writeLine(out.styled("accepted", .green) + " \(key)")
            accepted += 1
        }
        out.writeLine(accepted == 0 ? "Nothing pending\(selection.fixture.isEmpty && selection.step == nil ? "" : " for that selection")." : "\(accepted) accepted.")
        guard prune else { return }
        let corpus = try projectOptions.corpus()
        var expected = Set<StepKey>()
        for name in corpus.fixtureNames() {
            guard let fixture = try? corpus.load(name) else {
                Terminal.standardError.writeLine("error: fixture \(name) is invalid; fix it before pruning (`trainer-eval fixtures check`).")
                throw ExitCode(2)
            }
            Pipeline.stepIDs(for: fixture.scenario).forEach { expected.insert(StepKey(fixture: name, step: $0)) }
        }
        let cassettes = CassetteStore(folder: layout.golden)
        var pruned = 0
        for key in store.entries(pending: false) where !expected.contains(key) && selection.includes(key) {
            store.removeApproved(fixture: key.fixture, step: key.step)
            cassettes.remove(fixture: key.fixture, step: key.step)
            out.writeLine(out.styled("pruned", .yellow) + " \(key)")
            pruned += 1
        }
        for key in cassettes.entries() where !expected.contains(key) && selection.includes(key) {
            cassettes.remove(fixture: key.fixture, step: key.step)
            out.writeLine(out.styled("pruned", .yellow) + " \(key) recording")
            pruned += 1
        }
        out.writeLine("\(pruned) orphan\(pruned == 1 ? "" : "s") pruned.")
    }
}

/// `trainer-eval reject`: discard pending outputs.
struct RejectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reject",
        abstract: "Discard pending outputs, keeping golden as it is."
    )

    @OptionGroup var projectOptions: ProjectOptions
    @OptionGroup var selection: GoldenSelection

    func run() async throws {
        let store = GoldenStore(folder: try projectOptions.layout().golden)
        let out = Terminal.standardOutput
        var rejected = 0
        for key in store.entries(pending: true) where selection.includes(key) {
            store.reject(fixture: key.fixture, step: key.step)
            out.writeLine(out.styled("rejected", .red) + " \(key)")
            rejected += 1
        }
        out.writeLine("\(rejected) rejected.")
    }
}

/// `trainer-eval pending`: what is waiting for approval.
struct PendingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pending",
        abstract: "List pending outputs with a one-line summary of how each differs from golden."
    )

    @OptionGroup var projectOptions: ProjectOptions
    @OptionGroup var selection: GoldenSelection

    func run() async throws {
        try PendingListing(projectOptions: projectOptions, selection: selection).print(withDiffs: false)
    }
}

/// `trainer-eval diff`: the pending outputs' diffs against golden.
struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show how pending outputs differ from golden: JSON structurally, markdown line by line, checks."
    )

    @OptionGroup var projectOptions: ProjectOptions
    @OptionGroup var selection: GoldenSelection

    func run() async throws {
        try PendingListing(projectOptions: projectOptions, selection: selection).print(withDiffs: true)
    }
}

/// Prints pending entries, optionally with their diffs.
struct PendingListing {
    let projectOptions: ProjectOptions
    let selection: GoldenSelection

    func print(withDiffs: Bool) throws {
        let store = GoldenStore(folder: try projectOptions.layout().golden)
        let out = Terminal.standardOutput
        let keys = store.entries(pending: true).filter(selection.includes)
        for key in keys {
            let pending = try Failure.exitingOnError { try store.pending(fixture: key.fixture, step: key.step) }
            let approved = try Failure.exitingOnError { try store.approved(fixture: key.fixture, step: key.step) }
            guard let pending else { continue }
            let diff = GoldenDiff(approved: approved, pending: pending)
            out.writeLine(out.styled(approved == nil ? "new" : "changed", .yellow) + " \(key): \(diff.summary)")
            if withDiffs { out.writeLine(diff.rendered(color: out.usesColor, indent: "    ")) }
        }
        out.writeLine("\(keys.count) pending.")
    }
}
