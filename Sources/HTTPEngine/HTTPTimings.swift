/// How long each phase of a transfer took, measured by libcurl from the start of the transfer.
///
/// Each value is cumulative (libcurl's `*_TIME_T` counters, in microseconds): `tlsHandshakeDone` includes DNS and
/// TCP connect time. A reused connection reports zero for the phases it skipped.
public struct HTTPTimings: Sendable, Hashable {
    /// When name resolution finished (`CURLINFO_NAMELOOKUP_TIME_T`).
    public var nameLookup: Duration
    /// When the TCP connection was established (`CURLINFO_CONNECT_TIME_T`).
    public var connect: Duration
    /// When the TLS handshake finished (`CURLINFO_APPCONNECT_TIME_T`).
    public var tlsHandshakeDone: Duration
    /// When the first response byte arrived (`CURLINFO_STARTTRANSFER_TIME_T`).
    public var firstByte: Duration
    /// When the transfer finished (`CURLINFO_TOTAL_TIME_T`).
    public var total: Duration

    /// Creates timings; all zero by default.
    public init(
        nameLookup: Duration = .zero,
        connect: Duration = .zero,
        tlsHandshakeDone: Duration = .zero,
        firstByte: Duration = .zero,
        total: Duration = .zero
    ) {
        self.nameLookup = nameLookup
        self.connect = connect
        self.tlsHandshakeDone = tlsHandshakeDone
        self.firstByte = firstByte
        self.total = total
    }
}

extension Duration {
    /// This duration in seconds, for metrics and JSON output.
    public var inSeconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
