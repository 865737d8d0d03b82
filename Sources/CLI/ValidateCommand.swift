import ArgumentParser
import Foundation
import JSONSchema

extension ValidationReportFormat: ExpressibleByArgument {}

/// `trainer-eval validate --schema FILE [INSTANCE...]`: validates JSON
/// documents against a JSON Schema (draft 2020-12).
///
/// Exit status: 0 when every instance is valid, 1 when any is invalid, 2 when
/// the schema or an instance cannot be read or parsed, or the schema is invalid.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Validate JSON documents against a JSON Schema (draft 2020-12).",
        discussion: """
            Exit status: 0 when every instance is valid, 1 when any is invalid, 2 when the \
            schema is invalid or an instance cannot be read or parsed.
            """)

    @Option(name: .long, help: ArgumentHelp("The JSON Schema file.", valueName: "file"))
    var schema: String

    @Option(name: .long, help: "Output format: text (readable) or json (one JSON object per line per instance).")
    var format: ValidationReportFormat = .text

    @Flag(name: .long, help: "Treat `format` (date, date-time, email, uuid, uri, ipv4, ...) as an assertion, not an annotation.")
    var assertFormat = false

    @Argument(help: ArgumentHelp(
        "Instance files to validate; a folder means every *.json file in it; - reads standard input.",
        valueName: "instance"))
    var instances: [String] = []

    func run() throws {
        guard !instances.isEmpty else {
            Self.printError("error: give at least one instance file to validate, or - for standard input")
            throw ExitCode(2)
        }
        let compiled: Schema
        do {
            let text = String(decoding: try Self.read(schema), as: UTF8.self)
            let base = URL(fileURLWithPath: schema).standardizedFileURL.absoluteString
            compiled = try Schema(jsonText: text, baseURI: base, options: ValidationOptions(assertsFormat: assertFormat))
        } catch let error as JSONParseError {
            Self.printError("error: schema \(schema) is not valid JSON: \(error)")
            throw ExitCode(2)
        } catch let error as SchemaError {
            Self.printError("error: schema \(schema) is not a valid JSON Schema: \(error)")
            throw ExitCode(2)
        } catch {
            Self.printError("error: cannot read schema \(schema): \(error.localizedDescription)")
            throw ExitCode(2)
        }

        var output = OutputBuffer()
        var reports: [InstanceReport] = []
        reports.reserveCapacity(instances.count)
        for path in Self.expandingFolders(instances) {
            let report: InstanceReport
            do {
                report = InstanceReport(path: path, bytes: try Self.read(path), schema: compiled)
            } catch {
                report = InstanceReport(path: path, outcome: .unreadable(error.localizedDescription))
            }
            output.append(report.rendered(format))
            reports.append(report)
        }
        output.flush()
        let status = InstanceReport.exitStatus(reports)
        if status != 0 { throw ExitCode(status) }
    }

    /// Each folder replaced by its `*.json` files, sorted (thousands of files
    /// are quicker to pass as a folder than as separate arguments).
    static func expandingFolders(_ paths: [String]) -> [String] {
        paths.flatMap { path -> [String] in
            var isDirectory: ObjCBool = false
            guard path != "-", FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
                  let names = try? FileManager.default.contentsOfDirectory(atPath: path)
            else { return [path] }
            let folder = path.hasSuffix("/") ? path : path + "/"
            return names.filter { $0.hasSuffix(".json") }.sorted().map { folder + $0 }
        }
    }

    private static func read(_ path: String) throws -> [UInt8] {
        if path == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
        guard FileManager.default.fileExists(atPath: path) else { throw ReadError(reason: "no such file") }
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    private struct ReadError: LocalizedError {
        let reason: String
        var errorDescription: String? { reason }
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}

/// Collects output lines and writes them to standard output in large chunks.
private struct OutputBuffer {
    private var pending = ""

    mutating func append(_ line: String) {
        pending += line
        pending += "\n"
        if pending.utf8.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        guard !pending.isEmpty else { return }
        FileHandle.standardOutput.write(Data(pending.utf8))
        pending = ""
    }
}
