import Golden
import JSONSchema

/// `validate`: JSON files against one schema, on every core, each instance's report in
/// input order, and the exit status the batch earns.
public struct ValidationSession {
    let err: Terminal

    public init(err: Terminal = .standardError) {
        self.err = err
    }

    /// 0 when every instance is valid, 1 when any is invalid, 2 when the schema is unusable,
    /// an instance cannot be read or parsed, or there is nothing to validate.
    public func run(
        schemaFile: String, instances: [String], format: ValidationReportFormat, options: ValidationOptions
    ) -> Gate.ExitStatus {
        guard !instances.isEmpty else {
            err.writeLine("error: give at least one instance file or folder to validate, or - to read their paths from standard input")
            return .badInput
        }
        let batch: ValidationBatch
        do {
            batch = try ValidationBatch(schemaFile: schemaFile, options: options)
        } catch {
            var message = "error: \(error)"
            if case .unreadable = error.problem { message += "; check the path given to --schema" }
            err.writeLine(message)
            return .badInput
        }
        let summary = batch.run(InstancePaths(instances), line: { InstanceReport($0).rendered(format) })
        guard summary.total > 0 else {
            err.writeLine("error: no instance files to validate: the folders given hold no *.json files, or standard input listed no paths")
            return .badInput
        }
        return summary.exitStatus
    }

    /// `validate`'s instance paths taken out of its arguments, in order, leaving the options
    /// (`--schema s.json`, `--format=json`); after `--` every argument is a path. Nil, with
    /// `arguments` untouched, when they are not `validate`'s. Argument-parser matches
    /// positional arguments in time that grows with the square of their count, and a
    /// shell glob can pass thousands.
    public static func takingInstances(from arguments: inout [String], command: String = "validate") -> [String]? {
        guard arguments.first == command else { return nil }
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
}

extension BatchSummary {
    /// The exit status of `trainer-eval validate`: 0 when every instance is valid,
    /// 2 when any could not be read or parsed, otherwise 1.
    public var exitStatus: Gate.ExitStatus {
        Gate.exitStatus(passes: invalid == 0, badInput: badInput > 0)
    }
}
