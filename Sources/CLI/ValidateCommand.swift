import ArgumentParser
import Console
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

    func run() throws {
        let status = ValidationSession().run(
            schemaFile: schema, instances: instances, format: format, options: ValidationOptions(assertsFormat: assertFormat))
        if status != .passed { throw ExitCode(status.rawValue) }
    }
}

extension ValidationReportFormat: ExpressibleByArgument {}
