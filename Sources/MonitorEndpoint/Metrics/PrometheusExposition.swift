import NIOCore

/// Writes the Prometheus text exposition format (version 0.0.4) in one pass: `# HELP` and `# TYPE` once per
/// family, then its samples, label values escaped (`\\`, `"`, line feed) as the format requires.
///
/// Hand-written on purpose. swift-prometheus 2.4.1's `PrometheusCollectorRegistry` copies a family's whole
/// dictionary each time it registers a new label set (`MetricFamily.adding`), so registering n domains costs
/// O(n²) however it is done: a fresh registry per scrape took 9.3 s at 4,000 domains, and a registry kept across
/// scrapes would pay the same once, then again for every domain added. This writer is linear in the samples.
///
/// It writes bytes into the buffer the response sends: at 100,000 domains the text is 24 MB, and building a String,
/// copying it into an array and that into the response's buffer held three copies at once (the daemon's peak RSS
/// rose by 65 MB on a scrape).
struct PrometheusExposition {
    enum Kind: String {
        case gauge, counter
    }

    private(set) var bytes: ByteBuffer
    private var pendingHeader: (name: String, help: String, kind: Kind)?
    /// The family being written: naming it again (once per domain, as the chunked renderer does) changes nothing.
    private var currentFamily = ""

    init(capacity: Int) {
        bytes = ByteBufferAllocator().buffer(capacity: capacity)
    }

    /// Starts a family; its header is written with its first sample, so a family without samples leaves no trace.
    mutating func family(_ name: String, help: String, kind: Kind) {
        guard name != currentFamily else { return }
        currentFamily = name
        pendingHeader = (name, help, kind)
    }

    /// What was written so far; writing goes on in a fresh buffer of `capacity`.
    mutating func takeBytes(reserving capacity: Int) -> ByteBuffer {
        defer { bytes = ByteBufferAllocator().buffer(capacity: capacity) }
        return bytes
    }

    /// One sample of the current family.
    mutating func sample(_ name: String, labels: KeyValuePairs<String, String> = [:], value: Double) {
        if let header = pendingHeader {
            bytes.writeString("# HELP \(header.name) \(header.help)\n# TYPE \(header.name) \(header.kind.rawValue)\n")
            pendingHeader = nil
        }
        bytes.writeString(name)
        if !labels.isEmpty {
            bytes.writeStaticString("{")
            var first = true
            for (key, labelValue) in labels {
                if !first { bytes.writeStaticString(",") }
                first = false
                bytes.writeString(key)
                bytes.writeStaticString("=\"")
                Self.escapeLabelValue(labelValue, into: &bytes)
                bytes.writeStaticString("\"")
            }
            bytes.writeStaticString("}")
        }
        bytes.writeStaticString(" ")
        bytes.writeString(Self.format(value))
        bytes.writeStaticString("\n")
    }

    /// Escapes byte by byte: the three escaped characters are ASCII, which never occurs inside a UTF-8 sequence.
    static func escapeLabelValue(_ value: String, into bytes: inout ByteBuffer) {
        let needsEscape = { (byte: UInt8) in
            byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\n")
        }
        guard value.utf8.contains(where: needsEscape) else {
            bytes.writeString(value)
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): bytes.writeStaticString("\\\\")
            case UInt8(ascii: "\""): bytes.writeStaticString("\\\"")
            case UInt8(ascii: "\n"): bytes.writeStaticString("\\n")
            default: bytes.writeInteger(byte)
            }
        }
    }

    /// Whole numbers without a fraction (`1`, `1800000000`), others as Swift prints them; `NaN`, `+Inf`, `-Inf`.
    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
