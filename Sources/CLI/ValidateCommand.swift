import ArgumentParser
import Console
import Foundation
import JSONSchema

/// `trainer-eval validate --schema FILE [INSTANCE...]`: validates JSON files
/// (listed, found in folders, or named on standard input) against a JSON
/// Schema (draft 2020-12), on every core, reporting in input order.
///
/// Exit status: 0 when every instance is valid, 1 when any is invalid, 2 when
/// the schema or an instance cannot be read or parsed, or the schema is invalid.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Validate JSON documents against a JSON Schema (draft 2020-12).",
        discussion: """
            Instances are validated side by side on every core; reports come out in input order. \
            A folder stands for every *.json file below it, at any depth, in name order. \
            With -, each line of standard input is a path (or a folder); blank lines are skipped, \
            so `find runs -name '*.json' | trainer-eval validate --schema s.json -` works.

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
        "Instance files to validate; a folder means every *.json file below it; - reads newline-separated paths from standard input.",
        valueName: "instance"))
    var instances: [String] = []

    /// For `validate`, removes the instance paths from `arguments` and returns them, in
    /// order; nil (and `arguments` untouched) for any other command. Options keep
    /// their values (`--schema s.json`, `--format=json`); after `--` every argument is a path.
    static func takingInstances(from arguments: inout [String]) -> [String]? {
        guard arguments.first == _commandName else { return nil }
        let takesValue: Set<String> = ["--schema", "--format"]
        var kept = [arguments[0]]
        var instances: [String] = []
        var index = 1
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                if !optionsEnded || argument != "--" { instances.append(argument) }
            } else if argument == "--" {
                optionsEnded = true
            } else {
                kept.append(argument)
                if takesValue.contains(argument), index + 1 < arguments.count {
                    index += 1
                    kept.append(arguments[index])
                }
            }
            index += 1
        }
        arguments = kept
        return instances
    }

    func run() throws {
        guard !instances.isEmpty else {
            Terminal.standardError.writeLine(
                "error: give at least one instance file or folder to validate, or - to read their paths from standard input")
            throw ExitCode.badInput
        }
        let batch: ValidationBatch
        do {
            batch = try ValidationBatch(schemaFile: schema, options: ValidationOptions(assertsFormat: assertFormat))
        } catch {
            var message = "error: \(error)"
            if case .unreadable = error.problem { message += "; check the path given to --schema" }
            Terminal.standardError.writeLine(message)
            throw ExitCode.badInput
        }
        let format = format
        let summary = batch.run(InstancePaths(instances), line: { InstanceReport($0).rendered(format) })
        if summary.total == 0 {
            Terminal.standardError.writeLine(
                "error: no instance files to validate: the folders given hold no *.json files, or standard input listed no paths")
            throw ExitCode.badInput
        }
        if summary.exitStatus != 0 { throw ExitCode(summary.exitStatus) }
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}

extension ValidationReportFormat: ExpressibleByArgument {}
