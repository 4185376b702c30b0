internal import CIDN2

/// Domain names as Apple's CDN keys them: lower-case A-labels (Punycode), a wildcard entry checked at its base.
///
/// libidn2 does the IDNA work (UTS #46, non-transitional, as browsers and libcurl do): hand-written Punycode would
/// get the mapping and validity rules subtly wrong, and libidn2 is already linked by libcurl.
public enum DomainName {
    /// The normalized form of `raw`: trimmed, a trailing dot removed, `*.` removed (Apple reads a wildcard
    /// entry's file at the base domain), lower-cased and converted to its A-label.
    public static func normalize(_ raw: String) throws(DomainNameError) -> String {
        isNormal(raw) ? raw : try normalizeFully(raw)
    }

    /// `normalize` without the shortcut for a name already normal.
    static func normalizeFully(_ raw: String) throws(DomainNameError) -> String {
        var name = raw.trimmingASCIIWhitespace()
        if name.hasPrefix("*.") { name.removeFirst(2) }
        if name.hasSuffix(".") { name.removeLast() }
        guard !name.isEmpty else { throw DomainNameError(input: raw, reason: "the name is empty") }
        if let bad = name.unicodeScalars.first(where: { $0 == "/" || $0 == ":" || $0 == "@" || $0 == " " || $0 == "?" })
        {
            throw DomainNameError(
                input: raw,
                reason: "'\(bad)' is not allowed in a domain name; give the bare host, e.g. example.com")
        }
        let ascii = try toASCII(name, original: raw)
        let lowered = ascii.lowercased()
        guard lowered.utf8.count <= 253 else {
            throw DomainNameError(input: raw, reason: "the name is longer than 253 characters")
        }
        for label in lowered.split(separator: ".", omittingEmptySubsequences: false) {
            guard !label.isEmpty else { throw DomainNameError(input: raw, reason: "the name has an empty label") }
            guard label.utf8.count <= 63 else {
                throw DomainNameError(input: raw, reason: "the label '\(label)' is longer than 63 characters")
            }
            guard label.utf8.allSatisfy(isHostCharacter) else {
                throw DomainNameError(input: raw, reason: "the label '\(label)' holds a character hosts cannot have")
            }
            guard label.first != "-", label.last != "-" else {
                throw DomainNameError(input: raw, reason: "the label '\(label)' starts or ends with a hyphen")
            }
        }
        return lowered
    }

    /// Whether `raw` is already what `normalize` makes of it: lower-case host characters in dot-separated labels
    /// of 1 to 63, none starting or ending with a hyphen, 253 at most. One pass over the bytes: most configured
    /// names are written so, and the full path was 19% of `status` at 100,000 domains.
    static func isNormal(_ raw: String) -> Bool {
        var length = 0
        var label = 0
        var previous: UInt8 = 0x2E
        for byte in raw.utf8 {
            length += 1
            if byte == 0x2E {
                guard label > 0, previous != 0x2D else { return false }
                label = 0
            } else {
                guard isHostCharacter(byte), label > 0 || byte != 0x2D else { return false }
                label += 1
                guard label <= 63 else { return false }
            }
            previous = byte
        }
        return label > 0 && previous != 0x2D && length <= 253
    }

    private static func isHostCharacter(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x5F
    }

    private static func toASCII(_ name: String, original: String) throws(DomainNameError) -> String {
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return name }
        var output: UnsafeMutablePointer<UInt8>?
        let flags = Int32(IDN2_NFC_INPUT.rawValue | IDN2_NONTRANSITIONAL.rawValue)
        let status = idn2_lookup_u8(name, &output, flags)
        defer { idn2_free(output) }
        guard status == Int32(IDN2_OK.rawValue), let output else {
            let reason = String(cString: idn2_strerror(status))
            throw DomainNameError(input: original, reason: "not a valid internationalized name (\(reason))")
        }
        return String(cString: output)
    }
}

/// A domain name that cannot be checked, with the reason.
public struct DomainNameError: Error, Sendable, Hashable, CustomStringConvertible {
    public var input: String
    public var reason: String

    public var description: String { "invalid domain '\(input)': \(reason)" }
}

extension String {
    fileprivate func trimmingASCIIWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[start...end])
    }
}
