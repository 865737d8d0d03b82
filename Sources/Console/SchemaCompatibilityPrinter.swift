import Evaluation
import Foundation
import Golden
import JSONSchema
import Providers

/// `schema-check`: what each provider's structured-output mode would reject or silently
/// ignore in each schema file.
public struct SchemaCompatibilityPrinter {
    let out: Terminal
    let err: Terminal

    public init(out: Terminal = .standardOutput, err: Terminal = .standardError) {
        (self.out, self.err) = (out, err)
    }

    /// The providers checked when none is named.
    public static let defaultProviders: [ProviderName] = [.local, .openai, .anthropic, .gemini]

    /// 0 when no provider rejects anything (an ignored keyword is a warning), 1 when one
    /// rejects something, 2 when there is no file or a file cannot be read or parsed.
    public func check(_ files: [String], providers: [ProviderName] = defaultProviders) -> Gate.ExitStatus {
        guard !files.isEmpty else {
            err.writeLine("error: give at least one schema file to check")
            return .badInput
        }
        var rejected = false
        for file in files {
            let schema: JSONValue
            do {
                schema = try JSONParser.parse(Data(contentsOf: URL(fileURLWithPath: file)))
            } catch {
                err.writeLine("error: cannot read schema \(file): \(error)")
                return .badInput
            }
            for provider in providers {
                guard let rules = provider.structuredOutputRules else { continue }
                let issues = providerCompatibilityIssues(schema: schema, provider: rules)
                rejected = rejected || issues.contains { $0.severity == .rejected }
                out.writeLine("\(file) [\(provider.rawValue)]: \(issues.isEmpty ? "compatible" : "\(issues.count) issue\(issues.count == 1 ? "" : "s")")")
                for issue in issues { out.writeLine("  \(issue)") }
            }
        }
        return Gate.exitStatus(passes: !rejected)
    }
}
