import ArgumentParser
import Golden
import History
import Intake
import Pipeline

/// `trainer-eval accept`: promote pending outputs to golden.
struct AcceptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accept",
        abstract: "Approve pending outputs: each .new file replaces its golden file.",
        discussion: "With --prune, also delete the golden files (approved and pending outputs, recordings) of steps that no fixture produces any more, and a fixture folder that leaves empty."
    )

    @OptionGroup var projectOptions: ProjectOptions
    @OptionGroup var selection: GoldenSelection

    @Flag(help: "Delete the golden files (outputs, pending outputs, recordings) of fixture steps that no longer exist.")
    var prune = false

    func run() async throws {
        try selection.checkNames(in: projectOptions)
        let layout = try projectOptions.layout()
        let store = GoldenStore(folder: layout.golden)
        let out = Terminal.standardOutput
        // Orphans are found before anything is accepted: a pending output of a step that
        // is going away is deleted with it, never promoted first.
        let orphans = prune ? try store.orphans(excluding: expectedSteps()).filter { selection.includes($0.key) } : []
        let orphanedSteps = Set(orphans.map(\.key))
        var accepted = 0
        for key in store.entries(pending: true) where selection.includes(key) && !orphanedSteps.contains(key) {
            try Failure.exitingOnError { try store.accept(fixture: key.fixture, step: key.step) }
            out.writeLine(out.styled("accepted", .green) + " \(key)")
            accepted += 1
        }
        out.writeLine(accepted == 0 ? "Nothing pending\(selection.isEverything ? "" : " for that selection")." : "\(accepted) accepted.")
        guard prune else { return }
        for orphan in orphans {
            let removedFolder = try Failure.exitingOnError { try store.remove(orphan) }
            for path in orphan.paths { out.writeLine(out.styled("pruned", .yellow) + " \(path)") }
            if removedFolder { out.writeLine(out.styled("pruned", .yellow) + " golden/\(orphan.key.fixture)/ (left empty)") }
        }
        let files = orphans.reduce(0) { $0 + $1.files.count }
        out.writeLine(files == 0 ? "No orphaned golden files." : "\(files) file\(files == 1 ? "" : "s") of \(orphans.count) orphaned step\(orphans.count == 1 ? "" : "s") pruned.")
    }

    /// Every model step the fixtures produce, as `run` over the whole suite would.
    private func expectedSteps() throws -> Set<StepKey> {
        let corpus = try projectOptions.corpus()
        var expected = Set<StepKey>()
        for name in corpus.fixtureNames() {
            guard let fixture = try? corpus.load(name) else {
                Terminal.standardError.writeLine("error: fixture \(name) is invalid; fix it before pruning (`trainer-eval fixtures check`).")
                throw ExitCode(2)
            }
            FixturePlan(fixture).modelStepIDs.forEach { expected.insert(StepKey(fixture: name, id: $0)) }
        }
        return expected
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
        try selection.checkNames(in: projectOptions)
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

    /// The project's pending outputs, diffed with each step's declared options.
    static func review(projectOptions: ProjectOptions) throws -> PendingReview {
        let layout = try projectOptions.layout()
        let prompts = try Failure.exitingOnError { try PromptLibrary(layout: layout) }
        return PendingReview(store: GoldenStore(folder: layout.golden)) { prompts.diffOptions(forStep: $0) }
    }

    func print(withDiffs: Bool) throws {
        try selection.checkNames(in: projectOptions)
        let layout = try projectOptions.layout()
        let review = try Self.review(projectOptions: projectOptions)
        let items = try Failure.exitingOnError { try review.items(where: selection.includes) }
        let out = Terminal.standardOutput
        for item in items {
            out.writeLine(out.styled(item.kind, .yellow) + " \(item.key): \(item.diff.summary)")
            if withDiffs { out.writeLine(item.diff.rendered(color: out.usesColor, indent: "    ")) }
        }
        out.writeLine("\(items.count) pending.")
        // Nothing pending may only mean nothing could be compared: say so when recordings were stale.
        let latest = items.isEmpty ? try? RunHistory(file: layout.history).staleStepsOfLatestRun() : nil
        let count = latest?.steps.filter(selection.includes).count ?? 0
        if let latest, count > 0 {
            out.writeLine(
                "The latest run (\(latest.run)) could not compare \(count) step\(count == 1 ? "" : "s") with golden because \(count == 1 ? "its recording is" : "their recordings are") stale: "
                + "`trainer-eval run` says what changed; re-record with `\(StaleRecordings.rerecordCommand)`, then review here.")
        }
    }
}
