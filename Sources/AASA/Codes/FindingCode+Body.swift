extension FindingCode {
    /// The codes about a body's bytes as a whole, raised by the parser for the probe and for `lint FILE` alike.
    public static let body: [FindingCode] = [.originTooLarge, .originBOM, .originJSON, .originSigned]

    public static let originTooLarge = FindingCode(
        .origin, "too_large", severity: .error,
        meaning: "The body is over 131072 bytes (128 KB); the transfer is cut at that cap.",
        whyAppleCares: "Apple documents a 128 KB limit, and devices stop reading after 131072 bytes: the file is lost.",
        fix: "Shrink the file below 128 KB (merge rules, drop unused entries).",
        example: "the body is 140000 bytes; Apple stops reading after 131072 bytes and rejects the file")

    public static let originBOM = FindingCode(
        .origin, "bom", severity: .warning, concernsContent: true,
        meaning: "The body starts with a UTF-8 byte order mark (the document is still read after it).",
        whyAppleCares: "JSON forbids a byte order mark, and how Apple handles one is not documented.",
        fix: "Save the file as UTF-8 without a byte order mark.",
        example: "the body starts with a UTF-8 byte order mark (EF BB BF); save the file as UTF-8 without BOM")

    public static let originJSON = FindingCode(
        .origin, "json", severity: .error,
        meaning: "The body is neither valid JSON nor PKCS7-wrapped JSON (often an HTML error or login page).",
        whyAppleCares: "Apple cannot read the file, so devices get no associations for the domain.",
        fix: "Deploy a valid JSON document (validate it with `aasa-monitor lint`).",
        example: "the body is an HTML page, not JSON: a login wall, an error page or a single-page app's index")

    public static let originSigned = FindingCode(
        .origin, "signed", severity: .info, concernsContent: true,
        meaning: "The file is a legacy PKCS7-signed document.",
        whyAppleCares: "Apple still accepts signed files, but they are a leftover of iOS 8 and harder to inspect.",
        fix: "Nothing required; consider serving plain JSON instead of a signed file.",
        example: "legacy PKCS7-signed file (iOS 8); Apple still reads the JSON inside without checking the signature")
}
