/// Writes the Prometheus text exposition format (version 0.0.4) in one pass: `# HELP` and `# TYPE` once per
/// family, then its samples, label values escaped (`\\`, `"`, line feed) as the format requires.
///
/// Hand-written on purpose. swift-prometheus 2.4.1's `PrometheusCollectorRegistry` copies a family's whole
/// dictionary each time it registers a new label set (`MetricFamily.adding`), so registering n domains costs
/// O(n²) however it is done: a fresh registry per scrape took 9.3 s at 4,000 domains, and a registry kept across
/// scrapes would pay the same once, then again for every domain added. This writer is linear in the samples.
struct PrometheusExposition {
    enum Kind: String {
        case gauge, counter
    }

    private(set) var text = ""
    private var pendingHeader: (name: String, help: String, kind: Kind)?

    init(capacity: Int) {
        text.reserveCapacity(capacity)
    }

    /// Starts a family; its header is written with its first sample, so a family without samples leaves no trace.
    mutating func family(_ name: String, help: String, kind: Kind) {
        pendingHeader = (name, help, kind)
    }

    /// One sample of the current family.
    mutating func sample(_ name: String, labels: KeyValuePairs<String, String> = [:], value: Double) {
        if let header = pendingHeader {
            text += "# HELP \(header.name) \(header.help)\n# TYPE \(header.name) \(header.kind.rawValue)\n"
            pendingHeader = nil
        }
        text += name
        if !labels.isEmpty {
            text += "{"
            var first = true
            for (key, labelValue) in labels {
                if !first { text += "," }
                first = false
                text += key
                text += "=\""
                Self.escapeLabelValue(labelValue, into: &text)
                text += "\""
            }
            text += "}"
        }
        text += " "
        text += Self.format(value)
        text += "\n"
    }

    static func escapeLabelValue(_ value: String, into text: inout String) {
        for character in value.unicodeScalars {
            switch character {
            case "\\": text += "\\\\"
            case "\"": text += "\\\""
            case "\n": text += "\\n"
            default: text.unicodeScalars.append(character)
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
