import Intake
import JSONSchema

/// Fingerprints of what a step's request is built from, recorded with cassettes so
/// a replay miss can name the part that changed: template, system prompt, schema,
/// fixture record, scenario feedback, or an upstream step's output.
enum Provenance {
    static func of(step: PipelineStep, prompt: StepPrompt, input: StepInput) -> [String: String] {
        var parts = [
            "prompt template (\(prompt.sourceFiles.template))": prompt.partFingerprints.template,
            "system prompt (\(prompt.sourceFiles.system))": prompt.partFingerprints.system,
            "schema (\(prompt.sourceFiles.schema))": prompt.partFingerprints.schema,
            "fixture record (fixtures/\(input.fixture.name).json)": input.fixtureData.recordFingerprint,
        ]
        if let feedback = input.feedback {
            parts["scenario feedback (fixtures/\(input.fixture.name).yaml)"] = Fingerprint.of((input.earlierFeedback + [feedback]).joined(separator: "\u{0}"))
        }
        let upstream = [input.currentOptions, input.confirmedGoal, input.currentProgram].compactMap { $0?.serializedBytes(.canonical) }
        if !upstream.isEmpty { parts["upstream step output"] = Fingerprint.of(bytes: upstream.joined(separator: [0])) }
        return parts
    }

}

/// Short, stable fingerprints of text: a 64-bit FNV-1a of the UTF-8 bytes as 16
/// hex digits, the same on every run and machine. For noticing change, not for
/// security.
public enum Fingerprint {
    public static func of(_ text: String) -> String {
        var text = text
        return text.withUTF8 { of(bytes: $0) }
    }

    public static func of<Bytes: Sequence<UInt8>>(bytes: Bytes) -> String {
        let hash = bytes.withContiguousStorageIfAvailable(fnv1a) ?? fnv1a(Array(bytes))
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Over a buffer, not a generic sequence: an output's few kilobytes hash in
    /// microseconds instead of paying an iterator call per byte.
    private static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBufferPointer(fnv1a)
    }

    private static func fnv1a(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
