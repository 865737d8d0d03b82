import Foundation
import Golden

/// `junit.xml`: one test suite per fixture and one test case per step, in the
/// shape Jenkins, GitLab, GitHub Actions reporters and Azure DevOps read
/// (`Reports/schema/junit.xsd` pins it). Regressions and stale recordings are
/// failures, provider errors are errors, skipped steps are skipped; known
/// failures pass, with what fails in `system-out`.
///
/// A failure's `message` is one short line; its details (every reason, the
/// diffs) are in the element's text, once. A replay's test cases take no time:
/// the latencies and tokens of the recordings are in `system-out`, labelled as
/// recorded.
public enum JUnitReport {
    public static func render(_ report: RunReport) -> String {
        let variants = report.run.prompts.compactMapValues(\.variant)
        let suites = report.fixtures.map { fixture in
            (try? fixture.storedText?.junit.read()).map { String(decoding: $0, as: UTF8.self) }
                ?? suite(fixture, recorded: report.run.isReplay, variants: variants)
        }
        let suiteChecks = report.suiteChecks ?? []
        let tests = report.fixtures.reduce(0) { $0 + $1.steps.count } + (report.orphans.isEmpty ? 0 : 1) + suiteChecks.count
        let failures = report.fixtures.flatMap(\.steps).filter { kind(of: $0) == .failure }.count + (report.orphans.isEmpty ? 0 : 1)
        let errors = report.fixtures.flatMap(\.steps).filter { kind(of: $0) == .error }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let variantNames = variants.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let name = "trainer-eval" + (variantNames.isEmpty ? "" : " variant " + variantNames.joined(separator: " "))
        xml += "<testsuites name=\"\(attribute(name))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(seconds(report.run.durationSeconds))\">\n"
        xml += suites.joined()
        if !report.orphans.isEmpty {
            xml += "  <testsuite name=\"golden\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\" time=\"0.000\">\n"
            xml += "    <testcase classname=\"golden\" name=\"orphans\" time=\"0.000\">\n"
            xml += "      <failure message=\"\(attribute("\(report.orphans.count) golden entries no fixture produces"))\" type=\"orphan\">\(text(report.orphans.joined(separator: "\n")))</failure>\n"
            xml += "    </testcase>\n  </testsuite>\n"
        }
        if !suiteChecks.isEmpty {
            // Reported, not gated: what a failing one found is in its output, and it passes.
            xml += "  <testsuite name=\"suite\" tests=\"\(suiteChecks.count)\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"0.000\">\n"
            for check in suiteChecks {
                xml += "    <testcase classname=\"suite\" name=\"\(attribute(check.name))\" time=\"0.000\">\n"
                xml += "      <system-out>\(text((check.passed ? "" : "reported, not gated: ") + check.message))</system-out>\n"
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    enum Kind { case pass, failure, error, skipped }

    static func kind(of step: StepReport) -> Kind {
        switch step.status {
        case .matches, .knownFailure, .unapprovedCheck: .pass
        case .regression, .stale, .changed, .new: .failure
        case .error: .error
        case .skipped: .skipped
        }
    }

    /// `variants` maps a step to the variant it ran: a variant's test cases say so, so
    /// a CI tool that keeps test history never mixes them up with the base prompt's.
    public static func suite(_ fixture: FixtureReport, recorded: Bool, variants: [String: String]) -> String {
        let kinds = fixture.steps.map(kind)
        let time = recorded ? 0 : fixture.steps.reduce(0) { $0 + $1.latencySeconds }
        var xml = "  <testsuite name=\"\(attribute(fixture.name))\" tests=\"\(fixture.steps.count)\" failures=\"\(kinds.filter { $0 == .failure }.count)\" errors=\"\(kinds.filter { $0 == .error }.count)\" skipped=\"\(kinds.filter { $0 == .skipped }.count)\" time=\"\(seconds(time))\">\n"
        for step in fixture.steps {
            let variant = step.step.flatMap { variants[$0.rawValue] }.map { " (variant \($0))" } ?? ""
            xml += "    <testcase classname=\"\(attribute(fixture.name))\" name=\"\(attribute(step.id + variant))\" time=\"\(seconds(recorded ? 0 : step.latencySeconds))\">\n"
            let message = attribute(step.summary)
            switch kind(of: step) {
            case .pass:
                break
            case .failure:
                xml += "      <failure message=\"\(message)\" type=\"\(step.status.rawValue)\">\(text(details(step)))</failure>\n"
            case .error:
                xml += "      <error message=\"\(message)\" type=\"\(attribute(step.failure?.kind.description ?? "error"))\">\(text(details(step)))</error>\n"
            case .skipped:
                xml += "      <skipped message=\"\(attribute(ReportText.headline(step.note ?? "skipped")))\"/>\n"
            }
            // A passing step's reasons: its known failures, new checks not approved yet, checks now passing, or how confirm chose.
            var output = kind(of: step) == .pass ? step.reasons : []
            if recorded, let figures = step.figures(recorded: true) { output.append(figures + "; replayed, not measured in this run") }
            if !output.isEmpty { xml += "      <system-out>\(text(output.joined(separator: "\n")))</system-out>\n" }
            xml += "    </testcase>\n"
        }
        return xml + "  </testsuite>\n"
    }

    /// Every reason in full, then the diffs: each detail once.
    private static func details(_ step: StepReport) -> String {
        var parts = step.reasons
        if let diff = step.diff?.output { parts.append("output diff:\n" + diff) }
        if let diff = step.diff?.markdown { parts.append(diff) }
        return parts.joined(separator: "\n")
    }

    /// Seconds with three decimals (`12.345`), as `%.3f` writes them.
    static func seconds(_ value: Double) -> String {
        guard value.isFinite else { return "0.000" }
        let millis = Int((abs(value) * 1000).rounded())
        let fraction = String(millis % 1000)
        return (value < 0 && millis > 0 ? "-" : "") + "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// Escapes for an attribute value; line breaks kept as character references.
    static func attribute(_ value: String) -> String {
        escape(value, inAttribute: true)
    }

    /// Escapes element text and drops the characters XML 1.0 cannot carry at all.
    static func text(_ value: String) -> String {
        escape(value, inAttribute: false)
    }

    private static func escape(_ value: String, inAttribute: Bool) -> String {
        // Most names and messages need nothing escaped.
        let needsWork = value.utf8.contains { byte in
            byte < 0x20 || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
                || byte == UInt8(ascii: "\"") || byte == 0xEF  // 0xEF leads U+FFFE and U+FFFF
        }
        guard needsWork else { return value }
        // Byte by byte: a large run escapes megabytes of messages.
        let bytes = Array(value.utf8)
        var escaped: [UInt8] = []
        escaped.reserveCapacity(bytes.count + 32)
        let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]  // U+FFFD
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "&"): escaped.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): escaped.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): escaped.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\"") where inAttribute: escaped.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "\n") where inAttribute: escaped.append(contentsOf: "&#10;".utf8)
            case UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): escaped.append(byte)
            case 0..<0x20: escaped.append(contentsOf: replacement)
            case 0xEF where index + 2 < bytes.count && bytes[index + 1] == 0xBF && (bytes[index + 2] == 0xBE || bytes[index + 2] == 0xBF):
                // U+FFFE and U+FFFF are not XML characters.
                escaped.append(contentsOf: replacement)
                index += 3
                continue
            default: escaped.append(byte)
            }
            index += 1
        }
        return String(decoding: escaped, as: UTF8.self)
    }
}
