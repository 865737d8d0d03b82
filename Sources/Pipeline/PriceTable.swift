import Foundation
import Intake
import JSONSchema
import Providers

/// Prices per model in US dollars per million tokens, from `prompts/prices.yaml`.
public struct PriceTable: Sendable, Hashable {
    public struct Price: Sendable, Hashable {
        public var input: Double
        public var output: Double
    }

    public var prices: [String: Price]

    public init(prices: [String: Price] = [:]) {
        self.prices = prices
    }

    /// What `usage` cost on `model`, or nil when the table does not list the model.
    public func cost(model: String, usage: TokenUsage) -> Double? {
        guard let price = prices[model] else { return nil }
        return (Double(usage.input) * price.input + Double(usage.output) * price.output) / 1_000_000
    }

    /// Reads the table; a missing file is an empty table.
    public static func load(layout: ProjectLayout) throws(PromptError) -> PriceTable {
        let url = layout.prompts.appendingPathComponent("prices.yaml")
        let file = layout.displayPath(of: url)
        guard let data = FileManager.default.contents(atPath: url.path) else { return PriceTable() }
        let document: YAMLDocument
        do {
            document = try YAMLDocument(text: String(decoding: data, as: UTF8.self))
        } catch {
            throw PromptError(file: file, location: error.location, message: error.reason)
        }
        guard case .object(let models) = document.value else {
            throw PromptError(file: file, message: "expected a mapping of model name to {input, output} prices")
        }
        var prices: [String: Price] = [:]
        for member in models {
            guard let input = member.value["input"]?.numberValue, let output = member.value["output"]?.numberValue,
                  input >= 0, output >= 0
            else {
                throw PromptError(
                    file: file, location: document.location(of: JSONPointer(tokens: [member.key])),
                    message: "`\(member.key)` needs `input` and `output` prices (US dollars per million tokens, 0 or more)")
            }
            prices[member.key] = Price(input: input, output: output)
        }
        return PriceTable(prices: prices)
    }
}
