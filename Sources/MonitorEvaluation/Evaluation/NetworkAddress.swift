import Foundation

/// Classifies the connected address: Apple's CDN refuses origins on private or reserved addresses (`SWCERR00202`).
enum NetworkAddress {
    /// True for loopback, private (RFC 1918, ULA), link-local, CGNAT, unspecified, documentation, benchmarking,
    /// multicast and reserved ranges — anything Apple's fetcher on the public internet cannot or will not reach.
    static func isPrivateOrReserved(_ text: String) -> Bool {
        if let octets = ipv4(text) { return isReservedIPv4(octets) }
        if let groups = ipv6(text) { return isReservedIPv6(groups) }
        return false
    }

    private static func isReservedIPv4(_ o: [UInt8]) -> Bool {
        switch (o[0], o[1]) {
        case (0, _), (10, _), (127, _), (169, 254), (192, 168), (255, _): return true
        case (172, 16...31), (100, 64...127), (198, 18...19): return true
        case (192, 0) where o[2] == 0 || o[2] == 2: return true
        case (198, 51) where o[2] == 100: return true
        case (203, 0) where o[2] == 113: return true
        default: return o[0] >= 224
        }
    }

    private static func isReservedIPv6(_ g: [UInt16]) -> Bool {
        if g.allSatisfy({ $0 == 0 }) { return true }  // ::
        if g[0..<7].allSatisfy({ $0 == 0 }) && g[7] == 1 { return true }  // ::1
        if g[0..<5].allSatisfy({ $0 == 0 }) && g[5] == 0xFFFF {  // ::ffff:a.b.c.d
            return isReservedIPv4([UInt8(g[6] >> 8), UInt8(g[6] & 0xFF), UInt8(g[7] >> 8), UInt8(g[7] & 0xFF)])
        }
        if g[0] & 0xFE00 == 0xFC00 { return true }  // fc00::/7 unique local
        if g[0] & 0xFFC0 == 0xFE80 { return true }  // fe80::/10 link-local
        if g[0] & 0xFF00 == 0xFF00 { return true }  // multicast
        if g[0] == 0x2001 && g[1] == 0x0DB8 { return true }  // documentation
        return false
    }

    private static func ipv4(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var octets: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, let value = UInt8(part) else { return nil }
            octets.append(value)
        }
        return octets
    }

    private static func ipv6(_ raw: String) -> [UInt16]? {
        var text = Substring(raw)
        if let zone = text.firstIndex(of: "%") { text = text[..<zone] }
        guard text.contains(":") else { return nil }
        var tail: [UInt16] = []
        if let lastColon = text.lastIndex(of: ":"), text[text.index(after: lastColon)...].contains("."),
            let v4 = ipv4(String(text[text.index(after: lastColon)...]))
        {
            tail = [UInt16(v4[0]) << 8 | UInt16(v4[1]), UInt16(v4[2]) << 8 | UInt16(v4[3])]
            text = text[...lastColon]
            if text.hasSuffix(":") && !text.hasSuffix("::") { text = text.dropLast() }
        }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt16]? {
            if part.isEmpty { return [] }
            var result: [UInt16] = []
            for piece in part.split(separator: ":", omittingEmptySubsequences: false) {
                guard !piece.isEmpty, piece.count <= 4, let value = UInt16(piece, radix: 16) else { return nil }
                result.append(value)
            }
            return result
        }
        guard let head = groups(halves[0]) else { return nil }
        if halves.count == 1 {
            let all = head + tail
            return all.count == 8 ? all : nil
        }
        guard let rest = groups(halves[1]) else { return nil }
        let known = head.count + rest.count + tail.count
        guard known < 8 else { return nil }
        return head + Array(repeating: 0, count: 8 - known) + rest + tail
    }
}
