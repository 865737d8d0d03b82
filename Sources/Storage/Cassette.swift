import Crypto
import Foundation
import Intake
import JSONSchema
import Providers

/// The recorded calls of one fixture step: each request as sent (readable) beside
/// the response received. Stored as `golden/<fixture>/<step>.cassette.json`.
public struct Cassette: Codable, Hashable, Sendable {
    public static let formatVersion = 1

    public var formatVersion: Int
    public var fixture: String
    public var step: String
    /// The fixture step the cassette belongs to.
    public var key: StepKey { StepKey(fixture: fixture, step: step) }
    public var provider: String
    public var model: String
    public var recordedAt: Date
    /// Hashes of what the request was built from (template, record, scenario, upstream
    /// outputs), so a replay miss can say which of them changed.
    public var provenance: [String: String]
    /// In call order: the first attempt, then any repairs.
    public var interactions: [Interaction]

    public struct Interaction: Codable, Hashable, Sendable {
        /// `RecordedRequest.key`: what replay looks requests up by.
        public var key: String
        public var request: RecordedRequest
        public var response: RecordedResponse
        /// The repeat of `run --repeat N` that made this call, 1...N. Written only
        /// above 1, so recordings made without repeats read and write as they always have.
        public var repeatNumber: Int

        public init(key: String, request: RecordedRequest, response: RecordedResponse, repeatNumber: Int = 1) {
            self.key = key
            self.request = request
            self.response = response
            self.repeatNumber = repeatNumber
        }

        private enum CodingKeys: String, CodingKey {
            case key, request, response
            case repeatNumber = "repeat"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            key = try container.decode(String.self, forKey: .key)
            request = try container.decode(RecordedRequest.self, forKey: .request)
            response = try container.decode(RecordedResponse.self, forKey: .response)
            repeatNumber = try container.decodeIfPresent(Int.self, forKey: .repeatNumber) ?? 1
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(key, forKey: .key)
            try container.encode(request, forKey: .request)
            try container.encode(response, forKey: .response)
            if repeatNumber != 1 { try container.encode(repeatNumber, forKey: .repeatNumber) }
        }
    }

    /// The repeats this cassette holds a recording of, in order.
    public var recordedRepeats: [Int] { Set(interactions.map(\.repeatNumber)).sorted() }

    public init(
        fixture: String, step: String, provider: String, model: String, recordedAt: Date,
        provenance: [String: String] = [:], interactions: [Interaction]
    ) {
        formatVersion = Self.formatVersion
        self.provenance = provenance
        self.fixture = fixture
        self.step = step
        self.provider = provider
        self.model = model
        self.recordedAt = recordedAt
        self.interactions = interactions
    }
}

/// A request as recorded: everything that determines the model's answer.
/// The schema itself is stored by hash; it lives in `prompts/schemas/`.
public struct RecordedRequest: Codable, Hashable, Sendable {
    public var provider: String
    public var model: String
    public var system: String
    public var messages: [ChatMessage]
    public var schemaName: String
    /// SHA-256 of the schema's canonical JSON, or nil when the call had no schema.
    public var schemaSHA256: String?
    public var temperature: Double
    public var maxTokens: Int
    public var seed: Int?
    /// True when the reply was asked for as minified JSON; absent otherwise, so the
    /// keys of requests without it are what they always were.
    public var compactJSON: Bool?

    public init(_ request: CompletionRequest, provider: String, model: String) {
        self.provider = provider
        self.model = model
        system = request.system
        messages = request.messages
        schemaName = request.schemaName
        schemaSHA256 = request.responseSchema.map(SchemaDigests.shared.digest)
        temperature = request.temperature
        maxTokens = request.maxTokens
        seed = request.seed
        compactJSON = request.compactJSON ? true : nil
    }

    /// The content address: SHA-256 of this request's canonical JSON (keys sorted,
    /// no whitespace, absent optionals left out), byte for byte what `JSONEncoder`
    /// writes for it with sorted keys, which is how the first recordings were keyed.
    public var key: String {
        SHA256Digest.hex(of: canonicalJSON.serializedBytes(Self.keyFormat))
    }

    static let keyFormat = JSONWriteOptions(sortedKeys: true, escapesDelete: false)

    /// The request as JSON, member for member what its `Codable` form writes.
    var canonicalJSON: JSONValue {
        var object = JSONObject()
        object["provider"] = .string(provider)
        object["model"] = .string(model)
        object["system"] = .string(system)
        object["messages"] = .array(messages.map { .object(JSONObject([.init(key: "role", value: .string($0.role.rawValue)), .init(key: "content", value: .string($0.content))])) })
        object["schemaName"] = .string(schemaName)
        object["schemaSHA256"] = schemaSHA256.map(JSONValue.string)
        object["temperature"] = .number(temperature)
        object["maxTokens"] = .number(Double(maxTokens))
        object["seed"] = seed.map { .number(Double($0)) }
        object["compactJSON"] = compactJSON.map(JSONValue.bool)
        return .object(object)
    }
}

/// A response as recorded; the raw body is kept for inspection.
public struct RecordedResponse: Codable, Hashable, Sendable {
    public var text: String
    public var finishReason: String?
    public var usage: TokenUsage
    public var latency: Double
    public var model: String?
    public var rawBody: JSONValue?

    public init(_ response: CompletionResponse) {
        text = response.text
        finishReason = response.finishReason
        usage = response.usage
        latency = response.latency
        model = response.model
        rawBody = response.rawBody
    }

    public var completionResponse: CompletionResponse {
        CompletionResponse(text: text, finishReason: finishReason, usage: usage, latency: latency, model: model, rawBody: rawBody)
    }
}

/// SHA-256 digests of response schemas, remembered: a run sends the same four
/// schemas thousands of times, and serializing one costs more than hashing it.
/// Looked up by equality, not hashing: the schemas a run sends share their
/// storage, so comparing them is quick where hashing would read every string.
final class SchemaDigests: @unchecked Sendable {
    static let shared = SchemaDigests()
    private let lock = NSLock()
    private var known: [(schema: JSONValue, digest: String)] = []

    func digest(_ schema: JSONValue) -> String {
        if let hit = lock.withLock({ known.first { $0.schema == schema } }) { return hit.digest }
        let digest = SHA256Digest.hex(of: schema.serializedBytes(.canonical))
        lock.withLock {
            // A long-lived process that keeps editing schemas keeps only the latest few.
            if known.count >= 64 { known.removeFirst() }
            known.append((schema, digest))
        }
        return digest
    }
}
