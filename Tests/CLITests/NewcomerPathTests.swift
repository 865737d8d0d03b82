import Foundation
import Testing
import TestSupport

/// The path a new user walks: what a prompt change does offline, selectors that are
/// checked, a provider nobody answers for, comparing with golden, and a replay where
/// the network is down. Each runs the real binary on a copy of the whole project.
@Suite(.serialized) struct NewcomerPathTests {
    /// A temporary copy of the project: every prompt, fixture and golden file.
    static func makeFullProject() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("project-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for folder in ["prompts", "fixtures", "golden"] {
            try FileManager.default.copyItem(
                at: CommandRunner.repositoryRoot.appendingPathComponent(folder), to: root.appendingPathComponent(folder))
        }
        return root
    }

    static func fixtureCount(in project: URL) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: project.appendingPathComponent("fixtures").path)
            .filter { $0.hasSuffix(".json") }.count
    }

    @Test func aPromptChangeGroupsTheStaleRecordingsByCauseAndNamesTheNextCommand() throws {
        let project = try Self.makeFullProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let template = project.appendingPathComponent("prompts/goal-options/user.mustache")
        let original = try String(contentsOf: template, encoding: .utf8)
        let edited = original.replacingOccurrences(of: "The person's answers about their goal", with: "The person's replies about their goal")
        #expect(edited != original)
        try edited.write(to: template, atomically: true, encoding: .utf8)

        let run = try CommandRunner.run(["run", "--project", project.path])
        let fixtures = try Self.fixtureCount(in: project)
        #expect(run.status == 1)
        #expect(run.standardOutput.contains(
            "stale \(fixtures) recordings are stale because the prompt template (prompts/goal-options/user.mustache) changed\n"),
            "\(run.standardOutput)")
        #expect(run.standardOutput.contains("    goal-options of \(fixtures) fixtures\n"))
        #expect(run.standardOutput.contains("the same change in all \(fixtures):"))
        let everything = run.standardOutput + run.standardError
        #expect(everything.components(separatedBy: "+++ current messages").count == 2, "the prompt diff is printed once")
        #expect(everything.contains("+The person's replies about their goal"))
        #expect(!run.standardError.contains("stale-recording"), "no line per stale step")
        // One count of skipped steps, in the summary and in the line that says why.
        let summary = try #require(run.standardOutput.split(separator: "\n").first { $0.hasPrefix("gate ") })
        let skipped = try #require(summary.components(separatedBy: "skipped ").last.flatMap { Int($0.prefix { $0.isNumber }) })
        #expect(run.standardOutput.contains("skipped \(skipped) steps did not run: \(skipped) after a stale step."), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("`\(CommandRunner.spelled) run --provider local --record-missing`"))
        let results = project.appendingPathComponent("Reports/latest/results.json").path
        let schema = CommandRunner.repositoryRoot.appendingPathComponent("Reports/schema/results.schema.json").path
        let valid = try CommandRunner.run(["validate", "--schema", schema, results])
        #expect(valid.status == 0, "results.json keeps its schema with stale details:\n\(valid.standardOutput)")
        #expect(try String(contentsOfFile: results, encoding: .utf8).contains("\"causes\""))

        for command in ["pending", "diff"] {
            let listing = try CommandRunner.run([command, "--project", project.path])
            #expect(listing.status == 0)
            #expect(listing.standardOutput.hasPrefix("0 pending.\n"))
            #expect(listing.standardOutput.contains("could not compare \(fixtures) steps with golden because their recordings are stale"))
        }
    }

    static let selectorCommands: [[String]] = [["pending"], ["diff"], ["accept"], ["reject"], ["review"], ["render", "--fixture", "busy-parent"]]

    @Test(arguments: selectorCommands)
    func anUnknownStepIsRefusedWithTheNearestName(command: [String]) throws {
        let outcome = try CommandRunner.run(command + ["--step", "program-drft"], unsetting: ["CI"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.hasPrefix("error: "), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("`program-drft` is not a step. Did you mean `program-draft`?"))
    }

    @Test(arguments: selectorCommands.dropLast())
    func anUnknownFixtureIsRefusedWithTheNearestName(command: [String]) throws {
        let project = try RunCommandTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let outcome = try CommandRunner.run(command + ["--project", project.path, "--fixture", "busy-parnt"], unsetting: ["CI"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError == "error: No fixture named `busy-parnt` in fixtures/. Did you mean `busy-parent`?\n")
    }

    @Test func renderRefusesAnUnknownFixtureAndARoundTheScenarioLacks() throws {
        let fixture = try CommandRunner.run(["render", "--fixture", "busy-parnt"])
        #expect(fixture.status == 2)
        #expect(fixture.standardError.contains("Did you mean `busy-parent`?"))
        let round = try CommandRunner.run(["render", "--fixture", "busy-parent", "--step", "goal-options-edit-9"])
        #expect(round.status == 2)
        #expect(round.standardError.contains("there is no goal-options-edit-9"))
    }

    @Test func aMistypedCommandGetsASuggestion() throws {
        let outcome = try CommandRunner.run(["runn"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.hasPrefix("error: `runn` is not a trainer-eval command. Did you mean `run`?"))
    }

    /// A command's own error and a usage error are spelled alike.
    @Test func everyErrorIsWrittenTheSameWay() throws {
        let project = try Self.makeFullProject()
        defer { try? FileManager.default.removeItem(at: project) }
        for arguments in [["compare", "nosuchrun", "latest"], ["merge", "nosuch"], ["run", "--jobs", "zero"]] {
            let outcome = try CommandRunner.run(arguments + ["--project", project.path])
            #expect(outcome.status != 0)
            #expect(outcome.standardError.hasPrefix("error: "), "\(arguments): \(outcome.standardError)")
            #expect(!outcome.standardError.contains("Error:"), "\(arguments): \(outcome.standardError)")
        }
    }

    /// The README runs `swift run trainer-eval`; a copied hint must run the same way,
    /// and an installed binary on the PATH is named plainly.
    @Test func hintsNameTheCommandAsItWasInvoked() throws {
        let project = try Self.makeFullProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let history = try CommandRunner.run(["history", "--project", project.path])
        #expect(history.standardOutput.contains("`swift run trainer-eval run` records every run"), "\(history.standardOutput)")
        let onPath = try CommandRunner.run(
            ["history", "--project", project.path],
            environment: ["PATH": CommandRunner.executable.deletingLastPathComponent().path + ":/usr/bin:/bin"],
            launcher: ["/bin/sh", "-c", "shift; exec trainer-eval \"$@\"", "sh"])
        #expect(onPath.status == 0, "\(onPath.standardError)")
        #expect(onPath.standardOutput.contains("No runs recorded yet: `trainer-eval run` records every run."), "\(onPath.standardOutput)")
    }

    @Test func runTakesUntilNotStep() throws {
        let step = try CommandRunner.run(["run", "--step", "goal-options"])
        #expect(step.status == 2)
        #expect(step.standardError.contains("Use --until goal-options to stop after it"))
    }

    /// Nothing listens on the base URL: the run stops after the first call's retries
    /// (it tries no other step), names the URL once, exits 2, and still writes its report.
    @Test(arguments: ["openai-compatible", "local"])
    func anUnreachableProviderStopsTheRunAfterTheFirstCall(provider: String) throws {
        let project = try RunCommandTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let port = try RefusingPort()
        let outcome = try CommandRunner.run(
            ["run", "--project", project.path, "--provider", provider, "--base-url", port.baseURL.appendingPathComponent("v1").absoluteString],
            timeout: Patience.seconds)
        #expect(!outcome.timedOut)
        #expect(outcome.status == 2, "\(outcome.standardError)")
        #expect(outcome.standardError.components(separatedBy: "Could not reach http://127.0.0.1:\(port.port)").count == 3,
                "once on the step's line, once in the closing error:\n\(outcome.standardError)")
        #expect(outcome.standardError.contains("The run stopped after the first call's retries"))
        #expect(outcome.standardError.contains("scripts/local-model serve qwen") == (provider == "local"))
        let results = try String(contentsOf: project.appendingPathComponent("Reports/latest/results.json"), encoding: .utf8)
        #expect(results.contains("not run: the provider could not be reached"))
    }

    @Test func aCleanReplayComparedWithGoldenHasNoRegression() throws {
        let project = try Self.makeFullProject()
        defer { try? FileManager.default.removeItem(at: project) }
        let gate = try CommandRunner.run(["run", "--ci", "--project", project.path])
        #expect(gate.status == 0, "\(gate.standardOutput)")
        let compare = try CommandRunner.run(["compare", "--project", project.path, "latest", "--baseline", "golden"])
        #expect(compare.status == 0, "\(compare.standardOutput)\(compare.standardError)")
        let summary = compare.standardOutput.prefix { $0 != "\n" }
        #expect(summary.contains(" against golden: unchanged "), "\(compare.standardOutput)")
        #expect(!summary.contains("·"), "known failures are judged as the gate judges them: nothing regressed or changed")
    }

    /// The README is the path a newcomer reads to the end, so it stays short and the
    /// manual lives in docs/; every relative link in the README and in docs/*.md
    /// reaches a file of the repository.
    @Test func theReadmeStaysShortAndEveryDocsLinkReachesAFile() throws {
        let root = CommandRunner.repositoryRoot
        let readme = root.appendingPathComponent("README.md")
        let size = try Data(contentsOf: readme).count
        #expect(size <= 12_000, "README.md is \(size) bytes, more than 12,000: move detail to a page in docs/")

        let docs = root.appendingPathComponent("docs")
        let pages = try FileManager.default.contentsOfDirectory(atPath: docs.path)
            .filter { $0.hasSuffix(".md") }.sorted().map { docs.appendingPathComponent($0) }
        #expect(!pages.isEmpty, "docs/ holds no pages")
        var checked = 0
        for page in [readme] + pages {
            let text = try String(contentsOf: page, encoding: .utf8)
            let folder = page.deletingLastPathComponent()
            let name = page.path.dropFirst(root.path.count + 1)
            for target in Self.relativeLinks(in: text) {
                let path = String(target.prefix { $0 != "#" })
                guard !path.isEmpty else { continue }  // an anchor on the same page
                let resolved = folder.appendingPathComponent(path.removingPercentEncoding ?? path).path
                var isDirectory: ObjCBool = false
                let exists = FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory)
                #expect(exists && !isDirectory.boolValue, "\(name) links to \(target), which is not a file")
                checked += 1
            }
        }
        #expect(checked > 0, "no relative links found: the README links to the docs pages")
    }

    /// The targets of the markdown links `[text](target)` outside fenced code blocks and
    /// code spans, less those with a scheme (`https://`, `mailto:`) and anchors alone.
    static func relativeLinks(in markdown: String) -> [String] {
        var prose: [Substring] = []
        var fenced = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                fenced.toggle()
            } else if !fenced {
                prose.append(line)
            }
        }
        // Every other piece between backticks is a code span (which may run over a line
        // break); a link whose text is code keeps its `](` in the pieces outside.
        let text = prose.joined(separator: "\n").split(separator: "`", omittingEmptySubsequences: false)
            .enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined()
        var targets: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "](") {
            rest = rest[open.upperBound...]
            let target = String(rest.prefix { $0 != ")" && !$0.isWhitespace })
                .trimmingCharacters(in: CharacterSet(charactersIn: "<>"))
            if target.isEmpty || target.hasPrefix("#") || target.contains("://") || target.hasPrefix("mailto:") { continue }
            targets.append(target)
        }
        return targets
    }

    static let namespacesWork: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        probe.arguments = ["-n", "true"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    /// A replay touches no network, so it finishes where the loopback interface is down.
    @Test(.enabled(if: namespacesWork, "`unshare -n` is not available here (it needs unshare and the right to make a network namespace)"))
    func aReplayFinishesInANetworkNamespaceWithLoopbackDown() throws {
        let project = try RunCommandTests.makeProject(withGoldenOf: ["busy-parent", "minimal-record"])
        defer { try? FileManager.default.removeItem(at: project) }
        let outcome = try CommandRunner.run(["run", "--project", project.path], timeout: Patience.seconds, launcher: ["/usr/bin/unshare", "-n"])
        #expect(!outcome.timedOut, "the run hung")
        #expect([0, 1].contains(outcome.status), "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("Wall time"))
    }
}
