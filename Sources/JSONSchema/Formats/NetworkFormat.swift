/// Email addresses (RFC 5321 mailbox), hostnames (RFC 1123) and IP addresses.
enum NetworkFormat {
    private static let atext = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+/=?^_`{|}~-".utf8)

    static func isEmail(_ bytes: [UInt8]) -> Bool {
        guard let at = bytes.lastIndex(of: UInt8(ascii: "@")), at > 0, at < bytes.count - 1 else { return false }
        let local = bytes[..<at], domain = bytes[(at + 1)...]
        return isLocalPart(local) && isMailDomain(domain)
    }

    private static func isLocalPart(_ local: ArraySlice<UInt8>) -> Bool {
        if local.first == UInt8(ascii: "\"") {
            guard local.count >= 2, local.last == UInt8(ascii: "\"") else { return false }
            var index = local.startIndex + 1
            while index < local.endIndex - 1 {
                let byte = local[index]
                if byte == UInt8(ascii: "\\") {
                    index += 2
                    continue
                }
                guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\"") else { return false }
                index += 1
            }
            return index == local.endIndex - 1
        }
        let atoms = local.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return atoms.allSatisfy { !$0.isEmpty && $0.allSatisfy(atext.contains) }
    }

    private static func isMailDomain(_ domain: ArraySlice<UInt8>) -> Bool {
        if domain.first == UInt8(ascii: "[") {
            guard domain.last == UInt8(ascii: "]") else { return false }
            let inner = domain.dropFirst().dropLast()
            let prefix = Array("IPv6:".utf8)
            if inner.starts(with: prefix) { return isIPv6(inner.dropFirst(prefix.count)) }
            return isIPv4(inner)
        }
        return isHostname(domain)
    }

    static func isHostname(_ bytes: ArraySlice<UInt8>) -> Bool {
        var name = bytes
        if name.last == UInt8(ascii: ".") { name = name.dropLast() }
        guard !name.isEmpty, name.count <= 253 else { return false }
        for label in name.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            guard (1...63).contains(label.count), label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-"),
                  label.allSatisfy({ isASCIIDigit($0) || isLetter($0) || $0 == UInt8(ascii: "-") })
            else { return false }
        }
        return true
    }

    static func isIPv4(_ bytes: ArraySlice<UInt8>) -> Bool {
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(isASCIIDigit) else { return false }
            if part.count > 1 && part.first == UInt8(ascii: "0") { return false }
            let value = part.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            guard value <= 255 else { return false }
        }
        return true
    }

    static func isIPv6(_ bytes: ArraySlice<UInt8>) -> Bool {
        let colon = UInt8(ascii: ":")
        var text = Array(bytes)
        var maximumGroups = 8
        if let lastColon = text.lastIndex(of: colon), text[(lastColon + 1)...].contains(UInt8(ascii: ".")) {
            guard isIPv4(text[(lastColon + 1)...]) else { return false }
            text = Array(text[...lastColon])
            if !(text.count >= 2 && text[text.count - 2] == colon) { text.removeLast() }
            maximumGroups = 6
        } else if text.contains(UInt8(ascii: ".")) {
            return false
        }
        func groups(_ part: ArraySlice<UInt8>) -> Int? {
            if part.isEmpty { return 0 }
            var count = 0
            for group in part.split(separator: colon, omittingEmptySubsequences: false) {
                guard (1...4).contains(group.count), group.allSatisfy({ URIReference.hexValue($0) != nil }) else { return nil }
                count += 1
            }
            return count
        }
        var doubleColon: Int?
        for index in text.indices.dropLast() where text[index] == colon && text[index + 1] == colon {
            guard doubleColon == nil else { return false }
            doubleColon = index
        }
        guard let split = doubleColon else {
            return groups(text[...]) == maximumGroups
        }
        guard let left = groups(text[..<split]), let right = groups(text[(split + 2)...]) else { return false }
        return left + right < maximumGroups
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
}
