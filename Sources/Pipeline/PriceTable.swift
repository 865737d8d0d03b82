import Foundation
import Intake
import JSONSchema
import Providers

/// Prices per model in US dollars per million tokens, from `prompts/prices.yaml`.
public struct PriceTable: Sendable, Hashable {
    public typealias Price = TokenPrice

    public var prices: [String: Price]

    public init(prices: [String: Price] = [:]) {
        self.prices = prices
    }

    /// What `usage` cost on `model` in US dollars, or nil when the table does not list the
    /// model (an unknown cost, never 0). Thinking tokens are part of `usage.output`.
    public func cost(model: String, usage: TokenUsage) -> Double? {
        prices[model]?.cost(of: usage)
    }

    /// `prompts/prices.yaml`.
    public static func file(in layout: ProjectLayout) -> URL {
        layout.prompts.appendingPathComponent("prices.yaml")
    }

    /// A cap of `dollars` on the spending of `model`, priced from this table; a model
    /// the table does not list cannot be capped, and the error names `file` to add it to.
    public func costCap(dollars: Double, model: String, file: String) throws(UnpricedModelError) -> CostCap {
        guard let price = prices[model] else { throw UnpricedModelError(model: model, file: file) }
        return CostCap(dollars: dollars, inputPerMillion: price.input, outputPerMillion: price.output)
    }

    /// Reads the table; a missing or empty file is an empty table. A malformed entry is
    /// an error naming the file, the line, the model and the field to fix.
    public static func load(layout: ProjectLayout) throws(PromptError) -> PriceTable {
        let url = file(in: layout)
        let file = layout.displayPath(of: url)
        guard let data = FileManager.default.contents(atPath: url.path) else { return PriceTable() }
        let document: YAMLDocument
        do {
            document = try YAMLDocument(text: String(decoding: data, as: UTF8.self))
        } catch {
            throw PromptError(file: file, location: error.location, message: error.reason)
        }
        let models: JSONObject
        switch document.value {
        case .null: return PriceTable()
        case .object(let object): models = object
        default:
            throw PromptError(
                file: file, location: document.location(of: .root),
                message: "expected a mapping of model name to {input: N, output: N} (US dollars per million tokens)")
        }
        var prices: [String: Price] = [:]
        for member in models {
            let model = JSONPointer(tokens: [member.key])
            guard case .object(let fields) = member.value else {
                throw PromptError(
                    file: file, location: document.location(of: model),
                    message: "`\(member.key)` must be a mapping {input: N, output: N} of US dollars per million tokens")
            }
            func price(_ field: String) throws(PromptError) -> Double {
                guard let value = fields[field] else {
                    throw PromptError(
                        file: file, location: document.keyLocation(of: model),
                        message: "`\(member.key)` has no `\(field)` price; add `\(field): N` (US dollars per million tokens, 0 or more)")
                }
                guard let number = value.numberValue, number >= 0 else {
                    throw PromptError(
                        file: file, location: document.location(of: model.appending(field)),
                        message: "`\(member.key)`: `\(field)` is \(value.serialized()); it must be a number of US dollars per million tokens, 0 or more")
                }
                return number
            }
            prices[member.key] = Price(input: try price("input"), output: try price("output"))
        }
        return PriceTable(prices: prices)
    }
}

/// A cost cap asked for on a model the price table does not list.
public struct UnpricedModelError: Error, Hashable, CustomStringConvertible {
    public var model: String
    public var file: String

    public var description: String {
        "--max-cost: \(file) has no price for the model `\(model)`, so the run's cost cannot be counted; "
            + "add `\(model): {input: N, output: N}` (US dollars per million tokens) to \(file), or drop --max-cost."
    }
}
