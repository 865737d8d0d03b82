import Foundation
import Intake
import JSONSchema
import Testing

/// `.github/workflows/prompt-eval.yml` is one gate spread over jobs: shards that each
/// run part of the fixtures and upload their report, and a merge job that combines
/// them, comments on the pull request and decides the check. Its pieces only work
/// together, and GitHub accepts a workflow that quietly drops one (a shard nobody
/// downloads, a merge that never runs after a failed shard), so the structure is
/// checked here. actionlint (in `.ci/run`) checks the syntax, expressions and scripts.
@Suite("The prompt-eval workflow")
struct WorkflowTests {
    static let path = ".github/workflows/prompt-eval.yml"

    static func text() throws -> String {
        try String(contentsOf: CommandRunner.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func theShardsTheMergeTheCommentAndTheGateFitTogether() throws {
        let problems = try WorkflowStructure(text: Self.text()).problems
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// Each breakage edits the real file the way a careless change would; the check
    /// that should notice it must. An edit that no longer applies fails too, so these
    /// follow the workflow when it is rewritten.
    @Test(arguments: Breakage.all)
    func aBrokenWorkflowIsCaught(_ breakage: Breakage) throws {
        let text = try Self.text()
        let occurrences = text.components(separatedBy: breakage.original).count - 1
        try #require(occurrences == 1, "`\(breakage.original)` occurs \(occurrences) times in \(Self.path); update this breakage")
        let broken = text.replacingOccurrences(of: breakage.original, with: breakage.replacement)
        let problems = try WorkflowStructure(text: broken).problems
        #expect(problems.contains { $0.contains(breakage.caughtAs) }, "problems found: \(problems)")
    }
}

struct Breakage: Sendable, CustomTestStringConvertible {
    let description: String
    let original: String
    let replacement: String
    /// A phrase of the problem that must be reported.
    let caughtAs: String

    var testDescription: String { description }

    static let all: [Breakage] = [
        Breakage(description: "a gap in the shards", original: "shard: [1, 2, 3, 4]", replacement: "shard: [1, 2, 4]",
                 caughtAs: "not 1...3"),
        Breakage(description: "a shard count written twice, and differently",
                 original: "${{ matrix.shard }}/${{ strategy.job-total }}", replacement: "${{ matrix.shard }}/5",
                 caughtAs: "--shard"),
        Breakage(description: "every shard running the same part", original: #"--shard "$SHARD""#, replacement: "--shard 1/4",
                 caughtAs: "--shard"),
        Breakage(description: "a gate failure hidden with the crash", original: "run --ci --shard",
                 replacement: "run --ci --shard \"$SHARD\" || true\n          .build/release/trainer-eval run --ci --shard",
                 caughtAs: "|| true"),
        Breakage(description: "the symlink uploaded instead of the report", original: "path: ${{ steps.report.outputs.dir }}",
                 replacement: "path: Reports/latest", caughtAs: "Reports/latest"),
        Breakage(description: "shard reports nobody downloads", original: "name: shard-${{ matrix.shard }}",
                 replacement: "name: report-${{ matrix.shard }}", caughtAs: "downloads no artifact named report-"),
        Breakage(description: "a merge that does not wait for the shards", original: "needs: shards", replacement: "needs: []",
                 caughtAs: "does not need"),
        Breakage(description: "a merge skipped when a shard's gate fails", original: "    if: ${{ !cancelled() }}\n    runs-on",
                 replacement: "    runs-on", caughtAs: "skipped"),
        Breakage(description: "no merge", original: "trainer-eval merge", replacement: "trainer-eval run", caughtAs: "no job runs"),
        Breakage(description: "a new comment on every push", original: "await github.rest.issues.updateComment(",
                 replacement: "await github.rest.issues.createComment(", caughtAs: "updateComment"),
        Breakage(description: "a comment without its marker", original: "const marker = '<!-- prompt-eval-report -->';",
                 replacement: "const marker = 'Prompt eval';", caughtAs: "marker"),
        Breakage(description: "a comment over GitHub's limit", original: "const limit = 65536;", replacement: "const limit = Infinity;",
                 caughtAs: "65536"),
        Breakage(description: "a merged gate failure that passes the check", original: "STATUS: ${{ steps.merge.outputs.status }}",
                 replacement: "STATUS: 0", caughtAs: "exit status"),
        Breakage(description: "write access for every job", original: "permissions:\n  contents: read\n",
                 replacement: "permissions:\n  contents: write\n", caughtAs: "contents: write"),
        Breakage(description: "a scope the workflow does not use", original: "      pull-requests: write\n",
                 replacement: "      pull-requests: write\n      actions: write\n", caughtAs: "actions: write"),
        Breakage(description: "superseded runs left running", original: "cancel-in-progress: true", replacement: "cancel-in-progress: false",
                 caughtAs: "cancel-in-progress"),
        Breakage(description: "a cache that never changes with the dependencies", original: "${{ hashFiles('Package.swift') }}",
                 replacement: "v1", caughtAs: "Package.swift"),
    ]
}

/// What the workflow must hold, read from its YAML; `problems` names each gap.
struct WorkflowStructure {
    let workflow: JSONValue

    init(text: String) throws {
        workflow = try YAMLDocument(text: text).value
    }

    var jobs: [(id: String, job: JSONValue)] {
        (workflow["jobs"]?.objectValue ?? JSONObject()).map { ($0.key, $0.value) }
    }

    var problems: [String] {
        var problems = triggerProblems + permissionProblems + concurrencyProblems
        guard let (shardJobID, shardJob) = jobs.first(where: { $0.job["strategy"]?["matrix"]?["shard"] != nil }) else {
            return problems + ["no job has a matrix of shards (strategy.matrix.shard)"]
        }
        problems += shardProblems(shardJob)
        guard let (mergeJobID, mergeJob) = jobs.first(where: { !Self.steps(of: $0.job, running: "trainer-eval merge").isEmpty }) else {
            return problems + ["no job runs `trainer-eval merge`"]
        }
        problems += mergeProblems(mergeJobID, mergeJob, shardJobID: shardJobID, shardJob: shardJob)
        return problems
    }

    private var triggerProblems: [String] {
        let on = workflow["on"]
        var problems: [String] = []
        for event in ["pull_request", "push", "workflow_dispatch"] where on?[event] == nil {
            problems.append("the workflow does not run on \(event)")
        }
        if let branches = on?["push"]?["branches"]?.arrayValue, !branches.contains(.string("main")) {
            problems.append("push does not include main")
        }
        return problems
    }

    /// Read access to the code everywhere; write access only to pull requests, and only
    /// in the job that comments.
    private var permissionProblems: [String] {
        var problems: [String] = []
        let allowed: [String: Set<String>] = ["contents": ["read"], "pull-requests": ["read", "write"]]
        func check(_ permissions: JSONValue?, _ owner: String, mayWritePullRequests: Bool) {
            guard let permissions else { return }
            guard let scopes = permissions.objectValue else {
                problems.append("\(owner) grants `\(permissions.stringValue ?? "?")`: list the scopes")
                return
            }
            for member in scopes {
                let level = member.value.stringValue ?? "?"
                if level == "none" { continue }
                if !(allowed[member.key]?.contains(level) ?? false) || (member.key == "pull-requests" && level == "write" && !mayWritePullRequests) {
                    problems.append("\(owner) grants \(member.key): \(level)")
                }
            }
        }
        if workflow["permissions"] == nil {
            problems.append("the workflow sets no permissions: the token gets the repository's defaults")
        }
        check(workflow["permissions"], "the workflow", mayWritePullRequests: false)
        for (id, job) in jobs {
            let comments = !Self.commentSteps(of: job).isEmpty
            check(job["permissions"], "job \(id)", mayWritePullRequests: comments)
            if comments, job["permissions"]?["pull-requests"]?.stringValue != "write" {
                problems.append("job \(id) comments on the pull request without pull-requests: write")
            }
        }
        return problems
    }

    private var concurrencyProblems: [String] {
        guard let concurrency = workflow["concurrency"], let group = concurrency["group"]?.stringValue, !group.isEmpty else {
            return ["the workflow has no concurrency group: superseded runs keep running"]
        }
        var problems: [String] = []
        if !group.contains("github.ref") && !group.contains("pull_request.number") {
            problems.append("the concurrency group `\(group)` is not per pull request or branch")
        }
        let cancels = concurrency["cancel-in-progress"]
        if cancels != .bool(true), !(cancels?.stringValue?.contains("${{") ?? false) {
            problems.append("cancel-in-progress is not true: superseded runs keep running")
        }
        return problems
    }

    private func shardProblems(_ job: JSONValue) -> [String] {
        var problems: [String] = []
        let listed = job["strategy"]?["matrix"]?["shard"]?.arrayValue ?? []
        let shards = listed.compactMap(\.intValue)
        let count = listed.count
        if count < 2 || shards != Array(1...max(1, count)) {
            problems.append("the matrix shards are \(listed.map(\.description)), not 1...\(count)")
        }
        if job["strategy"]?["fail-fast"] != .bool(false) {
            problems.append("the shard matrix is fail-fast: one shard's failure cancels the reports of the others")
        }
        if Self.steps(of: job, running: "scripts/install-system-packages").isEmpty {
            problems.append("the shard job does not install scripts/system-packages")
        }
        if !Self.steps(of: job).contains(where: { Self.script($0).contains("swift build") && Self.script($0).contains("-c release") }) {
            problems.append("the shard job does not build the release binary")
        }
        if !Self.steps(of: job).contains(where: {
            Self.uses($0, "actions/cache") && Self.input($0, "path")?.contains(".build") == true
                && Self.input($0, "key")?.contains("hashFiles('Package.swift')") == true
        }) {
            problems.append("the shard job does not cache .build keyed on Package.swift")
        }

        let runs = Self.steps(of: job, running: "trainer-eval run").filter { Self.script($0).contains("--shard") }
        if let step = runs.first {
            let argument = Self.shardArgument(of: step, job: job, workflow: workflow)
            let accepted = ["${{ matrix.shard }}/${{ strategy.job-total }}", "${{ matrix.shard }}/\(count)"]
            if !accepted.contains(argument) {
                problems.append("the run step's --shard is `\(argument)`, not `${{ matrix.shard }}/` the \(count) shards")
            }
            if step["continue-on-error"] == .bool(true) {
                problems.append("the run step continues on error: a crash (exit 2) would pass unseen")
            }
            if Self.script(step).contains("|| true") {
                problems.append("the run step swallows its exit status with `|| true`: a crash (exit 2) would pass unseen")
            }
        } else {
            problems.append("no step of the shard job runs `trainer-eval run ... --shard`")
        }

        let uploads = Self.steps(of: job).filter { Self.uses($0, "actions/upload-artifact") && Self.input($0, "name")?.contains("matrix.shard") == true }
        if let upload = uploads.first {
            if let path = Self.input(upload, "path"), path.hasSuffix("latest") || path.hasSuffix("latest/") {
                problems.append("the shard upload's path is \(path): upload the folder Reports/latest points at")
            }
            if !Self.runsAfterFailure(upload["if"]) {
                problems.append("the shard upload is skipped when a step before it fails")
            }
        } else {
            problems.append("the shard job uploads no artifact named after matrix.shard")
        }
        return problems
    }

    private func mergeProblems(_ id: String, _ job: JSONValue, shardJobID: String, shardJob: JSONValue) -> [String] {
        var problems: [String] = []
        let needs = job["needs"].map { $0.arrayValue ?? [$0] } ?? []
        if !needs.contains(.string(shardJobID)) {
            problems.append("job \(id) does not need \(shardJobID)")
        }
        if !Self.runsAfterFailure(job["if"]) {
            problems.append("job \(id) is skipped when a shard job fails: give it `if: ${{ !cancelled() }}`")
        }

        // Every artifact the shards upload reaches the merge, each shard in its own folder.
        let downloads = Self.steps(of: job).filter { Self.uses($0, "actions/download-artifact") }
        let shardCount = shardJob["strategy"]?["matrix"]?["shard"]?.arrayValue ?? []
        for upload in Self.steps(of: shardJob) where Self.uses(upload, "actions/upload-artifact") {
            guard let name = Self.input(upload, "name") else { continue }
            let names = name.contains("matrix.shard")
                ? shardCount.compactMap(\.intValue).map { name.replacingOccurrences(of: "${{ matrix.shard }}", with: String($0)) } : [name]
            for artifact in names where !downloads.contains(where: { Self.downloads($0, artifact) }) {
                problems.append("job \(id) downloads no artifact named \(artifact)")
            }
        }
        if downloads.contains(where: { $0["with"]?["merge-multiple"] == .bool(true) }) {
            problems.append("job \(id) downloads with merge-multiple: the shard reports overwrite each other")
        }

        let merges = Self.steps(of: job, running: "trainer-eval merge")
        if let merge = merges.first {
            let folders = downloads.filter { $0["with"]?["pattern"] != nil }.compactMap { Self.input($0, "path") }
            if let folder = folders.first, !Self.script(merge).contains(folder) {
                problems.append("`trainer-eval merge` is not given the downloaded shard reports (\(folder))")
            }
            problems += exitStatusProblems(merge, job: job)
        }

        let comments = Self.commentSteps(of: job)
        if let comment = comments.first {
            let script = Self.input(comment, "script") ?? ""
            for (needle, why) in [
                ("<!--", "a hidden marker to find its earlier comment"), ("listComments", "a search for the earlier comment"),
                ("updateComment", "an update of the earlier comment"), ("createComment", "a first comment"),
                ("65536", "the 65536-character limit of a comment"),
            ] where !script.contains(needle) {
                problems.append("the comment step has no \(why) (`\(needle)`)")
            }
            if !(comment["if"]?.stringValue?.contains("pull_request") ?? false) {
                problems.append("the comment step does not run only for pull requests")
            }
        } else {
            problems.append("job \(id) posts no pull-request comment (actions/github-script with createComment)")
        }
        return problems
    }

    /// The merge's exit status must fail the job: directly, or through a later step
    /// that reads the status the merge step saved.
    private func exitStatusProblems(_ merge: JSONValue, job: JSONValue) -> [String] {
        if merge["continue-on-error"] == .bool(true) {
            return ["the merge step continues on error: a failed merged gate passes the check"]
        }
        let script = Self.script(merge)
        guard script.contains("$?") || script.contains("|| true") else { return [] }
        let steps = Self.steps(of: job)
        guard let id = merge["id"]?.stringValue, let index = steps.firstIndex(of: merge) else {
            return ["the merge step keeps its exit status but has no id: nothing fails the job on it"]
        }
        let decides = steps[(index + 1)...].contains { step in
            let reads = Self.script(step).contains("steps.\(id).outputs.")
                || (step["env"]?.objectValue ?? JSONObject()).contains { $0.value.stringValue?.contains("steps.\(id).outputs.") == true }
            return reads && Self.script(step).contains("exit") && step["if"] == nil
        }
        return decides ? [] : ["no step after the merge fails the job on its exit status (steps.\(id).outputs)"]
    }

    // MARK: Reading steps

    static func steps(of job: JSONValue) -> [JSONValue] { job["steps"]?.arrayValue ?? [] }

    static func steps(of job: JSONValue, running command: String) -> [JSONValue] {
        steps(of: job).filter { script($0).contains(command) }
    }

    static func commentSteps(of job: JSONValue) -> [JSONValue] {
        steps(of: job).filter { uses($0, "actions/github-script") && input($0, "script")?.contains("createComment") == true }
    }

    static func script(_ step: JSONValue) -> String { step["run"]?.stringValue ?? "" }

    static func uses(_ step: JSONValue, _ action: String) -> Bool {
        step["uses"]?.stringValue?.hasPrefix(action + "@") == true
    }

    static func input(_ step: JSONValue, _ name: String) -> String? {
        step["with"]?[name]?.stringValue.map(normalized)
    }

    /// `${{x}}` and `${{  x }}` read as `${{ x }}`.
    static func normalized(_ text: String) -> String {
        var result = text
        while let open = result.range(of: "${{"), let close = result.range(of: "}}", range: open.upperBound..<result.endIndex) {
            let inner = result[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            result.replaceSubrange(open.lowerBound..<close.upperBound, with: "\u{1}\(inner)\u{2}")
        }
        return result.replacingOccurrences(of: "\u{1}", with: "${{ ").replacingOccurrences(of: "\u{2}", with: " }}")
    }

    /// `always()`, `!cancelled()` or `failure()` in an `if:` let a job or step run after a failure.
    static func runsAfterFailure(_ condition: JSONValue?) -> Bool {
        guard let text = condition?.stringValue else { return false }
        return text.contains("always()") || text.contains("!cancelled()") || text.contains("failure()")
    }

    static func downloads(_ step: JSONValue, _ artifact: String) -> Bool {
        if let name = input(step, "name") { return name == artifact }
        guard let pattern = input(step, "pattern") else { return true }  // neither: every artifact of the run
        return matches(artifact, pattern[...])
    }

    /// A glob with `*` only, as artifact patterns are written here.
    static func matches(_ text: String, _ pattern: Substring) -> Bool {
        guard let star = pattern.firstIndex(of: "*") else { return text == pattern }
        let prefix = pattern[..<star]
        guard text.hasPrefix(prefix) else { return false }
        let rest = text.dropFirst(prefix.count)
        let after = pattern[pattern.index(after: star)...]
        return rest.indices.contains { matches(String(rest[$0...]), after) } || matches("", after)
    }

    /// The `--shard` argument of the run step, with a `$VARIABLE` read from the step's,
    /// the job's or the workflow's `env`.
    static func shardArgument(of step: JSONValue, job: JSONValue, workflow: JSONValue) -> String {
        let script = script(step)
        guard let flag = script.range(of: "--shard") else { return "" }
        var rest = script[flag.upperBound...].drop { $0 == "=" || $0 == " " }
        rest = rest.prefix { !$0.isWhitespace && $0 != ";" }
        var argument = String(rest).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        if argument.hasPrefix("$") {
            let name = argument.trimmingCharacters(in: CharacterSet(charactersIn: "${}"))
            argument = [step, job, workflow].lazy.compactMap { $0["env"]?[name]?.stringValue }.first ?? argument
        }
        return normalized(argument)
    }
}
