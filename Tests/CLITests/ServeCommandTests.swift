import Foundation
import Storage
import Testing

/// `trainer-eval serve` as a reviewer's browser and a hostile page use it: the real
/// binary on a project folder of real files, spoken to over loopback. Its project has
/// busy-parent's program draft changed and minimal-record's goal options new, both
/// pending (`GoldenCommandTests.makeProjectWithPendingOutputs`).
@Suite("serve", .serialized)
struct ServeCommandTests {
    static let draft = (fixture: "busy-parent", step: "program-draft")
    static let options = (fixture: "minimal-record", step: "goal-options")

    static func stepPath(_ step: (fixture: String, step: String), track: String = "base") -> String {
        "/step?track=\(track)&fixture=\(step.fixture)&step=\(step.step)"
    }

    /// The fields a page's form sends, read off the page as the browser has it.
    static func formFields(_ id: String, on page: String, _ names: [String]) throws -> [(String, String)] {
        try names.map { name in (name, try #require(ServedProject.field(name, inForm: id, of: page), "no \(name) in form \(id)")) }
    }

    @Test func acceptingInTheBrowserChangesTheFilesAsAcceptDoes() async throws {
        let byCommand = try GoldenCommandTests.makeProjectWithPendingOutputs()
        let byBrowser = try GoldenCommandTests.makeProjectWithPendingOutputs()
        defer { for project in [byCommand, byBrowser] { try? FileManager.default.removeItem(at: project) } }
        let accept = try CommandRunner.run(["accept", "--project", byCommand.path, "--fixture", Self.draft.fixture, "--step", Self.draft.step])
        #expect(accept.status == 0, "\(accept.standardOutput)\(accept.standardError)")

        let served = try ServedProject(byBrowser)
        defer { served.stop() }
        let page = try await served.get(Self.stepPath(Self.draft))
        #expect(page.status == 200)
        #expect(page.text.contains("Pending 1 of 2"))
        let fields = try Self.formFields("accept", on: page.text, ["track", "fixture", "step", "fingerprint"])
        let answer = try await served.post("/accept", fields, headers: ["Origin": served.origin])
        #expect(answer.status == 303)
        // The review moves on to the next pending output, saying what it did.
        let next = try #require(answer.header("Location"))
        #expect(next.hasPrefix(Self.stepPath(Self.options)), "\(next)")
        let following = try await served.get(next)
        #expect(following.text.contains("Accepted busy-parent/program-draft."))
        #expect(following.text.contains("Pending 1 of 1"))

        #expect(GoldenCommandTests.goldenFiles(byBrowser) == GoldenCommandTests.goldenFiles(byCommand))
        for file in GoldenCommandTests.goldenFiles(byCommand) where file.hasPrefix("busy-parent/") {
            #expect(try GoldenCommandTests.contents(byBrowser, file) == GoldenCommandTests.contents(byCommand, file), "\(file)")
        }
        // Nothing of the served step is pending any more; the other output still is.
        let queue = try await served.get("/queue")
        #expect(queue.text.contains("minimal-record/goal-options"))
        #expect(!queue.text.contains("busy-parent/program-draft"))
    }

    @Test func labellingInTheBrowserWritesWhatLabelWrites() async throws {
        let byCommand = try GoldenCommandTests.makeProjectWithPendingOutputs()
        let byBrowser = try GoldenCommandTests.makeProjectWithPendingOutputs()
        defer { for project in [byCommand, byBrowser] { try? FileManager.default.removeItem(at: project) } }
        let note = "Sessions of 20 of 60 minutes; \"push-up\" for someone on her knees."
        let label = try CommandRunner.run([
            "label", "--project", byCommand.path, Self.draft.fixture, Self.draft.step, "reject", "--reason", "too-short-for-time",
            "--reason", "wrong-level", "--note", note, "--reviewer", "A. Coach", "--pending",
        ])
        #expect(label.status == 0, "\(label.standardOutput)\(label.standardError)")

        let served = try ServedProject(byBrowser)
        defer { served.stop() }
        let page = try await served.get(Self.stepPath(Self.draft)).text
        #expect(page.contains("Judging the pending output."))
        var fields = try Self.formFields("label-form", on: page, ["track", "fixture", "step", "target", "digest", "previous"])
        fields += [("verdict", "reject"), ("reason", "too-short-for-time"), ("reason", "wrong-level"), ("note", note), ("reviewer", "A. Coach")]
        let answer = try await served.post("/label", fields, headers: ["Origin": served.origin])
        #expect(answer.status == 303)
        let shown = try await served.get(try #require(answer.header("Location"))).text
        #expect(shown.contains("Labelled busy-parent/program-draft: rejected"))
        #expect(shown.contains("Rejected by A. Coach"))

        let file = "busy-parent/program-draft.review.json"
        #expect(try GoldenCommandTests.contents(byBrowser, file) == GoldenCommandTests.contents(byCommand, file))
        // A rejection without a reason is refused as `label` refuses it, and writes nothing.
        let again = try await served.get(Self.stepPath(Self.draft)).text
        var bare = try Self.formFields("label-form", on: again, ["track", "fixture", "step", "target", "digest", "previous"])
        bare += [("verdict", "reject"), ("reviewer", "B. Coach")]
        let refused = try await served.post("/label", bare, headers: ["Origin": served.origin])
        #expect(refused.status == 400)
        #expect(refused.text.contains("A rejection needs at least one reason"))
        #expect(try GoldenCommandTests.contents(byBrowser, file) == GoldenCommandTests.contents(byCommand, file))
    }

    @Test func writesNeedTheTokenAndTheServersOwnOrigin() async throws {
        let project = try GoldenCommandTests.makeProjectWithPendingOutputs()
        defer { try? FileManager.default.removeItem(at: project) }
        let before = GoldenCommandTests.goldenFiles(project)
        let served = try ServedProject(project)
        defer { served.stop() }
        let page = try await served.get(Self.stepPath(Self.draft)).text
        let fields = try Self.formFields("accept", on: page, ["track", "fixture", "step", "fingerprint"])

        let tokenless = try await served.post("/accept", fields, withToken: false, headers: ["Origin": served.origin])
        #expect(tokenless.status == 403)
        #expect(tokenless.text.contains("needs the token"))
        let wrongToken = try await served.post("/accept", fields + [("token", String(repeating: "0", count: 64))], withToken: false, headers: ["Origin": served.origin])
        #expect(wrongToken.status == 403)
        // A page of another site that somehow holds the token still cannot act.
        let foreign = try await served.post("/accept", fields, headers: ["Origin": "http://evil.example"])
        #expect(foreign.status == 403)
        #expect(foreign.text.contains("evil.example"))
        let otherPort = try await served.post("/accept", fields, headers: ["Origin": "http://127.0.0.1:1"])
        #expect(otherPort.status == 403)
        let crossSite = try await served.post("/accept", fields, headers: ["Sec-Fetch-Site": "cross-site"])
        #expect(crossSite.status == 403)
        // DNS rebinding: the other site's name in Host is refused before anything is read.
        let rebound = try await served.post("/accept", fields, headers: ["Host": "evil.example:\(URL(string: served.origin)!.port!)"])
        #expect(rebound.status == 421)
        let reboundPage = try await served.get("/queue", headers: ["Host": "evil.example"])
        #expect(reboundPage.status == 421)
        #expect(GoldenCommandTests.goldenFiles(project) == before)

        // The token is in the printed address's fragment, which no request carries, and on no page.
        #expect(served.address.query == nil)
        #expect(served.address.fragment == "token=\(served.token)")
        for path in ["/", "/queue", Self.stepPath(Self.draft), "/runs/latest"] {
            #expect(try await !served.get(path).text.contains(served.token), "\(path)")
        }
        // With everything in order, the same request is taken.
        let accepted = try await served.post("/accept", fields, headers: ["Origin": served.origin, "Sec-Fetch-Site": "same-origin"])
        #expect(accepted.status == 303)
    }

    @Test func servingEveryAddressIsRefusedAndAnotherAddressIsWarnedOf() throws {
        let project = try GoldenCommandTests.makeProjectWithPendingOutputs()
        defer { try? FileManager.default.removeItem(at: project) }
        for host in ["0.0.0.0", "::"] {
            let refused = try CommandRunner.run(["serve", "--project", project.path, "--port", "0", "--host", host])
            #expect(refused.status == 2)
            #expect(refused.standardError.contains("--host needs the one address browsers will use"), "\(refused.standardError)")
        }
    }

    /// Sets check results of a step's pending output (`.checks.json.new`).
    static func setPendingChecks(_ project: URL, _ step: (fixture: String, step: String), _ results: [String: Bool]) throws {
        let file = project.appendingPathComponent("golden/\(step.fixture)/\(step.step).checks.json.new")
        var text = try String(contentsOf: file, encoding: .utf8)
        for (name, passed) in results {
            let range = try #require(text.range(of: "\"\(name)\": \(!passed)"), "\(name) is not \(!passed) in \(file.lastPathComponent)")
            text.replaceSubrange(range, with: "\"\(name)\": \(passed)")
        }
        try text.write(to: file, atomically: true, encoding: .utf8)
    }

    @Test func aSafetyFailureOrARegressionIsNeverAcceptedByAccident() async throws {
        let byCommand = try GoldenCommandTests.makeProjectWithPendingOutputs()
        let byBrowser = try GoldenCommandTests.makeProjectWithPendingOutputs()
        defer { for project in [byCommand, byBrowser] { try? FileManager.default.removeItem(at: project) } }
        // The pending draft now fails a safety check, and a check it passed in golden.
        for project in [byCommand, byBrowser] {
            try Self.setPendingChecks(project, Self.draft, ["output.no-harmful-advice[diet]": false, "output.language": false])
        }
        let reason = "kept to show the guardrail catches it"
        let command = try CommandRunner.run([
            "accept", "--project", byCommand.path, "--fixture", Self.draft.fixture, "--step", Self.draft.step, "--allow-unsafe", reason,
            "--reviewer", "A. Coach",
        ])
        #expect(command.status == 0, "\(command.standardOutput)\(command.standardError)")

        let served = try ServedProject(byBrowser)
        defer { served.stop() }
        let page = try await served.get(Self.stepPath(Self.draft)).text
        #expect(page.contains("Fails safety checks"))
        #expect(!page.contains("id=\"accept\""), "an output failing a safety check has no accept button")
        let fields = try Self.formFields("accept-unsafe", on: page, ["track", "fixture", "step", "fingerprint"])
        let plain = try await served.post("/accept", fields, headers: ["Origin": served.origin])
        #expect(plain.status == 400)
        #expect(plain.text.contains("fails safety checks"))
        let noReason = try await served.post("/accept-unsafe", fields + [("reason", " "), ("reviewer", "A. Coach")], headers: ["Origin": served.origin])
        #expect(noReason.status == 400)
        let unconfirmed = try await served.post("/accept-unsafe", fields + [("reason", reason), ("reviewer", "A. Coach")], headers: ["Origin": served.origin])
        #expect(unconfirmed.status == 400)
        #expect(unconfirmed.text.contains("output.language"))
        #expect(FileManager.default.fileExists(atPath: byBrowser.appendingPathComponent("golden/busy-parent/program-draft.json.new").path))

        let confirmed = try await served.post(
            "/accept-unsafe", fields + [("reason", reason), ("reviewer", "A. Coach"), ("confirm", "yes")], headers: ["Origin": served.origin])
        #expect(confirmed.status == 303)
        #expect(GoldenCommandTests.goldenFiles(byBrowser) == GoldenCommandTests.goldenFiles(byCommand))
        for file in GoldenCommandTests.goldenFiles(byCommand) where file.hasPrefix("busy-parent/program-draft") {
            #expect(try GoldenCommandTests.contents(byBrowser, file) == GoldenCommandTests.contents(byCommand, file), "\(file)")
        }
    }

    @Test func aRegressionIsAcceptedOnlyWhenConfirmed() async throws {
        let project = try GoldenCommandTests.makeProjectWithPendingOutputs()
        defer { try? FileManager.default.removeItem(at: project) }
        try Self.setPendingChecks(project, Self.draft, ["output.language": false])
        let served = try ServedProject(project)
        defer { served.stop() }
        let page = try await served.get(Self.stepPath(Self.draft)).text
        #expect(page.contains("Accepting makes checks that pass now fail"))
        #expect(page.contains("<span class=\"off\">previous</span>"), "the first pending output has no previous")
        let fields = try Self.formFields("accept", on: page, ["track", "fixture", "step", "fingerprint"])
        let unconfirmed = try await served.post("/accept", fields, headers: ["Origin": served.origin])
        #expect(unconfirmed.status == 400)
        #expect(FileManager.default.fileExists(atPath: project.appendingPathComponent("golden/busy-parent/program-draft.json.new").path))
        let confirmed = try await served.post("/accept", fields + [("confirm", "yes")], headers: ["Origin": served.origin])
        #expect(confirmed.status == 303)
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent("golden/busy-parent/program-draft.json.new").path))
    }

    @Test func discardingWritesWhatRejectWritesAndWhatIsGoneIsAConflict() async throws {
        let byCommand = try GoldenCommandTests.makeProjectWithPendingOutputs()
        let byBrowser = try GoldenCommandTests.makeProjectWithPendingOutputs()
        defer { for project in [byCommand, byBrowser] { try? FileManager.default.removeItem(at: project) } }
        let reject = try CommandRunner.run(["reject", "--project", byCommand.path, "--fixture", Self.options.fixture, "--step", Self.options.step])
        #expect(reject.status == 0, "\(reject.standardError)")

        let served = try ServedProject(byBrowser)
        defer { served.stop() }
        let page = try await served.get(Self.stepPath(Self.options)).text
        #expect(page.contains("<span class=\"off\">next</span>"), "the last pending output has no next")
        let discard = try Self.formFields("discard", on: page, ["track", "fixture", "step", "fingerprint"])
        let label = try Self.formFields("label-form", on: page, ["track", "fixture", "step", "target", "digest", "previous"])
        let discarded = try await served.post("/reject", discard, headers: ["Origin": served.origin])
        #expect(discarded.status == 303)
        #expect(GoldenCommandTests.goldenFiles(byBrowser) == GoldenCommandTests.goldenFiles(byCommand))

        // The tab that still shows it: nothing to discard or label any more.
        let again = try await served.post("/reject", discard, headers: ["Origin": served.origin])
        #expect(again.status == 409)
        #expect(again.text.contains("Nothing is pending for minimal-record/goal-options any more"))
        let labelled = try await served.post("/label", label + [("verdict", "sign"), ("reviewer", "A. Coach")], headers: ["Origin": served.origin])
        #expect(labelled.status == 409)
        #expect(GoldenCommandTests.goldenFiles(byBrowser) == GoldenCommandTests.goldenFiles(byCommand))
    }

    @Test func pathsFromRequestsNeverLeaveTheProject() async throws {
        let project = try GoldenCommandTests.makeProjectWithPendingOutputs()
        defer { try? FileManager.default.removeItem(at: project) }
        let outside = project.deletingLastPathComponent().appendingPathComponent("outside-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outside) }
        try Data("secret".utf8).write(to: outside.appendingPathComponent("program-draft.json"))
        let served = try ServedProject(project)
        defer { served.stop() }
        let escape = "../../\(outside.lastPathComponent)"
        for path in [
            "/step?track=base&fixture=\(escape)&step=program-draft",
            "/step?track=..%2F..%2F\(outside.lastPathComponent)&fixture=busy-parent&step=program-draft",
            "/step?track=base&fixture=busy-parent&step=..%2F..%2F..%2FPackage.swift",
            "/runs/..%2F..%2F\(outside.lastPathComponent)",
            "/runs/latest/step?fixture=\(escape)&step=program-draft",
            "/golden?track=..%2F..",
            "/runs/latest/step?fixture=busy-parent&step=..%2Fprogram-draft",
        ] {
            let answer = try await served.get(path)
            #expect([400, 404].contains(answer.status), "\(path): \(answer.status)")
            #expect(!answer.text.contains("secret") && !answer.text.contains("PackageDescription"), "\(path)")
        }
        let page = try await served.get(Self.stepPath(Self.draft)).text
        var fields = try Self.formFields("label-form", on: page, ["track", "digest", "previous"])
        fields += [("fixture", escape), ("step", "program-draft"), ("target", "approved"), ("verdict", "sign"), ("reviewer", "A. Coach")]
        let answer = try await served.post("/label", fields, headers: ["Origin": served.origin])
        #expect(answer.status == 404)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path) == ["program-draft.json"])
    }

    @Test func hostileOutputTextIsShownAsText() async throws {
        let project = try GoldenCommandTests.makeProjectWithPendingOutputs()
        defer { try? FileManager.default.removeItem(at: project) }
        let hostile = "<script>window.pwned = 1</script>\"><img src=x onerror=alert(1)>"
        let pendingFile = project.appendingPathComponent("golden/minimal-record/goal-options.json.new")
        let text = try String(contentsOf: pendingFile, encoding: .utf8)
        let summary = try #require(text.range(of: #""summary": ""#))
        let escapedForJSON = hostile.replacingOccurrences(of: "\"", with: "\\\"")
        try text.replacingCharacters(in: summary, with: "\"summary\": \"\(escapedForJSON) ").write(to: pendingFile, atomically: true, encoding: .utf8)

        // And in a program's markdown, beside the approved one, with its changed words marked.
        let markdownFile = project.appendingPathComponent("golden/busy-parent/program-draft.md.new")
        let markdown = try String(contentsOf: markdownFile, encoding: .utf8)
        try (markdown + "\n\n" + hostile + "\n\n- [a link](javascript:alert(1))\n").write(to: markdownFile, atomically: true, encoding: .utf8)

        let served = try ServedProject(project)
        defer { served.stop() }
        let program = try await served.get(Self.stepPath(Self.draft)).text
        #expect(program.contains("programs compared"))
        #expect(!program.contains("<script>window.pwned") && !program.contains("<img src=x") && !program.contains("href=\"javascript:"))
        let page = try await served.get(Self.stepPath(Self.options)).text
        #expect(page.contains("&lt;script&gt;window.pwned = 1&lt;/script&gt;"))
        #expect(!page.contains("<script>window.pwned"))
        #expect(!page.contains("<img src=x"))
        // A label's note and reviewer are shown as text too.
        var fields = try Self.formFields("label-form", on: page, ["track", "fixture", "step", "target", "digest", "previous"])
        fields += [("verdict", "reject"), ("reason", "nonsense-text"), ("note", hostile), ("reviewer", "<b>x</b>")]
        let answer = try await served.post("/label", fields, headers: ["Origin": served.origin])
        #expect(answer.status == 303)
        let labelled = try await served.get(Self.stepPath(Self.options)).text
        #expect(!labelled.contains("<script>window.pwned") && !labelled.contains("<b>x</b>"))
        #expect(labelled.contains("&lt;b&gt;x&lt;/b&gt;"))
    }

    @Test func anOutputChangedSinceThePageOpenedIsAConflictNotAnOverwrite() async throws {
        let project = try GoldenCommandTests.makeProjectWithPendingOutputs()
        defer { try? FileManager.default.removeItem(at: project) }
        let served = try ServedProject(project)
        defer { served.stop() }
        let page = try await served.get(Self.stepPath(Self.draft)).text
        let accept = try Self.formFields("accept", on: page, ["track", "fixture", "step", "fingerprint"])
        let label = try Self.formFields("label-form", on: page, ["track", "fixture", "step", "target", "digest", "previous"])

        // Meanwhile, a command labels the output and a run writes a new pending one.
        let byCommand = try CommandRunner.run([
            "label", "--project", project.path, Self.draft.fixture, Self.draft.step, "sign", "--reviewer", "B. Coach", "--pending",
        ])
        #expect(byCommand.status == 0, "\(byCommand.standardError)")
        let labelFile = project.appendingPathComponent("golden/busy-parent/program-draft.review.json")
        let labelledByCommand = try Data(contentsOf: labelFile)
        let signed = try await served.post("/label", label + [("verdict", "reject"), ("reason", "wrong-level"), ("reviewer", "A. Coach")], headers: ["Origin": served.origin])
        #expect(signed.status == 409)
        #expect(signed.text.contains("B. Coach signed it"))
        #expect(try Data(contentsOf: labelFile) == labelledByCommand)

        let pendingFile = project.appendingPathComponent("golden/busy-parent/program-draft.json.new")
        let written = try String(contentsOf: pendingFile, encoding: .utf8)
        let rewritten = written.replacingOccurrences(of: "\"10-12\"", with: "\"6-8\"")
        #expect(rewritten != written)
        try rewritten.write(to: pendingFile, atomically: true, encoding: .utf8)
        let accepted = try await served.post("/accept", accept, headers: ["Origin": served.origin])
        #expect(accepted.status == 409)
        #expect(accepted.text.contains("changed since this page was opened"))
        #expect(FileManager.default.fileExists(atPath: pendingFile.path))
        #expect(try String(contentsOf: pendingFile, encoding: .utf8) == rewritten)
    }

    /// An action checks and writes while no other process writes the folder: here a
    /// process as `run` is, which holds the lock and writes a new pending output before
    /// letting go. The accept waits for it, then finds the output changed.
    @Test func anActionWaitsForAWriterOfAnotherProcessAndJudgesWhatItFindsThen() async throws {
        let project = try GoldenCommandTests.makeProjectWithPendingOutputs()
        defer { try? FileManager.default.removeItem(at: project) }
        let served = try ServedProject(project)
        defer { served.stop() }
        let page = try await served.get(Self.stepPath(Self.draft)).text
        let fields = try Self.formFields("accept", on: page, ["track", "fixture", "step", "fingerprint"])

        let lockFile = GoldenWriteLock.lockFile(for: project.appendingPathComponent("golden"))
        let pendingFile = project.appendingPathComponent("golden/busy-parent/program-draft.json.new")
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [lockFile, "sh", "-c", "sleep 1; sed -i 's/\"10-12\"/\"6-8\"/' '\(pendingFile.path)'"]
        try holder.run()
        // Only bounds a hang: wait until the holder has the lock.
        let deadline = Date().addingTimeInterval(60)
        func lockIsFree() throws -> Bool {
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
            probe.arguments = ["-n", lockFile, "true"]
            try probe.run()
            probe.waitUntilExit()
            return probe.terminationStatus == 0
        }
        while Date() < deadline, try lockIsFree() { try await Task.sleep(nanoseconds: 20_000_000) }

        let accepted = try await served.post("/accept", fields, headers: ["Origin": served.origin])
        holder.waitUntilExit()
        #expect(accepted.status == 409)
        #expect(accepted.text.contains("changed since this page was opened"))
        #expect(try String(contentsOf: pendingFile, encoding: .utf8).contains("\"6-8\""))
    }

    @Test func pagesListRunsAndTheirStepsAPageAtATime() async throws {
        let project = try GoldenCommandTests.makeProjectWithPendingOutputs()
        defer { try? FileManager.default.removeItem(at: project) }
        let served = try ServedProject(project)
        defer { served.stop() }
        let runs = try await served.get("/runs")
        #expect(runs.status == 200)
        let runPage = try await served.get("/runs/latest")
        #expect(runPage.status == 200)
        #expect(runPage.text.contains("data-name=\"busy-parent\"") && runPage.text.contains("data-name=\"minimal-record\""))
        let attention = try await served.get("/runs/latest?filter=attention").text
        #expect(attention.contains("busy-parent") && attention.contains(">program-draft</a>"))
        let step = try await served.get("/runs/latest/step?fixture=busy-parent&step=program-draft")
        #expect(step.status == 200)
        #expect(step.text.contains("Dumbbell chair squat"))
        #expect(step.text.contains(Self.stepPath(Self.draft).replacingOccurrences(of: "&", with: "&amp;")))
        let compare = try await served.get("/compare")
        #expect(compare.status == 200)
        #expect(compare.text.contains("class=\"comparison\""))
        #expect(compare.text.contains("Paired verdict") || compare.text.contains("paired verdict"), "\(compare.text.prefix(3000))")
        let home = try await served.get("/")
        #expect(home.text.contains("base</a>: 2 pending"))
    }

    /// The agreement replays the track once, and again only when a file it reads changed.
    @Test func theAgreementIsMeasuredAgainOnlyWhenWhatItReadsChanged() async throws {
        let project = try GoldenCommandTests.makeProjectWithPendingOutputs()
        defer { try? FileManager.default.removeItem(at: project) }
        let served = try ServedProject(project)
        defer { served.stop() }
        let first = try await served.get("/agreement")
        #expect(first.status == 200)
        #expect(first.text.contains("Measured now"), "\(first.text)")
        #expect(try await served.get("/agreement").text.contains("As measured earlier"))
        let label = try CommandRunner.run([
            "label", "--project", project.path, "busy-parent", "goal-options", "sign", "--reviewer", "B. Coach",
        ])
        #expect(label.status == 0, "\(label.standardError)")
        let after = try await served.get("/agreement").text
        #expect(after.contains("Measured now"))
        #expect(after.contains("Checks against reviewers"))
    }
}
