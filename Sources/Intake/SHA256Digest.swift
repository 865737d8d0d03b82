import Crypto
import Foundation

/// Hex SHA-256 digests.
public enum SHA256Digest {
    public static func hex(of text: String) -> String {
        hex(of: Data(text.utf8))
    }

    public static func hex(of data: Data) -> String {
        hex(of: SHA256.hash(data: data))
    }

    /// The digest of the file's bytes; nil when it is missing or unreadable.
    public static func hex(ofFile path: String) -> String? {
        FileBytes.read(path).map(hex(of:))
    }

    public static func hex(of bytes: [UInt8]) -> String {
        hex(of: SHA256.hash(data: bytes))
    }

    public static func hex(of digest: SHA256.Digest) -> String {
        lowercaseHex(digest)
    }

    /// Any bytes as lowercase hexadecimal, two digits a byte.
    public static func lowercaseHex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
