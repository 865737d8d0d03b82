import Foundation

/// The fields of a query string or an `application/x-www-form-urlencoded` body, in
/// order; a name may repeat (a label's reasons).
public struct FormFields: Sendable {
    public private(set) var pairs: [(name: String, value: String)]

    public init(_ encoded: String?) {
        pairs = (encoded ?? "").split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), !name.isEmpty else { return nil }
            return (name, parts.count > 1 ? Self.decode(parts[1]) ?? "" : "")
        }
    }

    /// The first value of `name`, nil when absent.
    public subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// Every value of `name`, in order.
    public func all(_ name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// `text` made safe for a query string's value.
    public static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// `name=value&…`, each encoded; nil values are left out.
    public static func query(_ fields: [(String, String?)]) -> String {
        fields.compactMap { name, value in value.map { "\(name)=\(encode($0))" } }.joined(separator: "&")
    }

    private static let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
}
