import Foundation

/// The one JSON dialect of aasa-monitor's interface: sorted keys, unescaped slashes, RFC 3339 UTC times.
///
/// Every `--json` output, stored report and webhook body goes through these coders, so a time or a URL is written
/// the same way everywhere (times as RFC 3339 UTC, keys in `snake_case`).
public enum MonitorJSON {
    /// An encoder for the interface; `pretty` for people reading the output.
    public static func encoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339.string(date))
        }
        return encoder
    }

    /// A decoder that reads what `encoder` wrote.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = RFC3339.date(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "expected an RFC 3339 time, found \(text)")
            }
            return date
        }
        return decoder
    }
}
